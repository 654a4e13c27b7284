// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentView } from '../../../core/contracts/payments';
import common from '../../i18n/locales/az/common.json';
import payments from '../../i18n/locales/az/payments.json';
import { I18n, I18nProvider } from '../../i18n';
import { PaymentsTab } from './PaymentsTab';

/* The customer's own payments: a top-up refunded to the card reads so (docs/rules.md#top-up-refunds). */

const view = (over: Partial<PaymentView> & Pick<PaymentView, 'reference'>): PaymentView => ({
  id: over.reference,
  type: 'balance_topup',
  amountUsdMicros: 10_000_000,
  amountMinor: 1700,
  currency: 'AZN',
  method: 'payriff',
  status: 'completed',
  provider: 'payriff',
  transactionId: 'ORD-1',
  createdAt: '2026-11-20T10:00:00.000Z',
  reversedAt: null,
  refundStatus: null,
  bonusMicros: 0,
  couponMicros: 0,
  refundedAt: null,
  ...over,
});

beforeEach(() => {
  const list = [
    view({ reference: 'TP-REFUNDED', refundStatus: 'completed', refundedAt: '2026-11-21T10:00:00.000Z' }),
    view({ reference: 'TP-WAITING', refundStatus: 'pending' }),
    // Refused by the gateway: the balance was given back, so the top-up stands.
    view({ reference: 'TP-KEPT', refundStatus: 'failed' }),
    // The card got only part of it back.
    view({ reference: 'TP-PART', refundStatus: 'partial', refundedAt: '2026-11-21T10:00:00.000Z' }),
  ];
  vi.stubGlobal('fetch', async () => Response.json({ payments: list }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the customer’s payments', () => {
  it('show a top-up refunded to the card as refunded, one waiting as pending, one given back only in part as partly refunded, and a refused refund as completed', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={new I18n('az', { az: { common, payments } })}>
          <PaymentsTab locale="az" onTopUp={() => {}} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('payment-history');
    const badge = (reference: string) => document.querySelector(`tr[data-payment="${reference}"] [data-status]`) as HTMLElement;
    expect([badge('TP-REFUNDED').dataset.status, badge('TP-REFUNDED').textContent]).toEqual(['refunded', 'Karta qaytarılıb']);
    expect([badge('TP-WAITING').dataset.status, badge('TP-WAITING').textContent]).toEqual(['refunding', 'Karta qaytarılır']);
    expect(badge('TP-KEPT').dataset.status).toBe('completed');
    expect([badge('TP-PART').dataset.status, badge('TP-PART').textContent]).toEqual(['refundedPartly', 'Karta qismən qaytarılıb']);
  });
});

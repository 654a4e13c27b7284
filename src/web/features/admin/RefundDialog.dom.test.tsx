// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderStatus } from '../../../core/orderStatus';
import admin from '../../i18n/locales/az/admin.json';
import common from '../../i18n/locales/az/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { RefundDialog } from './AdminOrdersPage';
import type { OrderDetail } from './api';

/*
 * The team's refund dialog in a document, in Azerbaijani: what it says before the refund is
 * confirmed, and what it sends. The server is a stub of fetch; e2e/admin.e2e.ts runs the order
 * dialog against the real one.
 */

let sent: { path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const body = input instanceof Request ? await input.text() : init?.body;
    sent.push({ path, body: body ? JSON.parse(String(body)) : undefined });
    return Response.json({ id: 'o1', status: 'refunded' });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const order = (status: OrderStatus) =>
  ({
    id: '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11',
    number: 'AR-7K2M9Q4X1Z',
    serviceId: '101',
    serviceName: 'Instagram Followers',
    platform: 'instagram',
    serviceType: 'Followers',
    link: 'https://instagram.com/artim',
    quantity: 1000,
    chargeMicros: 12_500_000,
    refundedMicros: 0,
    status,
    startCount: null,
    currentCount: null,
    remains: null,
    note: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    parentId: null,
    drip: null,
    userId: 'u1',
    email: 'customer@example.com',
    name: 'Customer',
    providerOrderId: null,
    providerStatus: null,
    params: {},
    viaApi: false,
    apiId: 100001,
    submittedAt: '2025-01-01T00:00:01.000Z',
    checkedAt: null,
    runsRefundedMicros: null,
    refundableMicros: 12_500_000,
  }) satisfies OrderDetail['order'];

function renderDialog(status: OrderStatus) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('az', { az: { common, admin } })}>
        <RefundDialog order={order(status)} onClose={() => {}} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

describe('the team’s refund dialog', () => {
  it('warns, before the refund is confirmed, that an order of unknown state may still be delivered by the provider', async () => {
    renderDialog('unknown');
    const warning = await screen.findByTestId('refund-unknown');
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toContain(admin.orders.refundUnknownTitle);
    expect(warning.textContent).toContain('SMM API v2');
    expect(sent).toEqual([]);

    // The team may still refund it, having been told.
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Provayder cavab vermir' } });
    fireEvent.click(screen.getByRole('button', { name: admin.orders.refundSubmit }));
    await waitFor(() => expect(sent.map((s) => s.path)).toEqual([`/api/admin/orders/${order('unknown').id}/refund`]));
    expect(sent[0]!.body).toEqual({ reason: 'Provayder cavab vermir' });
  });

  it('says nothing of the kind for an order whose state is known', async () => {
    renderDialog('completed');
    expect(await screen.findByRole('button', { name: admin.orders.refundSubmit })).toBeTruthy();
    expect(screen.queryByTestId('refund-unknown')).toBeNull();
    expect(screen.queryByText(admin.orders.refundUnknownTitle)).toBeNull();
  });
});

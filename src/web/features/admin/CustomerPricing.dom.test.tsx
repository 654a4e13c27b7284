// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISCOUNT_MAX_PERCENT } from '../../../core/discounts';
import type { Language } from '../../../core/i18n';
import azAdmin from '../../i18n/locales/az/admin.json';
import azCommon from '../../i18n/locales/az/common.json';
import enAdmin from '../../i18n/locales/en/admin.json';
import enCommon from '../../i18n/locales/en/common.json';
import trAdmin from '../../i18n/locales/tr/admin.json';
import trCommon from '../../i18n/locales/tr/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { StaffRoles } from './access';
import type { AdminUser, CustomerGroup } from './api';
import { PricingBadge, PricingDialog } from './CustomerPricing';

/*
 * A customer's discount on the team's users page, in a document: what their row and the dialog
 * show of it, which percents the dialog takes (the contract's, src/core/discounts.ts), what it
 * sends and how a refusal reads. The server is a stub of fetch answering `reply`;
 * src/server/discounts/discounts.test.ts runs the routes.
 */

const texts = { az: { admin: azAdmin, common: azCommon }, tr: { admin: trAdmin, common: trCommon }, en: { admin: enAdmin, common: enCommon } } as const;

const RESELLERS = '7a2b3c4d-1e2f-4a5b-8c6d-9e0f1a2b3c4d';
const VIP = '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e';
const groups: CustomerGroup[] = [
  { id: RESELLERS, name: 'Resellers', discountPercent: '10', customers: 3 },
  { id: VIP, name: 'VIP', discountPercent: '7.5', customers: 1 },
];
const customer = (pricing: AdminUser['pricing']) => ({ id: 'u-1', email: 'ayla@example.az', name: 'Ayla', pricing }) as AdminUser;

let sent: { method: string; path: string; body: unknown }[];
let reply: (path: string, method: string) => Response;

beforeEach(() => {
  sent = [];
  reply = () => Response.json({ discountPercent: null, groupId: null });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const text = input instanceof Request ? await input.text() : init?.body;
    sent.push({ method, path, body: text ? JSON.parse(String(text)) : undefined });
    if (path === '/api/admin/customer-groups') return Response.json({ groups });
    return reply(path, method);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderIn(lang: Language, children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: texts[lang] })}>
        <StaffRoles roles={['admin']}>{children}</StaffRoles>
        <Toaster />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const saves = () => sent.filter((s) => s.method === 'PUT');
const percentField = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
/** The group select once the groups have arrived. */
async function groupSelect(label: string) {
  await waitFor(() => expect(within(screen.getByLabelText(label)).getAllByRole('option')).toHaveLength(groups.length + 1));
  return screen.getByLabelText(label) as HTMLSelectElement;
}

describe('a customer’s discount', () => {
  it('shows the customer’s own discount and group in their row and in the dialog, in Azerbaijani and Turkish', async () => {
    renderIn('az', <PricingBadge user={customer({ discountPercent: '12.5', groupId: RESELLERS })} />);
    // Their own discount at once; the group's name once the groups have arrived.
    expect((await screen.findByTestId('user-pricing')).textContent).toMatch(/^Endirim 12,5%/);
    await waitFor(() => expect(screen.getByTestId('user-pricing').textContent).toBe('Endirim 12,5% (şəxsi, Resellers qrupunda)'));
    cleanup();

    renderIn('tr', <PricingBadge user={customer({ discountPercent: null, groupId: VIP })} />);
    expect((await screen.findByTestId('user-pricing')).textContent).toBe('VIP: %7,5');
    cleanup();

    renderIn('az', <PricingDialog user={customer({ discountPercent: '12.5', groupId: RESELLERS })} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Endirim və qrup');
    expect(dialog.textContent).toContain('ayla@example.az');
    expect(percentField('Şəxsi endirim (%)').value).toBe('12.5');
    const select = await groupSelect('Müştəri qrupu');
    expect(select.value).toBe(RESELLERS);
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Qrup yoxdur', 'Resellers (10%)', 'VIP (7,5%)']);
    expect(dialog.textContent).toContain(`0-dan ${DISCOUNT_MAX_PERCENT}-a qədər, ən çox 2 onluq rəqəm.`);
  });

  it(`takes a percent from 0 to ${DISCOUNT_MAX_PERCENT} with at most 2 decimals, says so of any other, and sends nothing until it is one`, async () => {
    renderIn('en', <PricingDialog user={customer({ discountPercent: null, groupId: RESELLERS })} onClose={() => {}} />);
    await groupSelect('Customer group');
    const field = percentField('Own discount (%)');
    const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    for (const wrong of ['90.01', '91', '100', '-1', '12.345', 'ten', '.5']) {
      fireEvent.change(field, { target: { value: wrong } });
      save();
      expect(await screen.findByText(`Enter a percent from 0 to ${DISCOUNT_MAX_PERCENT} with at most 2 decimals.`), wrong).toBeTruthy();
      expect(field.getAttribute('aria-invalid'), wrong).toBe('true');
      expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);
    }
    expect(saves()).toEqual([]);

    // The bounds themselves are taken.
    fireEvent.change(field, { target: { value: ' 90 ' } });
    save();
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toEqual({ method: 'PUT', path: '/api/admin/users/u-1/pricing', body: { discountPercent: '90', groupId: RESELLERS } });
    expect(screen.queryByText(`Enter a percent from 0 to ${DISCOUNT_MAX_PERCENT} with at most 2 decimals.`)).toBeNull();
  });

  it('saves a blank discount as not set and "no group" as none, says so and closes', async () => {
    const closed = vi.fn();
    reply = () => Response.json({ discountPercent: null, groupId: null });
    renderIn('en', <PricingDialog user={customer({ discountPercent: '0', groupId: RESELLERS })} onClose={closed} />);
    fireEvent.change(await groupSelect('Customer group'), { target: { value: '' } });
    fireEvent.change(percentField('Own discount (%)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Discount saved')).toBeTruthy();
    expect(closed).toHaveBeenCalledOnce();
    expect(saves().map((s) => s.body)).toEqual([{ discountPercent: null, groupId: null }]);
  });

  it('words the server’s refusal in the reader’s language and stays open', async () => {
    const closed = vi.fn();
    reply = () => Response.json({ error: { code: 'VALIDATION_FAILED', message: 'x' } }, { status: 422 });
    renderIn('tr', <PricingDialog user={customer({ discountPercent: null, groupId: null })} onClose={closed} />);
    await groupSelect('Müşteri grubu');
    // Typed with the Turkish decimal comma: sent as the contract writes it.
    fireEvent.change(percentField('Kişisel indirim (%)'), { target: { value: '0,25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Kaydet' }));
    expect(await screen.findByText('İndirim kaydedilemedi')).toBeTruthy();
    expect(screen.getByText('Bazı değerler geçerli değil.')).toBeTruthy();
    expect(saves().map((s) => s.body)).toEqual([{ discountPercent: '0.25', groupId: null }]);
    expect(closed).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

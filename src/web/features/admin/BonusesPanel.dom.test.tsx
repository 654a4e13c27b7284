// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import '../../testing/domSetup';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffBonuses } from '../../../core/contracts/bonuses';
import admin from '../../i18n/locales/az/admin.json';
import common from '../../i18n/locales/az/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { StaffRoles } from './access';
import { BonusesPanel } from './BonusesPanel';

/*
 * The team's bonus rules and coupons in a document, in Azerbaijani: what each gives and has given,
 * what a new coupon sends, a refusal kept beside what was typed, and the read-only view. The
 * server is a stub of fetch; src/server/admin/bonuses.test.ts runs the routes.
 */

const LIST: StaffBonuses = {
  rules: [
    { id: 1, name: 'Kart həftəsi', method: 'epoint', minMicros: 20_000_000, percentBp: 1000, capMicros: 5_000_000, startsAt: null, endsAt: null, enabled: true, uses: 3, givenMicros: 7_500_000 },
    { id: 2, name: 'Hər üsul', method: null, minMicros: 0, percentBp: 250, capMicros: null, startsAt: null, endsAt: null, enabled: false, uses: 0, givenMicros: 0 },
  ],
  coupons: [
    { id: 7, code: 'WELCOME5', kind: 'amount', amountMicros: 5_000_000, percentBp: null, capMicros: null, minTopUpMicros: 10_000_000, perCustomer: 1, totalUses: 100, expiresAt: null, enabled: true, uses: 12, givenMicros: 60_000_000 },
  ],
};
let sent: { method: string; path: string; body: unknown }[];
/** What the list reads. */
let current: StaffBonuses;
/** What the next write is answered with; the list unless set. */
let refuseWrite: { status: number; code: string } | null;

beforeEach(() => {
  sent = [];
  refuseWrite = null;
  current = LIST;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://shop.test'), init);
    const path = new URL(request.url).pathname;
    const text = await request.text();
    sent.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
    if (request.method !== 'GET' && refuseWrite) return Response.json({ error: { code: refuseWrite.code, message: 'refused' } }, { status: refuseWrite.status });
    return Response.json(current, { status: request.method === 'POST' ? 201 : 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(roles: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('az', { az: { admin, common } })}>
        <StaffRoles roles={roles}>
          <MemoryRouter initialEntries={['/az/admin/payments']}>
            <Routes>
              <Route path="/:lang/admin/payments" element={<BonusesPanel />} />
            </Routes>
          </MemoryRouter>
        </StaffRoles>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const writes = () => sent.filter((s) => s.method !== 'GET');
const b = admin.bonuses;

describe('bonuses and coupons panel', () => {
  it('lists the rules and coupons with their terms, uses and what they gave', async () => {
    renderPanel(['admin']);
    const rules = await screen.findByRole('region', { name: b.rulesTitle });
    const card = within(rules).getAllByRole('row').find((r) => r.textContent?.includes('Kart həftəsi'))!.textContent!;
    expect(card).toContain(admin.methods.kinds.epoint);
    expect(card).toContain('10 %');
    expect(card).toContain(b.on);
    expect(card).toContain(b.always);
    const any = within(rules).getAllByRole('row').find((r) => r.textContent?.includes('Hər üsul'))!.textContent!;
    expect(any).toContain(b.anyMethod);
    expect(any).toContain('2,5 %');
    expect(any).toContain(b.noCap);
    expect(any).toContain(b.off);
    const coupons = screen.getByRole('region', { name: b.couponsTitle });
    const row = within(coupons).getAllByRole('row').find((r) => r.textContent?.includes('WELCOME5'))!.textContent!;
    expect(row).toContain('12 / 100');
    expect(row).toContain(b.never);
  });

  it('sends a new coupon in exact units (micro-dollars, hundredths of a percent), after the fields it refuses are mended', async () => {
    renderPanel(['admin']);
    fireEvent.click(await screen.findByRole('button', { name: b.newCoupon }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(b.code), { target: { value: 'x' } });
    fireEvent.change(within(dialog).getByLabelText(b.kind), { target: { value: 'percent' } });
    fireEvent.change(within(dialog).getByLabelText(b.percentField), { target: { value: '150' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    expect(await within(dialog).findByText(b.codeInvalid)).toBeTruthy();
    expect(within(dialog).getByText(b.percentInvalid)).toBeTruthy();
    expect(within(dialog).getByLabelText(b.percentField).getAttribute('aria-invalid')).toBe('true');
    expect(writes()).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(b.code), { target: { value: 'spring25' } });
    fireEvent.change(within(dialog).getByLabelText(b.percentField), { target: { value: '12,5' } });
    fireEvent.change(within(dialog).getByLabelText(b.capField), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByLabelText(b.fromField), { target: { value: '20.50' } });
    fireEvent.change(within(dialog).getByLabelText(b.perCustomerField), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText(b.totalUsesField), { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/api/admin/bonuses/coupons',
      body: { code: 'spring25', kind: 'percent', amountMicros: null, percentBp: 1250, capMicros: 5_000_000, minTopUpMicros: 20_500_000, perCustomer: 2, totalUses: 100, expiresAt: null, enabled: true },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a refused save at its field and keeps what was typed', async () => {
    renderPanel(['admin']);
    fireEvent.click(await screen.findByRole('button', { name: b.newCoupon }));
    const dialog = await screen.findByRole('dialog');
    refuseWrite = { status: 409, code: 'COUPON_CODE_TAKEN' };
    fireEvent.change(within(dialog).getByLabelText(b.code), { target: { value: 'welcome5' } });
    fireEvent.change(within(dialog).getByLabelText(b.amountField), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    expect(await within(dialog).findByText(common.errors.COUPON_CODE_TAKEN)).toBeTruthy();
    expect(writes()[0]!.body).toMatchObject({ code: 'welcome5', kind: 'amount', amountMicros: 3_000_000 });
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect((within(dialog).getByLabelText(b.code) as HTMLInputElement).value).toBe('welcome5');
    expect((within(dialog).getByLabelText(b.amountField) as HTMLInputElement).value).toBe('3');

    // Another refusal is said above the form, the fields kept as well.
    refuseWrite = { status: 422, code: 'VALIDATION_FAILED' };
    fireEvent.change(within(dialog).getByLabelText(b.code), { target: { value: 'welcome6' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect((within(dialog).getByLabelText(b.amountField) as HTMLInputElement).value).toBe('3');
  });

  it('changes a rule: its terms shown in the dialog, sent back with the change', async () => {
    renderPanel(['admin']);
    fireEvent.click(await screen.findByRole('button', { name: admin.common.editItem.replace('{{name}}', 'Kart həftəsi') }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(b.percentField) as HTMLInputElement).value).toBe('10');
    fireEvent.change(within(dialog).getByLabelText(b.method), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText(b.capField), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'PUT',
      path: '/api/admin/bonuses/rules/1',
      body: { name: 'Kart həftəsi', method: null, minMicros: 20_000_000, percentBp: 1000, capMicros: null, startsAt: null, endsAt: null, enabled: true },
    });
  });

  describe('dates on the shop\'s clock (Baku, UTC+4) in a browser elsewhere (New York)', () => {
    const zone = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = 'America/New_York';
    });
    afterAll(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    const inZone = (what: string) => b.inShopZone.replace('{{what}}', what).replace('{{offset}}', 'UTC+4');
    const hint = (text: string) => text.replace('{{offset}}', 'UTC+4');

    it('shows a rule\'s period and a coupon\'s expiry in Baku time, labelled so, and types them back the same way', async () => {
      expect(new Date('2026-03-01T20:00:00.000Z').getHours()).toBe(15);
      current = {
        rules: [{ ...LIST.rules[0]!, startsAt: '2026-03-01T20:00:00.000Z', endsAt: '2026-03-31T19:59:00.000Z' }],
        coupons: [{ ...LIST.coupons[0]!, expiresAt: '2026-12-31T20:00:00.000Z' }],
      };
      renderPanel(['admin']);
      const rules = await screen.findByRole('region', { name: b.rulesTitle });
      expect(within(rules).getByRole('columnheader', { name: inZone(b.period) })).toBeTruthy();
      const rule = within(rules).getAllByRole('row').find((r) => r.textContent?.includes('Kart həftəsi'))!.textContent!;
      expect(rule).toContain('02.03.2026 00:00 – 31.03.2026 23:59');
      const coupons = screen.getByRole('region', { name: b.couponsTitle });
      expect(within(coupons).getByRole('columnheader', { name: inZone(b.expires) })).toBeTruthy();
      expect(within(coupons).getAllByRole('row').find((r) => r.textContent?.includes('WELCOME5'))!.textContent).toContain('01.01.2027 00:00');

      // The rule's dialog: the fields hold Baku's wall time and say so; a changed end is read as Baku's.
      fireEvent.click(screen.getByRole('button', { name: admin.common.editItem.replace('{{name}}', 'Kart həftəsi') }));
      const dialog = await screen.findByRole('dialog');
      expect((within(dialog).getByLabelText(b.startsAt) as HTMLInputElement).value).toBe('2026-03-02T00:00');
      expect((within(dialog).getByLabelText(b.endsAt) as HTMLInputElement).value).toBe('2026-03-31T23:59');
      expect(within(dialog).getAllByText(hint(b.openHint))).toHaveLength(2);
      fireEvent.change(within(dialog).getByLabelText(b.endsAt), { target: { value: '2026-04-01T00:00' } });
      fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
      await waitFor(() => expect(writes()).toHaveLength(1));
      expect(writes()[0]!.body).toMatchObject({ startsAt: '2026-03-01T20:00:00.000Z', endsAt: '2026-03-31T20:00:00.000Z' });
    });

    it('reads a new coupon\'s expiry as Baku time', async () => {
      renderPanel(['admin']);
      fireEvent.click(await screen.findByRole('button', { name: b.newCoupon }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText(hint(b.neverHint))).toBeTruthy();
      fireEvent.change(within(dialog).getByLabelText(b.code), { target: { value: 'newyear' } });
      fireEvent.change(within(dialog).getByLabelText(b.amountField), { target: { value: '3' } });
      fireEvent.change(within(dialog).getByLabelText(b.expiresField), { target: { value: '2026-12-31T23:59' } });
      fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
      await waitFor(() => expect(writes()).toHaveLength(1));
      expect(writes()[0]!.body).toMatchObject({ code: 'newyear', expiresAt: '2026-12-31T19:59:00.000Z' });
    });
  });

  it('is read-only for who reads payments without setting prices', async () => {
    renderPanel(['moderator']);
    expect(await screen.findByText('WELCOME5')).toBeTruthy();
    expect(screen.getByText('Kart həftəsi')).toBeTruthy();
    expect(screen.queryByRole('button', { name: b.newCoupon })).toBeNull();
    expect(screen.queryByRole('button', { name: b.newRule })).toBeNull();
    expect(screen.queryAllByRole('button', { name: new RegExp(admin.common.editItem.replace('{{name}}', '')) })).toHaveLength(0);
    expect(screen.getByText(b.leadReadOnly)).toBeTruthy();
  });
});

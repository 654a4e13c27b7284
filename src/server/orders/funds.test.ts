import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { readProviderCatalogue, setServiceSources } from '../catalog/sources';
import type { Database } from '../db/client';
import { catalogServices, devMailbox, orders, providers, users } from '../db/schema';
import { createLogger } from '../logger';
import { createMailer } from '../mail';
import { createProvider, readBalance, registryOver, type RegisteredProvider } from '../providers';
import { saveSettings } from '../settings/service';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { checkProviderFunds, providerAlerts } from './funds';
import type { OrdersDeps } from './service';
import { claimPending, submitClaimed, submitOrder } from './submission';

/**
 * When the providers' money runs out (orders/funds.ts): two sandbox providers over HTTP whose
 * balances the test sets; the shop's service is bought from A first, then from B.
 */

const logger = createLogger('silent');
let database: Database;
let sandboxA: SandboxProvider;
let sandboxB: SandboxProvider;
let a: RegisteredProvider;
let b: RegisteredProvider;
let deps: OrdersDeps & { mailer: ReturnType<typeof createMailer> };
let service: typeof catalogServices.$inferSelect;

async function stored(name: string, sandbox: SandboxProvider): Promise<RegisteredProvider> {
  const [row] = await database.db.insert(providers).values({ name, protocol: 'smm-v2', url: sandbox.v2Url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
  return { id: row!.id, name, enabled: true, client: createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 }) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandboxA = await startSandboxProvider({ serviceCount: 20, seed: 8 });
  sandboxB = await startSandboxProvider({ serviceCount: 20, seed: 8 });
  a = await stored('Panel A', sandboxA);
  b = await stored('Panel B', sandboxB);
  const list = [a, b];
  deps = { db: database.db, providers: registryOver(() => list), logger, mailer: createMailer({ from: 'shop@artim.test', db: database.db }) };
  await readProviderCatalogue(database.db, a, { isDefault: true });
  await readProviderCatalogue(database.db, b, { isDefault: false });
  service = (await database.db.select().from(catalogServices)).find((s) => s.params.length === 0 && !s.dripfeed)!;
  await setServiceSources(database.db, service.id, { sources: [{ providerId: a.id!, providerServiceId: service.id }, { providerId: b.id!, providerServiceId: service.id }] });
  await saveSettings(database.db, { notification_email: 'team@artim.test', provider_low_balance: 50, provider_funds_wait_hours: 24 });
});
afterAll(async () => {
  await sandboxA?.close();
  await sandboxB?.close();
  await database?.close();
});
beforeEach(async () => {
  sandboxA.control.setBalance(null);
  sandboxB.control.setBalance(null);
  await database.db.update(providers).set({ fundsShortSince: null, fundsAlertedAt: null, balance: null, balanceAt: null });
});

let n = 0;
const row = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
async function placeAndSend() {
  const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
  const placed = await placeOrderBody(deps, user.id, { serviceId: service.id, link: `https://www.instagram.com/funds_${++n}_${Date.now()}/`, quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
  return { user, placed, sent: await submitOrder(deps, await row(placed.id)) };
}
const mails = () => database.db.select().from(devMailbox).where(eq(devMailbox.to, 'team@artim.test'));

describe('a provider out of money', () => {
  it('is passed over for the next provider that has money', async () => {
    sandboxA.control.setBalance('0');
    const { sent } = await placeAndSend();
    expect(sent).toMatchObject({ status: 'pending', providerId: b.id, fundsWaitSince: null, noteCode: null });
    expect(sent.providerOrderId).toBeTruthy();
    const [shortA] = await database.db.select().from(providers).where(eq(providers.id, a.id!));
    expect(shortA!.fundsShortSince).not.toBeNull();
  });

  it('when none has money, the order waits charged, the team is told once, and it goes as soon as a provider has money again', async () => {
    sandboxA.control.setBalance('0');
    sandboxB.control.setBalance('0');
    const mailsBefore = (await mails()).length;
    const { user, placed, sent } = await placeAndSend();
    expect(sent).toMatchObject({ status: 'pending', providerOrderId: null, submittedAt: null, noteCode: 'awaiting_provider_funds', refundedMicros: 0 });
    expect(sent.fundsWaitSince).not.toBeNull();
    expect(sent.fundsRetryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await balanceOf(user.id)).toBe(1_000_000_000 - placed.chargeMicros);
    // Not claimed again before its time.
    expect((await claimPending(database.db, 100)).map((o) => o.id)).not.toContain(placed.id);

    expect(await checkProviderFunds(deps)).toMatchObject({ alerted: 2, refunded: 0 });
    expect(await checkProviderFunds(deps)).toMatchObject({ alerted: 0 });
    const told = (await mails()).slice(mailsBefore);
    expect(told).toHaveLength(2);
    expect(told.map((m) => m.subject).join(' ')).toContain('Panel A');
    const alerts = await providerAlerts(database.db);
    expect(alerts.waitingForFunds).toBeGreaterThanOrEqual(1);
    expect(alerts.providers.map((p) => p.name).sort()).toEqual(['Panel A', 'Panel B']);

    // B is topped up; its balance read after the episode began ends it, and the order goes out.
    sandboxB.control.setBalance('500');
    expect(await readBalance(database.db, b)).toMatchObject({ ok: true });
    expect(await checkProviderFunds(deps)).toMatchObject({ recovered: 1 });
    const claimed = await claimPending(database.db, 100);
    expect(claimed.map((o) => o.id)).toContain(placed.id);
    await submitClaimed(deps, claimed.find((o) => o.id === placed.id)!);
    expect(await row(placed.id)).toMatchObject({ providerId: b.id, fundsWaitSince: null, fundsRetryAt: null, noteCode: null, refundedMicros: 0 });
    expect((await row(placed.id)).providerOrderId).toBeTruthy();
    // The episode is over for B and its alert may come again next time; A's is not.
    const [pa] = await database.db.select().from(providers).where(eq(providers.id, a.id!));
    const [pb] = await database.db.select().from(providers).where(eq(providers.id, b.id!));
    expect(pa!.fundsShortSince).not.toBeNull();
    expect(pb!.fundsShortSince).toBeNull();
  });

  it('is refunded in full, with its cost given back, once it has waited the set time', async () => {
    sandboxA.control.setBalance('0');
    sandboxB.control.setBalance('0');
    const { user, sent } = await placeAndSend();
    expect(sent.noteCode).toBe('awaiting_provider_funds');
    expect(await checkProviderFunds(deps, new Date(Date.now() + 23 * 3_600_000))).toMatchObject({ refunded: 0 });
    const later = await checkProviderFunds(deps, new Date(Date.now() + 25 * 3_600_000));
    expect(later.refunded).toBeGreaterThanOrEqual(1);
    const refunded = await row(sent.id);
    expect(refunded).toMatchObject({ status: 'error', noteCode: 'provider_no_funds', refundedMicros: refunded.chargeMicros, providerOrderId: null });
    expect(refunded.costRefundedMicros).toBe(refunded.costMicros);
    expect(await balanceOf(user.id)).toBe(1_000_000_000);
    expect(sandboxA.control.orders().some((o) => o.link === refunded.link) || sandboxB.control.orders().some((o) => o.link === refunded.link)).toBe(false);
    expect(await verifyLedger(database.db)).toEqual([]);
    expect(await database.db.select().from(orders).where(and(isNotNull(orders.fundsWaitSince), eq(orders.status, 'pending')))).toHaveLength(
      (await database.db.select().from(orders).where(and(eq(orders.noteCode, 'awaiting_provider_funds'), eq(orders.status, 'pending')))).length,
    );
  });

  it('shows a provider whose balance is below the threshold on the dashboard before it runs out', async () => {
    sandboxA.control.setBalance('20');
    await readBalance(database.db, a);
    const alerts = await providerAlerts(database.db);
    expect(alerts.providers.find((p) => p.name === 'Panel A')).toMatchObject({ low: true, fundsShortSince: null });
    expect(alerts.providers.find((p) => p.name === 'Panel B')).toBeUndefined();
  });
});

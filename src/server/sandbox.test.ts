import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogServices, orders, providers, serviceSources } from './db/schema';
import { parseEnv } from './env';
import { createLogger } from './logger';
import { SANDBOX_SLOT_2, startExternalParts, type ExternalParts } from './sandbox';
import { startSandboxPayriff } from '../../sandbox/payriff';
import { payriffEnv } from './testing/sandbox';
import { clientFor } from './providers';
import { startServer } from './server';
import { submitOrder } from './orders/submission';
import { createTestDatabase } from './testing/db';
import { placeOrderBody } from './testing/orders';
import { createCustomer } from './testing/users';

const dir = mkdtempSync(join(tmpdir(), 'artim-sandbox-parts-'));
const started: ExternalParts[] = [];
afterAll(async () => {
  for (const parts of started) await parts.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a sandbox provider tells of itself (its control endpoint). */
const stateOf = async (p: { url: string }) => (await fetch(`${p.url}/__control`)).json() as Promise<{ refuseEvery: number; priceFactor: string }>;

async function partsOf(extra: Record<string, string>): Promise<ExternalParts> {
  const dataDir = join(dir, String(started.length));
  mkdirSync(dataDir);
  const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, SANDBOX_PROVIDER_LATENCY_MS: '0', SANDBOX_PROVIDER_RATE_LIMIT: '0', ...extra });
  const parts = await startExternalParts(env);
  started.push(parts);
  return parts;
}

describe('the sandbox of a fresh shop', () => {
  it('speaks SMM v2 by default, so its services have the refill, cancel and drip-feed their provider gives them', async () => {
    const provider = clientFor((await partsOf({})).envProvider);
    expect(provider.protocol).toBe('smm-v2');
    const services = await provider.services();
    expect(services.length).toBeGreaterThan(200);
    const promising = services.filter((s) => /\d+d refill|lifetime refill/i.test(s.name));
    expect(promising.length).toBeGreaterThan(0);
    expect(promising.every((s) => s.refill)).toBe(true);
    expect(services.filter((s) => s.refill)).toEqual(promising);
    expect(services.some((s) => s.cancel)).toBe(true);
    expect(services.some((s) => s.dripfeed)).toBe(true);
  });

  it('speaks the QQTube-style API when asked to, which has no refill or cancel', async () => {
    const provider = clientFor((await partsOf({ SANDBOX_PROVIDER_PROTOCOL: 'qqtube' })).envProvider);
    expect(provider.protocol).toBe('qqtube');
    const services = await provider.services();
    expect(services.length).toBeGreaterThan(200);
    expect(services.some((s) => s.refill || s.cancel)).toBe(false);
    expect(() => parseEnv({ SANDBOX_PROVIDER_PROTOCOL: 'soap' })).toThrow(/SANDBOX_PROVIDER_PROTOCOL/);
  });
});

describe('the sandbox’s second provider', () => {
  it('runs beside the first over the other protocol: the same services at 1.15 times the prices, its own key and state file; the first refuses every 7th order, the second none', async () => {
    const parts = await partsOf({ SANDBOX_SERVICE_COUNT: '40' });
    expect(parts.envProviders).toHaveLength(2);
    const [first, second] = parts.envProviders;
    expect(first).toBe(parts.envProvider);
    expect(first).toMatchObject({ name: 'Sandbox', protocol: 'smm-v2', sandbox: true });
    expect(first!.envSlot).toBeUndefined();
    expect(second).toMatchObject({ name: 'Sandbox 2', protocol: 'qqtube', sandbox: true, envSlot: SANDBOX_SLOT_2 });
    expect(second!.url).not.toBe(first!.url);
    expect(second!.key).not.toBe(first!.key);
    const [one, two] = [clientFor(first!), clientFor(second!)];
    const [a, b] = await Promise.all([one.services(), two.services()]);
    expect(b.map((s) => s.id)).toEqual(a.map((s) => s.id));
    for (const [i, s] of b.entries()) {
      const [x, y] = [a[i]!.tiers[0]!, s.tiers[0]!];
      expect(new Big(y.price).times(1000).div(y.pricingPer).eq(new Big(x.price).times(1000).div(x.pricingPer).times('1.15')), s.id).toBe(true);
    }
    expect(await stateOf(parts.sandbox.provider!)).toMatchObject({ refuseEvery: 7 });
    expect(await stateOf(parts.sandbox.second!)).toMatchObject({ refuseEvery: 0, priceFactor: '1.15' });
    const svc = a.find((s) => s.params.length === 0 && s.platform === 'instagram')!;
    const order = (n: number) => ({ serviceId: svc.id, link: `https://www.instagram.com/second_${n}/`, quantity: svc.amountMinimum, params: {} });
    const refused: number[] = [];
    for (let n = 1; n <= 14; n++) await one.add(order(n)).catch(() => refused.push(n));
    expect(refused).toEqual([7, 14]);
    for (let n = 1; n <= 14; n++) await two.add(order(n));
    expect(parts.sandbox.second!.control.orders()).toHaveLength(14);
    await parts.close();
    const dataDir = join(dir, String(started.length - 1));
    expect(existsSync(join(dataDir, 'sandbox-provider.json'))).toBe(true);
    expect(existsSync(join(dataDir, 'sandbox-provider-2.json'))).toBe(true);
  });

  it('is left out with SANDBOX_SECOND_PROVIDER=false, and the first then refuses nothing unless asked; SANDBOX_PROVIDER_REFUSE_EVERY and the price factor are checked', async () => {
    const alone = await partsOf({ SANDBOX_SECOND_PROVIDER: 'false', SANDBOX_SERVICE_COUNT: '10' });
    expect(alone.envProviders).toEqual([alone.envProvider]);
    expect(alone.sandbox.second).toBeUndefined();
    expect(await stateOf(alone.sandbox.provider!)).toMatchObject({ refuseEvery: 0 });
    const tuned = await partsOf({ SANDBOX_PROVIDER_PROTOCOL: 'qqtube', SANDBOX_PROVIDER_REFUSE_EVERY: '3', SANDBOX_SECOND_PRICE_FACTOR: '0.9', SANDBOX_SERVICE_COUNT: '10' });
    expect(tuned.envProviders.map((p) => p.protocol)).toEqual(['qqtube', 'smm-v2']);
    expect(await stateOf(tuned.sandbox.provider!)).toMatchObject({ refuseEvery: 3 });
    expect(await stateOf(tuned.sandbox.second!)).toMatchObject({ priceFactor: '0.9' });
    expect(() => parseEnv({ SANDBOX_SECOND_PRICE_FACTOR: '-1' })).toThrow(/SANDBOX_SECOND_PRICE_FACTOR/);
    expect(() => parseEnv({ SANDBOX_PROVIDER_REFUSE_EVERY: 'often' })).toThrow(/SANDBOX_PROVIDER_REFUSE_EVERY/);
  });
});

describe('the card gateways', () => {
  const quiet = { SANDBOX_SECOND_PROVIDER: 'false', SANDBOX_SERVICE_COUNT: '10' };

  it('the sandbox runs a sandbox Payriff beside the card gateway, turned on for customers, told where to notify', async () => {
    const parts = await partsOf(quiet);
    expect(parts.gateways.kinds()).toEqual(['epoint', 'payriff', 'paytr']);
    expect(parts.sandboxMethods).toEqual(['epoint', 'bank', 'payriff', 'paytr']);
    expect(parts.gateways.of('payriff').name).toBe('payriff');
    parts.setPublicUrl('http://127.0.0.1:4567');
    const control = (await (await fetch(`${parts.sandbox.payriff!.origin}/__control`)).json()) as { callbackUrl: string };
    expect(control.callbackUrl).toBe('http://127.0.0.1:4567/api/payments/callback/payriff');
  });

  it('PAYRIFF_SECRET_KEY takes the real Payriff; real gateways without it leave the method off', async () => {
    const payriff = await startSandboxPayriff({});
    try {
      const real = await partsOf({ ...quiet, ...payriffEnv(payriff) });
      expect(real.sandbox.payriff).toBeUndefined();
      expect(real.sandboxMethods).toEqual(['epoint', 'bank', 'paytr']);
      const created = await real.gateways.of('payriff').create({
        reference: 'balance-env', amountMinor: 170, currency: 'AZN', description: 'x', language: 'en', successUrl: 'http://shop.test/ok', errorUrl: 'http://shop.test/no',
      });
      expect(payriff.control.order(created.transactionId)).toMatchObject({ requestRrn: 'balance-env', amountQepik: 170 });
    } finally {
      await payriff.close();
    }
    const withoutKey = await partsOf({ ...quiet, PAYMENT_GATEWAY: 'epoint', EPOINT_PUBLIC_KEY: 'i000', EPOINT_PRIVATE_KEY: 'p' });
    expect(withoutKey.gateways.kinds()).toEqual(['epoint']);
    expect(withoutKey.sandboxMethods).toEqual([]);
    expect(withoutKey.sandbox.payriff).toBeUndefined();
    expect(() => parseEnv({ PAYRIFF_URL: 'not a url' })).toThrow(/PAYRIFF_URL/);
  });
});

describe('PayTR', () => {
  const noProviders = { SANDBOX_SECOND_PROVIDER: 'false', SANDBOX_SERVICE_COUNT: '10' };

  it('is served by its sandbox beside the sandbox card gateway, on for customers, its notifications sent to the shop', async () => {
    const parts = await partsOf(noProviders);
    expect(parts.sandboxMethods).toEqual(['epoint', 'bank', 'payriff', 'paytr']);
    expect(parts.gateways.kinds()).toEqual(['epoint', 'payriff', 'paytr']);
    const paytr = parts.sandbox.paytr!;
    expect(parts.gateways.of('paytr').name).toBe('paytr');
    parts.setPublicUrl('http://127.0.0.1:3999');
    const control = (await (await fetch(`${paytr.origin}/__control`)).json()) as { callbackUrl: string };
    expect(control.callbackUrl).toBe('http://127.0.0.1:3999/api/payments/callback/paytr');
  });

  it('is the real one when its keys are set, and off without them outside the sandbox', async () => {
    const keys = { PAYTR_MERCHANT_ID: '123456', PAYTR_MERCHANT_KEY: 'k', PAYTR_MERCHANT_SALT: 's' };
    const real = await partsOf({ ...noProviders, ...keys });
    expect(real.sandbox.paytr).toBeUndefined();
    expect(real.sandboxMethods).toEqual(['epoint', 'bank', 'payriff']);
    expect(real.gateways.has('paytr')).toBe(true);
    const epoint = { PAYMENT_GATEWAY: 'epoint', EPOINT_PUBLIC_KEY: 'i000', EPOINT_PRIVATE_KEY: 'p' };
    const without = await partsOf({ ...noProviders, ...epoint });
    expect(without.sandbox.paytr).toBeUndefined();
    expect(without.gateways.has('paytr')).toBe(false);
    expect(without.sandboxMethods).toEqual([]);
  });
});

describe('a shop started with the sandbox', () => {
  it('has two providers and services bought from the first, then the second; a restart brings the second up to date and adds nothing twice', async () => {
    const database = await createTestDatabase();
    const dataDir = join(dir, 'shop');
    mkdirSync(dataDir);
    const env = parseEnv({ NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, JOBS: 'false', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Start-Admin-1!', SANDBOX_PROVIDER_LATENCY_MS: '0', SANDBOX_PROVIDER_RATE_LIMIT: '0', SANDBOX_SERVICE_COUNT: '25' });
    try {
      const firstRun = await startServer({ env, database, web: 'none', logger: createLogger('silent') });
      let rows;
      let sources;
      try {
        rows = await database.db.select().from(providers).orderBy(asc(providers.createdAt), asc(providers.id));
        expect(rows.map((r) => [r.name, r.protocol, r.fromEnv, r.envSlot])).toEqual([
          ['Sandbox', 'smm-v2', true, null],
          ['Sandbox 2', 'qqtube', false, SANDBOX_SLOT_2],
        ]);
        expect(rows[1]!.url).toBe(firstRun.sandbox.second!.qqtubeUrl);
        expect(firstRun.deps.providers!.all().map((p) => [p.id, p.enabled])).toEqual(rows.map((r) => [r.id, true]));
        sources = await database.db.select().from(serviceSources).orderBy(asc(serviceSources.serviceId), asc(serviceSources.position));
        const services = await database.db.select().from(catalogServices);
        expect(services).toHaveLength(25);
        expect(sources).toHaveLength(50);
        for (const s of services) {
          expect(sources.filter((x) => x.serviceId === s.id).map((x) => [x.position, x.providerId, x.providerServiceId])).toEqual([
            [0, rows[0]!.id, s.id],
            [1, rows[1]!.id, s.id],
          ]);
        }

        // Failover in normal use: the first provider refuses its 7th order, which goes to the second.
        const deps = { db: database.db, providers: firstRun.deps.providers!, logger: createLogger('silent') };
        const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
        const svc = services.find((s) => s.params.length === 0 && !s.dripfeed)!;
        const held: (string | null)[] = [];
        for (let n = 1; n <= 8; n++) {
          const placed = await placeOrderBody(deps, user.id, { serviceId: svc.id, link: `https://www.instagram.com/started_${n}/`, quantity: svc.amountMinimum, params: {}, idempotencyKey: randomUUID() });
          const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
          held.push((await submitOrder(deps, row!)).providerId);
        }
        expect(held).toEqual([...Array(6).fill(rows[0]!.id), rows[1]!.id, rows[0]!.id]);
        expect(firstRun.sandbox.second!.control.orders().map((o) => o.link)).toEqual(['https://www.instagram.com/started_7/']);
      } finally {
        await firstRun.close();
      }
      const again = await startServer({ env, database, web: 'none', logger: createLogger('silent') });
      try {
        const after = await database.db.select().from(providers).orderBy(asc(providers.createdAt), asc(providers.id));
        expect(after.map((r) => r.id)).toEqual(rows.map((r) => r.id));
        expect(after[1]!.url).toBe(again.sandbox.second!.qqtubeUrl);
        expect(after[1]!.url).not.toBe(rows[1]!.url);
        expect(await database.db.select().from(serviceSources).orderBy(asc(serviceSources.serviceId), asc(serviceSources.position))).toEqual(sources);
      } finally {
        await again.close();
      }
    } finally {
      await database.close();
    }
  }, 120_000);
});

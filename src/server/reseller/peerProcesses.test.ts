import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, startAppProcess, type AppProcess } from '../../../e2e/app-process';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';

/**
 * Two storefront processes, each started as an operator starts one (`src/server/main.ts`, its own
 * database): A sells the sandbox provider's catalogue; B is configured with PROVIDER=smm-v2,
 * A's `/api/v2` and a customer key of A. B's customers order on B and A delivers; a cancel on B
 * travels to the provider through A and both sides refund. (The actions one by one, with both
 * ledgers, are in peer.test.ts.)
 */
describe('a second Artım process reselling the first through PROVIDER=smm-v2', () => {
  let sandbox: SandboxProvider;
  let a: AppProcess;
  let b: AppProcess;

  const headers = (app: AppProcess, cookie?: string) => ({ 'content-type': 'application/json', origin: app.url.replace('127.0.0.1', 'localhost'), ...(cookie ? { cookie } : {}) });
  const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const call = async (app: AppProcess, method: string, path: string, cookie?: string, body?: unknown) => {
    const res = await fetch(`${app.url}${path}`, { method, headers: headers(app, cookie), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  async function customer(app: AppProcess, email: string, balanceMicros: number) {
    const res = await fetch(`${app.url}/api/auth/sign-up/email`, { method: 'POST', headers: headers(app), body: JSON.stringify({ email, password: 'Str0ng-pass!', name: 'Peer' }) });
    expect(res.status).toBe(200);
    const cookie = cookieOf(res);
    const admin = cookieOf(await fetch(`${app.url}/api/auth/sign-in/email`, { method: 'POST', headers: headers(app), body: JSON.stringify(E2E_ADMIN) }));
    const me = (await call(app, 'GET', '/api/me', cookie)).body;
    expect((await call(app, 'POST', `/api/admin/users/${me.user.id}/balance`, admin, { amountMicros: balanceMicros, reason: 'peer test' })).status).toBe(200);
    return { cookie, id: me.user.id as string };
  }
  const wallet = async (app: AppProcess, cookie: string) => (await call(app, 'GET', '/api/wallet', cookie)).body.balanceMicros as number;

  beforeAll(async () => {
    sandbox = await startSandboxProvider({ orderSeconds: 3600, seed: 5 });
    // Each process runs its submission worker (JOBS): an accepted order is sent in the background.
    a = await startAppProcess({ PROVIDER: 'smm-v2', PROVIDER_URL: sandbox.v2Url, PROVIDER_KEY: sandbox.apiKey, JOBS: 'true' }, undefined, ['--no-web']);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sandbox?.close();
  }, 180_000);

  it('B sells A’s catalogue, B’s orders become API orders of the reseller on A, and a cancel refunds on both sides', async () => {
    const reseller = await customer(a, 'reseller@example.com', 200_000_000);
    const created = await call(a, 'POST', '/api/api-keys', reseller.cookie, { name: 'Instance B' });
    expect(created.status).toBe(201);
    b = await startAppProcess({ PROVIDER: 'smm-v2', PROVIDER_URL: `${a.url}/api/v2`, PROVIDER_KEY: created.body.key, JOBS: 'true' }, undefined, ['--no-web']);

    const listA = (await call(a, 'GET', '/api/catalog/services')).body.services as { id: string; platform: string; hasParams: boolean; min: number }[];
    const listB = (await call(b, 'GET', '/api/catalog/services')).body.services as { id: string; platform: string; hasParams: boolean; min: number }[];
    expect(listB.length).toBe(listA.length);
    expect(new Set(listB.map((s) => s.id))).toEqual(new Set(listA.map((s) => s.id)));
    // A's own catalogue through the API tells which services can be cancelled.
    const v2 = await (await fetch(`${a.url}/api/v2`, { method: 'POST', body: new URLSearchParams({ key: created.body.key, action: 'services' }) })).json();
    const cancellable = new Set((v2 as { service: number; cancel: boolean; type: string }[]).filter((s) => s.cancel && s.type === 'Default').map((s) => String(s.service)));
    const svc = listB.find((s) => s.platform === 'tiktok' && !s.hasParams && cancellable.has(s.id))!;
    expect(svc).toBeTruthy();

    const buyer = await customer(b, 'buyer@example.com', 200_000_000);
    const [resellerBefore, buyerBefore] = [await wallet(a, reseller.cookie), await wallet(b, buyer.cookie)];
    const placed = await call(b, 'POST', '/api/orders', buyer.cookie, { serviceId: svc.id, link: 'https://www.tiktok.com/@peer.process', quantity: svc.min, params: {}, idempotencyKey: randomUUID() });
    expect(placed.status).toBe(201);
    expect(placed.body.status).toBe('pending');

    // On A the order is the reseller's, marked via API, and it reached the provider.
    const ordersOnA = async () => (await call(a, 'GET', '/api/orders', reseller.cookie)).body.orders as { id: string; link: string; chargeMicros: number; status: string }[];
    await expect.poll(async () => (await ordersOnA()).length, { timeout: 120_000 }).toBe(1);
    await expect.poll(() => sandbox.control.orders().map((o) => o.link), { timeout: 120_000 }).toContain('https://www.tiktok.com/@peer.process');
    const onA = await ordersOnA();
    expect(onA[0]).toMatchObject({ link: 'https://www.tiktok.com/@peer.process', status: 'pending' });
    const actions = (await call(a, 'GET', '/api/orders/actions', reseller.cookie)).body.orders[onA[0]!.id];
    expect(actions.viaApi).toBe(true);
    expect(sandbox.control.orders().map((o) => o.link)).toContain('https://www.tiktok.com/@peer.process');
    expect(await wallet(a, reseller.cookie)).toBe(resellerBefore - onA[0]!.chargeMicros);
    expect(await wallet(b, buyer.cookie)).toBe(buyerBefore - placed.body.chargeMicros);

    // The cancel travels B → A → provider; both sides refund the whole charge.
    expect((await call(b, 'GET', '/api/orders/actions', buyer.cookie)).body.orders[placed.body.id].canCancel).toBe(true);
    const cancelled = await call(b, 'POST', `/api/orders/${placed.body.id}/cancel`, buyer.cookie, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundedMicros: placed.body.chargeMicros });
    expect((await call(a, 'GET', '/api/orders', reseller.cookie)).body.orders[0]).toMatchObject({ status: 'cancelled', refundedMicros: onA[0]!.chargeMicros });
    expect(await wallet(a, reseller.cookie)).toBe(resellerBefore);
    expect(await wallet(b, buyer.cookie)).toBe(buyerBefore);
  }, 180_000);

  it('a drip-feed on B travels as ONE drip-feed order to A and ONE to the provider', async () => {
    const listB = (await call(b, 'GET', '/api/catalog/services')).body.services as { id: string; platform: string; hasParams: boolean; min: number; dripfeed?: boolean }[];
    const svc = listB.find((s) => s.platform === 'tiktok' && !s.hasParams && s.dripfeed)!;
    expect(svc).toBeTruthy();
    const buyer = await customer(b, 'drip-buyer@example.com', 200_000_000);
    const link = 'https://www.tiktok.com/@peer.drip';
    const placed = await call(b, 'POST', '/api/orders', buyer.cookie, { serviceId: svc.id, link, quantity: svc.min, params: {}, idempotencyKey: randomUUID(), runs: 3, interval: 1 });
    expect(placed.status).toBe(201);
    await expect.poll(() => sandbox.control.orders().filter((o) => o.link === link).length, { timeout: 120_000 }).toBe(1);
    expect(sandbox.control.orders().find((o) => o.link === link)).toMatchObject({ runs: 3, interval: 1, quantity: svc.min * 3 });
    await expect.poll(async () => (await call(b, 'GET', '/api/orders', buyer.cookie)).body.orders[0]?.drip?.runsSent, { timeout: 120_000 }).toBe(3);
  }, 180_000);
});

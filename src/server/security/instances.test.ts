import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../../../e2e/app-process';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createScratchDatabase } from '../testing/db';

/**
 * Two app processes on one PostgreSQL: live events cross instances through LISTEN/NOTIFY,
 * recurring jobs run once per tick, and orders split across both never overspend.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('two instances on one PostgreSQL', () => {
  let sandbox: SandboxProvider;
  let dbUrl: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let one: AppProcess;
  let two: AppProcess;
  let db: pg.Client;

  beforeAll(async () => {
    sandbox = await startSandboxProvider({ orderSeconds: 600 });
    scratch = await createScratchDatabase('two', url);
    dbUrl = scratch.url;
    const env = { DATABASE_URL: dbUrl, PROVIDER: 'qqtube', PROVIDER_URL: sandbox.qqtubeUrl, PROVIDER_KEY: sandbox.apiKey, JOBS: 'true', AUTH_SECRET: 'two-instances-share-one-secret-0123456789' };
    [one, two] = await Promise.all([startAppProcess(env, undefined, ['--no-web']), startAppProcess(env, undefined, ['--no-web'])]);
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await db?.end();
    await sandbox?.close();
    await scratch?.drop();
  }, 60_000);

  const headers = (app: AppProcess, cookie?: string) => ({ 'content-type': 'application/json', origin: app.url.replace('127.0.0.1', 'localhost'), ...(cookie ? { cookie } : {}) });
  const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  async function customerWith(balanceCents: number, email: string) {
    const res = await fetch(`${one.url}/api/auth/sign-up/email`, { method: 'POST', headers: headers(one), body: JSON.stringify({ email, password: 'Str0ng-pass!', name: 'Two Instances' }) });
    expect(res.status).toBe(200);
    const cookie = cookieOf(res);
    const { user } = await (await fetch(`${one.url}/api/me`, { headers: headers(one, cookie) })).json();
    await db.query(`insert into ledger_entries (user_id, amount_cents, kind, reference) values ($1, $2, 'topup', $3)`, [user.id, balanceCents, `two-${user.id}`]);
    await db.query(`update users set balance_cents = balance_cents + $2 where id = $1`, [user.id, balanceCents]);
    return { cookie, id: user.id as string };
  }
  async function service() {
    const list = (await (await fetch(`${one.url}/api/catalog/services`)).json()).services as { id: string; platform: string; min: number; hasParams: boolean; tiers: { price: string; pricingPer: number }[] }[];
    return list.find((s) => s.platform === 'instagram' && !s.hasParams)!;
  }

  it('an order placed through one instance reaches a page connected to the other, live', async () => {
    const customer = await customerWith(100_000, 'live@example.com');
    const svc = await service();
    const controller = new AbortController();
    const stream = await fetch(`${two.url}/api/events`, { headers: headers(two, customer.cookie), signal: controller.signal });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended before ${needle}: ${text}`);
        text += decoder.decode(chunk.value);
      }
    };
    await until('event: ready');
    const placed = await fetch(`${one.url}/api/orders`, {
      method: 'POST',
      headers: headers(one, customer.cookie),
      body: JSON.stringify({ serviceId: svc.id, link: 'https://instagram.com/two.live', quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
    });
    expect(placed.status).toBe(201);
    const order = await placed.json();
    await until(order.number);
    expect(text).toContain('event: order');
    controller.abort();
  });

  it('concurrent orders split across both instances never overspend', async () => {
    const svc = await service();
    const probe = await customerWith(100_000, 'probe@example.com');
    const first = await (
      await fetch(`${one.url}/api/orders`, { method: 'POST', headers: headers(one, probe.cookie), body: JSON.stringify({ serviceId: svc.id, link: 'https://instagram.com/two.price', quantity: svc.min, params: {}, idempotencyKey: randomUUID() }) })
    ).json();
    const customer = await customerWith(first.chargeCents * 10, 'split@example.com');
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const app = i % 2 ? one : two;
        return fetch(`${app.url}/api/orders`, {
          method: 'POST',
          headers: headers(app, customer.cookie),
          body: JSON.stringify({ serviceId: svc.id, link: `https://instagram.com/two.split.${i}`, quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
        }).then((r) => r.status);
      }),
    );
    expect(results.filter((s) => s === 201)).toHaveLength(10);
    expect(results.filter((s) => s !== 201).every((s) => s === 402)).toBe(true);
    const { rows } = await db.query(`select balance_cents, (select coalesce(sum(amount_cents), 0) from ledger_entries where user_id = $1) as ledger from users where id = $1`, [customer.id]);
    expect(Number(rows[0].balance_cents)).toBe(0);
    expect(Number(rows[0].ledger)).toBe(0);
  });

  it('a recurring job runs once per tick, not once per instance', async () => {
    // order-status-sync is scheduled every minute on both instances; wait for a tick.
    let rows: { minute: string; n: number }[] = [];
    for (let i = 0; i < 140; i++) {
      rows = (
        await db.query(`select date_trunc('minute', created_on)::text as minute, count(*)::int as n from pgboss.job where name = 'order-status-sync' group by 1 order by 1`)
      ).rows;
      if (rows.length >= 1) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const r of rows) expect(r.n, `jobs created in ${r.minute}`).toBe(1);
  }, 180_000);
});

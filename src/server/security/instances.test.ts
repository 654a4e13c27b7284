import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../../../e2e/app-process';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createScratchDatabase } from '../testing/db';
import { eventStreamReader } from '../testing/events';
import { providerEnv } from '../testing/sandbox';

/**
 * Two app processes on one PostgreSQL: live events cross instances through LISTEN/NOTIFY,
 * recurring jobs run once per tick, orders split across both never overspend, and both
 * submission workers share a burst with no order sent twice.
 */
const url = process.env.TEST_DATABASE_URL;

/** Forwards every request to `target` and counts the `add` calls that went through it. */
async function startCountingProxy(target: string) {
  let adds = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (new URLSearchParams(body.toString('utf8')).get('action') === 'add') adds++;
      const headers = { ...req.headers };
      delete headers.host;
      void fetch(`${target}${req.url}`, { method: req.method, headers: headers as Record<string, string>, body: req.method === 'GET' ? undefined : body })
        .then(async (reply) => {
          res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await reply.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    adds: () => adds,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe.skipIf(!url)('two instances on one PostgreSQL', () => {
  let sandbox: SandboxProvider;
  let dbUrl: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let one: AppProcess;
  let two: AppProcess;
  let db: pg.Client;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>;

  beforeAll(async () => {
    sandbox = await startSandboxProvider({ orderSeconds: 600 });
    scratch = await createScratchDatabase('two', url);
    dbUrl = scratch.url;
    // The second instance reaches the provider through a counting proxy: who sent what is known.
    proxy = await startCountingProxy(sandbox.url);
    const env = { DATABASE_URL: dbUrl, ...providerEnv(sandbox), JOBS: 'true', AUTH_SECRET: 'two-instances-share-one-secret-0123456789', ORDER_SUBMIT_CONCURRENCY: '4' };
    [one, two] = await Promise.all([
      startAppProcess(env, undefined, ['--no-web']),
      startAppProcess({ ...env, PROVIDER_URL: `${proxy.url}/v1-api` }, undefined, ['--no-web']),
    ]);
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await db?.end();
    await sandbox?.close();
    await proxy?.close();
    await scratch?.drop();
  }, 180_000);

  const headers = (app: AppProcess, cookie?: string) => ({ 'content-type': 'application/json', origin: app.url.replace('127.0.0.1', 'localhost'), ...(cookie ? { cookie } : {}) });
  const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  async function customerWith(balanceMicros: number, email: string) {
    const res = await fetch(`${one.url}/api/auth/sign-up/email`, { method: 'POST', headers: headers(one), body: JSON.stringify({ email, password: 'Str0ng-pass!', name: 'Two Instances' }) });
    expect(res.status).toBe(200);
    const cookie = cookieOf(res);
    const { user } = await (await fetch(`${one.url}/api/me`, { headers: headers(one, cookie) })).json();
    await db.query(`insert into ledger_entries (user_id, amount_micros, kind, reference) values ($1, $2, 'topup', $3)`, [user.id, balanceMicros, `two-${user.id}`]);
    await db.query(`update users set balance_micros = balance_micros + $2 where id = $1`, [user.id, balanceMicros]);
    return { cookie, id: user.id as string };
  }
  async function service() {
    const list = (await (await fetch(`${one.url}/api/catalog/services`)).json()).services as { id: string; platform: string; min: number; hasParams: boolean; tiers: { price: string; pricingPer: number }[] }[];
    return list.find((s) => s.platform === 'instagram' && !s.hasParams)!;
  }

  it('an order placed through one instance reaches a page connected to the other, live', async () => {
    const customer = await customerWith(1_000_000_000, 'live@example.com');
    const svc = await service();
    const controller = new AbortController();
    const stream = await fetch(`${two.url}/api/events`, { headers: headers(two, customer.cookie), signal: controller.signal });
    const { until, text } = eventStreamReader(stream);
    await until('event: ready');
    const placed = await fetch(`${one.url}/api/orders`, {
      method: 'POST',
      headers: headers(one, customer.cookie),
      body: JSON.stringify({ serviceId: svc.id, link: 'https://instagram.com/two.live', quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
    });
    expect(placed.status).toBe(201);
    const order = await placed.json();
    await until(order.number);
    expect(text()).toContain('event: order');
    controller.abort();
  });

  it('concurrent orders split across both instances never overspend', async () => {
    const svc = await service();
    const probe = await customerWith(1_000_000_000, 'probe@example.com');
    const first = await (
      await fetch(`${one.url}/api/orders`, { method: 'POST', headers: headers(one, probe.cookie), body: JSON.stringify({ serviceId: svc.id, link: 'https://instagram.com/two.price', quantity: svc.min, params: {}, idempotencyKey: randomUUID() }) })
    ).json();
    const customer = await customerWith(first.chargeMicros * 10, 'split@example.com');
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
    const { rows } = await db.query(`select balance_micros, (select coalesce(sum(amount_micros), 0) from ledger_entries where user_id = $1) as ledger from users where id = $1`, [customer.id]);
    expect(Number(rows[0].balance_micros)).toBe(0);
    expect(Number(rows[0].ledger)).toBe(0);
  });

  it('both instances share the submission work and no order reaches the provider twice', async () => {
    const svc = await service();
    // Two customers: each may place 60 orders a minute.
    const customers = [await customerWith(100_000_000_000, 'burst1@example.com'), await customerWith(100_000_000_000, 'burst2@example.com')];
    // Answers take 100–300 ms, so a burst keeps both workers busy.
    sandbox.control.setLatency([100, 300]);
    try {
      const before = proxy.adds();
      const burst = 110;
      const statuses = await Promise.all(
        Array.from({ length: burst }, (_, i) => {
          const app = i % 2 ? one : two;
          return fetch(`${app.url}/api/orders`, {
            method: 'POST',
            headers: headers(app, customers[Math.floor(i / 2) % 2]!.cookie),
            body: JSON.stringify({ serviceId: svc.id, link: `https://instagram.com/two.burst.${i}`, quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
          }).then((r) => r.status);
        }),
      );
      expect(statuses.every((s) => s === 201)).toBe(true);
      let sent = 0;
      for (let i = 0; i < 600 && sent < burst; i++) {
        sent = (await db.query(`select count(*)::int as n from orders where link like '%two.burst.%' and provider_order_id is not null`)).rows[0].n;
        if (sent < burst) await new Promise((r) => setTimeout(r, 100));
      }
      expect(sent).toBe(burst);
      const atProvider = sandbox.control.orders().filter((o) => o.link.includes('two.burst.'));
      expect(atProvider).toHaveLength(burst);
      expect(new Set(atProvider.map((o) => o.link)).size).toBe(burst);
      const { rows } = await db.query(`select provider_order_id from orders where link like '%two.burst.%'`);
      expect(new Set(rows.map((r) => r.provider_order_id)).size).toBe(burst);
      // Each instance sent a share of them.
      const viaTwo = proxy.adds() - before;
      expect(viaTwo).toBeGreaterThan(burst / 10);
      expect(viaTwo).toBeLessThan(burst - burst / 10);
    } finally {
      sandbox.control.setLatency(0);
    }
  }, 120_000);

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

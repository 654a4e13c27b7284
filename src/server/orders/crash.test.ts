import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../../../e2e/app-process';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createScratchDatabase } from '../testing/db';
import { providerEnv } from '../testing/sandbox';

/**
 * The process dies (SIGKILL) after the debit committed and before the provider was called. The
 * restarted server must submit that order — once — or refund it; no money is lost or created.
 * Runs on PostgreSQL, where this test can watch the database while the app runs.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('crash between debit and submission (PostgreSQL)', () => {
  let sandbox: SandboxProvider;
  let dbUrl: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let client: pg.Client;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandboxProvider({ orderSeconds: 120 });
    scratch = await createScratchDatabase('crash', url);
    dbUrl = scratch.url;
  });
  afterAll(async () => {
    for (const a of apps) await a.stop('SIGKILL');
    await client?.end();
    await sandbox?.close();
    await scratch?.drop();
  });

  const start = async (extra: Record<string, string> = {}) => {
    const app = await startAppProcess(
      { DATABASE_URL: dbUrl, ...providerEnv(sandbox), JOBS: 'false', ...extra },
      undefined,
      ['--no-web'],
    );
    apps.push(app);
    return app;
  };

  it('the restarted server submits the order exactly once and the ledger still balances', async () => {
    let app = await start({ FAULT_INJECTION: 'crash-after-debit' });
    const origin = app.url.replace('127.0.0.1', 'localhost');
    const headers = (cookie?: string) => ({ 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) });
    const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, { method: 'POST', headers: headers(), body: JSON.stringify({ email: 'crash@example.com', password: 'Str0ng-pass!', name: 'Crash Test' }) });
    expect(signUp.status).toBe(200);
    const customer = cookieOf(signUp);
    const me = (await (await fetch(`${app.url}/api/me`, { headers: headers(customer) })).json()).user;
    const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, { method: 'POST', headers: headers(), body: JSON.stringify({ email: 'admin@e2e.test', password: 'Admin-E2E-pass1!' }) });
    const admin = cookieOf(signIn);
    expect((await fetch(`${app.url}/api/admin/users/${me.id}/balance`, { method: 'POST', headers: headers(admin), body: JSON.stringify({ amountMicros: 50_000_000, reason: 'test funds' }) })).status).toBe(200);

    const services = (await (await fetch(`${app.url}/api/catalog/services`)).json()).services as { id: string; platform: string; min: number; step: number; hasParams: boolean }[];
    const svc = services.find((s) => s.platform === 'instagram' && !s.hasParams)!;
    const placing = await fetch(`${app.url}/api/orders`, {
      method: 'POST',
      headers: headers(customer),
      body: JSON.stringify({ serviceId: svc.id, link: 'https://instagram.com/crash.test', quantity: svc.min, params: {}, idempotencyKey: 'crash-order-0001' }),
    }).then((r) => r.status, () => 'connection lost');
    expect(placing).toBe('connection lost');
    await app.exited();

    client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const before = (await client.query(`select status, submitted_at, provider_order_id, charge_micros from orders`)).rows;
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ status: 'pending', submitted_at: null, provider_order_id: null });
    const charge = Number(before[0].charge_micros);
    expect(Number((await client.query(`select balance_micros from users where id = $1`, [me.id])).rows[0].balance_micros)).toBe(50_000_000 - charge);

    // A restarted server that runs the background work (JOBS=false leaves it to the worker)
    // settles orders left older than a few seconds between debit and submission.
    await new Promise((r) => setTimeout(r, 11_000));
    app = await start({ JOBS: 'true' });
    let row: { status: string; provider_order_id: string | null } | undefined;
    // Patient: on a busy machine the start-up reconciliation may take a while to come round.
    for (const end = Date.now() + 60_000; Date.now() < end; ) {
      row = (await client.query(`select status, provider_order_id from orders`)).rows[0];
      if (row?.provider_order_id) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(row!.provider_order_id).toBeTruthy();
    expect(sandbox.control.orders().filter((o) => o.link.includes('crash.test'))).toHaveLength(1);

    // A second restart changes nothing: no second submission, no refund.
    await app.stop();
    app = await start({ JOBS: 'true' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(sandbox.control.orders().filter((o) => o.link.includes('crash.test'))).toHaveLength(1);
    const ledger = await client.query(`select u.balance_micros, coalesce(sum(l.amount_micros), 0) as sum from users u left join ledger_entries l on l.user_id = u.id where u.id = $1 group by u.id`, [me.id]);
    expect(Number(ledger.rows[0].balance_micros)).toBe(Number(ledger.rows[0].sum));
    expect(Number(ledger.rows[0].balance_micros)).toBe(50_000_000 - charge);
  }, 240_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryArgs } from '../../../e2e/app-process';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { syncCatalog } from '../catalog/service';
import { openDatabase, type Database } from '../db/client';
import { catalogServices, orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { createScratchDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { type OrdersDeps } from './service';
import { placeOrderBody } from '../testing/orders';
import { reconcileOrders } from './sync';
import { gatewayEnv, providerEnv, sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

/**
 * The submission worker (`npm run worker`, its own process) is SIGKILLed in the middle of a
 * batch: some orders it claimed were sent and answered, some sent and not yet answered, some
 * not sent at all. A restarted worker sends what was never claimed; reconciliation settles the
 * claimed-but-unanswered ones from the provider's records. No order reaches the provider twice,
 * none is lost, and the ledger balances. PostgreSQL only (the worker is another process).
 */
const url = process.env.TEST_DATABASE_URL;
const ORDERS = 60;

describe.skipIf(!url)('submission worker killed mid-batch (PostgreSQL)', () => {
  let sandbox: SandboxProvider;
  let gw: SandboxGateway;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let dataDir: string;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    // Slow enough answers that a kill always finds orders in flight.
    sandbox = await startSandboxProvider({ orderSeconds: 600, latencyMs: [300, 700] });
    gw = await startSandboxGateway({});
    scratch = await createScratchDatabase('workerkill', url);
    database = await openDatabase({ url: scratch.url, poolSize: 5 });
    dataDir = mkdtempSync(join(tmpdir(), 'artim-worker-'));
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await database?.close();
    await gw?.close();
    await sandbox?.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startWorker = () => {
    const child = spawn(process.execPath, entryArgs('worker'), {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        DATABASE_URL: scratch.url,
        ...providerEnv(sandbox),
        ...gatewayEnv(gw),
        ORDER_SUBMIT_CONCURRENCY: '8',
        PROVIDER_KEYS_SECRET: 'worker-kill-provider-keys-secret-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    workers.push(child);
    return { child, output: () => out };
  };
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  const ours = () => sandbox.control.orders().filter((o) => o.link.includes('/worker.kill.'));

  it('a restarted worker and reconciliation send every order exactly once', async () => {
    const provider = sandboxClient(sandbox, { timeoutMs: 5000 });
    const deps: OrdersDeps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
    await syncCatalog(database.db, provider);
    const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0)!;
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    for (let i = 0; i < ORDERS; i++) {
      await placeOrderBody(deps, user.id, { serviceId: service.id, link: `https://instagram.com/worker.kill.${i}`, quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    }

    // Killed once some orders reached the provider and while others are on their way.
    const first = startWorker();
    // Waits on the provider's count, not on the clock: a busy machine may take long to start a child.
    while (ours().length < 10 && first.child.exitCode === null) await sleep(50);
    expect(ours().length, first.output()).toBeGreaterThanOrEqual(10);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const [atKill] = await database.db
      .select({
        unclaimed: sql<number>`count(*) filter (where submitted_at is null)::int`,
        inFlight: sql<number>`count(*) filter (where submitted_at is not null and provider_order_id is null and status = 'pending')::int`,
      })
      .from(orders);
    console.log('at the kill:', atKill, 'at the provider:', ours().length);
    expect(atKill!.unclaimed, 'the kill left orders never claimed').toBeGreaterThan(0);
    expect(atKill!.inFlight, 'the kill left claimed orders without an answer').toBeGreaterThan(0);

    // The restarted worker sends what was never claimed, and nothing it finds claimed.
    const second = startWorker();
    for (;;) {
      const [left] = await database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(sql`submitted_at is null`);
      if (left!.n === 0 || second.child.exitCode !== null) break;
      await sleep(100);
    }
    await sleep(1500); // the last answers arrive
    second.child.kill('SIGTERM');
    await exited(second.child);

    // Reconciliation settles the claims the kill left without an answer: found at the provider → attached, else refunded.
    for (const minutes of [3, 15]) await reconcileOrders(deps, new Date(Date.now() + minutes * 60_000));

    const rows = await database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(rows).toHaveLength(ORDERS);
    const perLink = new Map<string, number>();
    for (const o of ours()) perLink.set(o.link, (perLink.get(o.link) ?? 0) + 1);
    expect([...perLink.values()].filter((n) => n > 1), 'orders sent twice').toEqual([]);
    const attached = new Map(rows.filter((r) => r.providerOrderId).map((r) => [r.providerOrderId!, r]));
    // Every provider order is one of ours, on the same link; every order of ours was sent or refunded.
    for (const o of ours()) expect(attached.get(o.id)?.link).toBe(o.link);
    for (const r of rows) {
      if (r.providerOrderId) expect(r.status).toBe('pending');
      else expect([r.status, r.refundedMicros]).toEqual(['error', r.chargeMicros]);
    }
    expect(attached.size).toBe(ours().length);
    expect(await verifyLedger(database.db)).toEqual([]);
    const [balance] = await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, user.id));
    expect(balance!.b).toBe(100_000_000_000 - rows.reduce((sum, r) => sum + r.chargeMicros - r.refundedMicros, 0));
  }, 180_000);
});

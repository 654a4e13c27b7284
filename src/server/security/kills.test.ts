import { mkdtempSync, rmSync } from 'node:fs';
import { gatewayRegistry } from '../gateways';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, startAppProcess, type AppProcess } from '../../../e2e/app-process';
import { startSandboxGateway, type CallbackMode, type SandboxGateway, type StatusMode } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createScratchDatabase } from '../testing/db';
import { createRandom, type Random } from '../../../sandbox/provider/random';
import { quantityBounds } from '../../core/orderRules';
import { isFinalStatus, type OrderStatus } from '../../core/orderStatus';
import { priceOrder } from '../../core/pricing';
import { openDatabase, type Database } from '../db/client';
import { catalogServices } from '../db/schema';
import { createGateway } from '../gateways';
import { createLogger } from '../logger';
import { settleDripParents, startDueRuns } from '../orders/dripfeed';
import { partialRefundMicros } from '../orders/refunds';
import { submitPending } from '../orders/worker';
import { reconcileOrders, syncOrderStatuses } from '../orders/sync';
import { reconcilePayments } from '../payments/service';
import { getSettings } from '../settings/service';
import { verifyLedger } from '../wallet/ledger';
import { gatewayEnv, providerEnv, sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

/**
 * Server kills under load. Customers place orders (new keys, retried keys, keys reused with
 * another body, orders over their balance, drip-feeds whose runs or whole schedule they cancel
 * and which the team refunds) and top up by card over HTTP against a real app
 * process, while a seeded schedule SIGKILLs that process — between operations, in the middle of
 * a request, during a card callback, or at the crash point between debit and submission
 * (FAULT_INJECTION=crash-after-debit) — and restarts it. The SMM provider and the card gateway
 * run in this process, so they outlive every kill; the provider injects faults, and the gateway
 * sends duplicate, late, missing, badly signed and tampered callbacks, also to a server that is
 * down (it retries them after the restart).
 *
 * After the last restart the system settles: the restarted server submits the orders left between
 * debit and submission, then the recurring jobs (status sync, order and payment reconciliation) run
 * with the clock moved forward. Then, reading the database: every balance equals its ledger, the
 * money adds up, no order was charged twice (a drip-feed's runs not at all), no drip-feed gave
 * back more than its charge, every acknowledged order exists exactly once, every order and
 * payment is final or explained, and the provider and gateway agree with our records.
 *
 * PostgreSQL only (several processes share the database). Replay with KILLS_SEED=<printed seed>.
 */
const url = process.env.TEST_DATABASE_URL;
const SEED = Number(process.env.KILLS_SEED ?? Date.now() % 1_000_000);
const OPERATIONS = Number(process.env.KILLS_OPERATIONS ?? 30);
const CUSTOMERS = 8; // sign-up allows 10 per address in 15 minutes
const ORDER_SECONDS = 20;
/** A drip-feed "minute" of the app under test: runs are written a moment apart. */
const DRIP_MINUTE_MS = 200;

/** One random stream per operation: what an operation draws never shifts the ones after it. */
const opRng = (op: number) => createRandom(SEED ^ Math.imul(op + 1, 0x9e3779b1));

type Reply = { status: number; body: any; cookies: string[] } | { status: 'refused' | 'lost'; body?: undefined; cookies?: undefined };

interface Customer {
  index: number;
  id: string;
  cookie: string;
  /** Every order request sent, by idempotency key. */
  sent: { key: string; body: OrderBody }[];
  topups: { reference: string; transaction: string }[];
}
interface OrderBody {
  serviceId: string;
  link: string;
  quantity: number;
  params: Record<string, string>;
  idempotencyKey: string;
  /** A drip-feed: `runs` runs, one every `interval` minutes (of DRIP_MINUTE_MS here). */
  runs?: number;
  interval?: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!url)(`server kills (PostgreSQL, KILLS_SEED=${SEED})`, () => {
  let sandbox: SandboxProvider;
  let gw: SandboxGateway;
  let database: Database | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let dbUrl: string;
  let dataDir: string;
  let port: number;
  let app: AppProcess | undefined;
  /** The crash point the running process was started with, if any. */
  let armed = false;

  beforeAll(async () => {
    port = await freePort();
    sandbox = await startSandboxProvider({ orderSeconds: ORDER_SECONDS, balance: '100000000' });
    // Retries span a restart (about 5 s), so callbacks that met a dead server arrive at the new one.
    gw = await startSandboxGateway({ callbackUrl: `http://127.0.0.1:${port}/api/payments/callback`, delayMs: 50, retryDelaysMs: [400, 1500, 4000, 8000] });
    scratch = await createScratchDatabase('kills', url);
    dbUrl = scratch.url;
    dataDir = mkdtempSync(join(tmpdir(), 'artim-kills-'));
  });
  afterAll(async () => {
    await app?.stop('SIGKILL');
    await database?.close();
    await gw?.close();
    await sandbox?.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${OPERATIONS} operations with SIGKILLs and restarts leave every balance equal to its ledger and every order final or explained`, async () => {
    console.log(`server kills: ${OPERATIONS} operations, KILLS_SEED=${SEED}`);
    const started = Date.now();
    const tally: Record<string, number> = {};
    const count = (k: string) => (tally[k] = (tally[k] ?? 0) + 1);
    const kills: Record<string, number> = {};
    let restarts = 0;
    const origin = `http://localhost:${port}`;

    // ---- the app process ------------------------------------------------------------------
    const alive = () => !!app && app.child.exitCode === null && app.child.signalCode === null;
    let startingMs = 0;
    const start = async (opts: { crashAfterDebit?: boolean; jobs?: boolean } = {}) => {
      const t0 = Date.now();
      app = await startAppProcess(
        {
          DATABASE_URL: dbUrl,
          PORT: String(port),
          ...providerEnv(sandbox),
          // The card gateway is the sandbox in this process (Epoint's protocol), so it survives kills.
          ...gatewayEnv(gw),
          JOBS: opts.jobs === false ? 'false' : 'true',
          DRIP_FEED_MINUTE_MS: String(DRIP_MINUTE_MS),
          FAULT_INJECTION: opts.crashAfterDebit ? 'crash-after-debit' : '',
        },
        dataDir,
        ['--no-web'],
      );
      armed = !!opts.crashAfterDebit;
      startingMs += Date.now() - t0;
    };
    const kill = async (cause: string) => {
      if (alive()) await app!.stop('SIGKILL');
      kills[cause] = (kills[cause] ?? 0) + 1;
    };

    const http = (method: string, path: string, opts: { cookie?: string; body?: unknown } = {}): Promise<Reply> =>
      new Promise((resolve) => {
        const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
        const headers: Record<string, string | number> = { origin };
        if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
        if (opts.cookie) headers.cookie = opts.cookie;
        // A fresh connection per request: a kept-alive socket of a killed process must not fail a request to the next one.
        const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: 30_000 }, (res) => {
          let text = '';
          let ended = false;
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            ended = true;
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // not JSON: kept as text
            }
            resolve({ status: res.statusCode!, body, cookies: res.headers['set-cookie'] ?? [] });
          });
          res.on('close', () => !ended && resolve({ status: 'lost' }));
          res.on('error', () => resolve({ status: 'lost' }));
        });
        req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
        req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code === 'ECONNREFUSED' ? 'refused' : 'lost' }));
        req.end(payload);
      });
    const cookieOf = (reply: Reply) => (reply.cookies ?? []).map((c) => c.split(';')[0]).join('; ');

    // ---- set-up: customers with money ------------------------------------------------------
    await start();
    database = await openDatabase({ url: dbUrl, poolSize: 4 });
    const adminReply = await http('POST', '/api/auth/sign-in/email', { body: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
    expect(adminReply.status).toBe(200);
    const adminCookie = cookieOf(adminReply);
    const setup = createRandom(SEED);
    const customers: Customer[] = [];
    const adminCredits = { attempted: 0, acknowledged: 0 };
    for (let i = 0; i < CUSTOMERS; i++) {
      const signUp = await http('POST', '/api/auth/sign-up/email', { body: { email: `kills-${i}@example.com`, password: 'Str0ng-pass!', name: `Kills Customer ${i}` } });
      expect(signUp.status).toBe(200);
      const cookie = cookieOf(signUp);
      const me = await http('GET', '/api/me', { cookie });
      const customer: Customer = { index: i, id: me.body.user.id, cookie, sent: [], topups: [] };
      const amountMicros = setup.int(20, 80) * 1_000_000;
      adminCredits.attempted += amountMicros;
      const credited = await http('POST', `/api/admin/users/${customer.id}/balance`, { cookie: adminCookie, body: { amountMicros, reason: 'kills campaign funds' } });
      expect(credited.status).toBe(200);
      adminCredits.acknowledged += amountMicros;
      customers.push(customer);
    }

    const fees = await getSettings(database.db);
    const services = (await database.db.select().from(catalogServices)).filter(
      (s) => s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0 && s.amountMinimum <= 1000,
    );
    expect(services.length).toBeGreaterThan(0);
    const price = (s: (typeof services)[number], quantity: number) =>
      priceOrder(s.tiers, quantity, { serviceFeePercent: fees.service_fee, baseFee: fees.base_fee }).micros;
    // Over-balance orders: the dearest valid order of the catalogue slice.
    const maxQuantity = (s: (typeof services)[number]) => {
      const { min, max, step } = quantityBounds(s);
      return min + Math.floor((max - min) / step) * step;
    };
    const dearest = services.map((s) => ({ s, q: maxQuantity(s), micros: price(s, maxQuantity(s)) })).sort((a, b) => b.micros - a.micros)[0]!;
    console.log(`server kills: over-balance order ${dearest.q} × ${dearest.s.id} costs ${dearest.micros} micro-dollars`);
    const dripServices = services.filter((s) => s.dripfeed);
    expect(dripServices.length).toBeGreaterThan(0);
    /** Drip-feeds the team refunded, or may have (the answer was lost): their runs may have more back than their states owe. */
    const staffRefunded = new Set<string>();
    const markers = ['', '', '', '.sandbox-partial', '.sandbox-cancel', '.sandbox-refund', '.sandbox-partial-refund'];
    const linkOf = (c: Customer, r: Random) => `https://instagram.com/kills.c${c.index}.l${r.int(0, 29)}${r.pick(markers)}`;

    // ---- what the customers saw ------------------------------------------------------------
    /** Acknowledged (2xx) order replies per customer and key. */
    const acks = new Map<string, { key: string; ids: Set<string>; bodies: Set<OrderBody> }>();
    const recordOrderReply = (c: Customer, body: OrderBody, reply: Reply, label: string) => {
      count(`${label}:${typeof reply.status === 'number' ? (reply.status < 300 ? reply.status : `${reply.status} ${reply.body?.error?.code}`) : reply.status}`);
      if (typeof reply.status !== 'number') return;
      if (reply.status < 300) {
        const k = `${c.id}:${body.idempotencyKey}`;
        const entry = acks.get(k) ?? { key: body.idempotencyKey, ids: new Set<string>(), bodies: new Set<OrderBody>() };
        entry.ids.add(reply.body.id);
        entry.bodies.add(body);
        acks.set(k, entry);
      } else {
        expect(['INSUFFICIENT_BALANCE', 'ACTIVE_ORDER_EXISTS', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED'], `${label} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`).toContain(reply.body?.error?.code);
      }
    };
    const callbacks: Promise<unknown>[] = [];
    /** Transactions of top-ups started but not paid yet. */
    const openTopups: string[] = [];
    const completeAtGateway = (transaction: string, outcome: 'success' | 'declined') => {
      try {
        gw.control.complete(transaction, outcome);
        count(`pay:${outcome}`);
      } catch {
        count('pay:already-closed');
      }
    };

    /** While the process is down: a customer pays (the callback meets a closed port), a request is refused; then the restart. */
    const downAndUp = async (r: Random, armNext = false) => {
      const payNow = r.chance(0.5);
      const pickOpen = r.next();
      const knock = r.chance(0.3);
      const pause = r.chance(0.3) ? r.int(0, 2000) : 0;
      const crashAfterDebit = r.chance(0.25) || armNext;
      if (payNow && openTopups.length) {
        const [open] = openTopups.splice(Math.floor(pickOpen * openTopups.length), 1);
        gw.control.set({ callback: 'normal' });
        completeAtGateway(open!, 'success');
        count('while-down:paid');
      }
      if (knock) {
        const reply = await http('GET', '/api/wallet', { cookie: customers[0]!.cookie });
        expect(reply.status).toBe('refused');
        count('while-down:refused');
      }
      if (pause) await sleep(pause);
      sandbox.control.reset();
      await start({ crashAfterDebit });
      restarts++;
      if (crashAfterDebit) count('start:crash-after-debit');
    };

    const placeOrder = (c: Customer, body: OrderBody) => http('POST', '/api/orders', { cookie: c.cookie, body });

    // ---- the campaign ----------------------------------------------------------------------
    // The kill between operations owed from midway: carried to the next operation when the process
    // is already down at that point (the armed crash point may have ended it).
    let betweenKillOwed = false;
    for (let op = 0; op < OPERATIONS; op++) {
      const r = opRng(op);
      const c = r.pick(customers);
      const roll = r.next();
      // Every run has at least one kill between operations, followed by a start with the crash point armed.
      const midway = op === Math.floor(OPERATIONS / 2);
      if (midway) betweenKillOwed = true;
      const killMid = r.chance(0.12) && !betweenKillOwed;
      const killDelay = r.int(0, 400);
      const killAfter = r.chance(0.05) || betweenKillOwed;
      const retryLost = r.chance(0.7);
      // Every run places a drip-feed first and has the team refund one later.
      const dripDraw = r.chance(0.35) ? r.pick(['place', 'place', 'place', 'cancel-run', 'cancel-run', 'cancel-parent', 'staff-refund', 'staff-refund'] as const) : null;
      const drip = op === 0 ? 'place' : op === Math.floor((OPERATIONS * 2) / 3) ? 'staff-refund' : dripDraw;
      let killedHere = false;
      let lostOrder: OrderBody | undefined;
      /** Sends the request; with `killMid` the process is SIGKILLed `killDelay` ms into it. */
      const send = async (request: () => Promise<Reply>) => {
        const pending = request();
        if (killMid && !killedHere) {
          await sleep(killDelay);
          await kill('mid-request');
          killedHere = true;
        }
        return pending;
      };
      const order = async (body: OrderBody, label: string, during = send) => {
        const acknowledgedBefore = !!acks.get(`${c.id}:${body.idempotencyKey}`)?.bodies.has(body);
        const reply = await during(() => placeOrder(c, body));
        // A request whose key was acknowledged before replays that order (the rate limit aside).
        if (acknowledgedBefore && typeof reply.status === 'number') {
          expect([201, 429], `${label} ${body.idempotencyKey}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
        }
        recordOrderReply(c, body, reply, label);
        if (reply.status === 'lost') {
          lostOrder = body;
          // The armed crash point kills the process itself once the order is debited.
          if (armed && !killedHere) await Promise.race([app!.exited(), sleep(2_000)]);
        }
        return reply;
      };

      if (drip === 'place') {
        // A drip-feed: its runs are written by the app's worker and follow the link's marker at the provider.
        const svc = r.pick(dripServices);
        const body: OrderBody = { serviceId: svc.id, link: linkOf(c, r), quantity: svc.amountMinimum, params: {}, idempotencyKey: `d${SEED}-${op}-${r.int(0, 1e9)}`, runs: r.int(2, 4), interval: 1 };
        c.sent.push({ key: body.idempotencyKey, body });
        await order(body, 'drip-order');
      } else if (drip) {
        // The customer cancels one run or the rest of the schedule; the team refunds a part, or all that is left.
        const pickParent = r.next();
        const pickRun = r.next();
        const part = r.chance(0.5) ? r.int(1, 50) * 10_000 : undefined;
        // The customer's own drip-feeds; the team refunds anyone's.
        const parents = await database!.query<{ id: string; charge_micros: string }>(
          `select id, charge_micros::text from orders where runs is not null and ($1::text is null or user_id = $1) order by created_at`,
          [drip === 'staff-refund' ? null : c.id],
        );
        if (parents.length) {
          const parent = parents[Math.floor(pickParent * parents.length)]!;
          let reply: Reply;
          if (drip === 'cancel-run') {
            const runs = await database!.query<{ id: string }>(`select id from orders where parent_id = $1 order by created_at`, [parent.id]);
            reply = runs.length ? await send(() => http('POST', `/api/orders/${runs[Math.floor(pickRun * runs.length)]!.id}/cancel`, { cookie: c.cookie })) : { status: 'refused' };
          } else if (drip === 'cancel-parent') {
            reply = await send(() => http('POST', `/api/orders/${parent.id}/cancel`, { cookie: c.cookie }));
          } else {
            const body = { reason: 'kills campaign: the team refunds', ...(part === undefined ? {} : { amountMicros: Math.min(part, Number(parent.charge_micros)) }) };
            reply = await send(() => http('POST', `/api/admin/orders/${parent.id}/refund`, { cookie: adminCookie, body }));
            if (reply.status === 200 || reply.status === 'lost') staffRefunded.add(parent.id);
          }
          count(`drip-${drip}:${typeof reply.status === 'number' ? (reply.status < 300 ? reply.status : `${reply.status} ${reply.body?.error?.code}`) : reply.status}`);
          if (typeof reply.status === 'number' && reply.status >= 300) {
            expect(['CANCEL_NOT_ALLOWED', 'PROVIDER_NO_ANSWER', 'VALIDATION_FAILED', 'RATE_LIMITED'], `${drip}: ${JSON.stringify(reply.body)}`).toContain(reply.body?.error?.code);
          }
        }
      } else if (roll < 0.45) {
        // A new order: within the balance, or (sometimes) far over it.
        const over = r.chance(0.1);
        const svc = over ? dearest.s : r.pick(services);
        const quantity = over ? dearest.q : Math.min(svc.amountMinimum + svc.amountIncrement * r.int(0, 2), maxQuantity(svc));
        const body: OrderBody = { serviceId: svc.id, link: linkOf(c, r), quantity, params: {}, idempotencyKey: `k${SEED}-${op}-${r.int(0, 1e9)}` };
        const fault = killMid
          ? r.pick(['slow', 'slow', 'timeout', 'accept-silently', 'none'] as const)
          : r.pick(['none', 'none', 'none', 'none', 'none', 'refuse', '5xx', 'garbage', 'slow'] as const);
        const latency = r.int(50, 400);
        if (fault === 'slow') sandbox.control.setFault({ latencyMs: latency, actions: ['add'], times: 1 });
        else if (fault === 'accept-silently') sandbox.control.setFault({ acceptThenTimeout: true, actions: ['add'], times: 1 });
        else if (fault !== 'none') sandbox.control.setFault({ mode: fault, actions: ['add'], times: 1 });
        c.sent.push({ key: body.idempotencyKey, body });
        await order(body, over ? `order-over-balance:${fault}` : `order:${fault}`);
      } else if (roll < 0.55) {
        // A retry of an earlier request with the same key and body: replays, never a second order.
        const pickSent = r.next();
        if (c.sent.length) await order(c.sent[Math.floor(pickSent * c.sent.length)]!.body, 'order-retry');
      } else if (roll < 0.57) {
        // The same key with another body is refused once the first order exists.
        const pickSent = r.next();
        if (c.sent.length) {
          const { body } = c.sent[Math.floor(pickSent * c.sent.length)]!;
          await order({ ...body, link: `${body.link}.other` }, 'order-key-reused');
        }
      } else if (roll < 0.75) {
        // A card top-up; the card is paid (or declined) at the gateway, whose callback reaches the server on its own.
        const amountMicros = r.pick([1_000_000, 5_000_000, 10_100_000, 25_000_000, 50_000_000]);
        const callback = r.pick(['normal', 'normal', 'normal', 'duplicate', 'late', 'none', 'bad-signature', 'tamper-amount'] as const satisfies readonly CallbackMode[]);
        const statusMode = r.pick(['normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'normal', '5xx', 'garbage'] as const satisfies readonly StatusMode[]);
        const outcome = r.pick(['success', 'success', 'success', 'success', 'success', 'declined', 'declined', 'later'] as const);
        const killAtCallback = r.chance(0.5);
        gw.control.set({ callback, duplicates: 3, lateMs: r.int(500, 8000), statusMode });
        const topUp = () => http('POST', '/api/payments/topup', { cookie: c.cookie, body: { amountMicros, language: 'en' } });
        const reply = killAtCallback ? await topUp() : await send(topUp);
        count(`topup:${reply.status}`);
        if (reply.status === 201) {
          const transaction = String(reply.body.paymentUrl).split('/').pop()!;
          c.topups.push({ reference: reply.body.reference, transaction });
          if (outcome === 'later') openTopups.push(transaction);
          else {
            completeAtGateway(transaction, outcome);
            count(`topup-callback:${callback}:${statusMode}`);
            // The callback is on its way (or being handled) when the process dies.
            if (killMid && killAtCallback) {
              await sleep(killDelay / 8);
              await kill('during-callback');
              killedHere = true;
            }
          }
        } else if (typeof reply.status === 'number') {
          expect(reply.body?.error?.code).toBe('RATE_LIMITED');
        }
      } else if (roll < 0.79) {
        // A customer pays a top-up started earlier.
        const pickOpen = r.next();
        gw.control.set({ callback: r.pick(['normal', 'duplicate'] as const), statusMode: 'normal' });
        if (openTopups.length) {
          const [open] = openTopups.splice(Math.floor(pickOpen * openTopups.length), 1);
          completeAtGateway(open!, 'success');
        }
      } else if (roll < 0.84) {
        // The gateway sends an old callback again.
        const pickTopup = r.next();
        const mode = r.pick(['normal', 'duplicate'] as const);
        const all = customers.flatMap((x) => x.topups);
        if (all.length) {
          const { transaction } = all[Math.floor(pickTopup * all.length)]!;
          callbacks.push(gw.control.sendCallback(transaction, { mode }));
          count(`callback-replay:${mode}`);
        }
      } else if (roll < 0.89) {
        // The return page asks about a top-up (which may settle it).
        const pickTopup = r.next();
        if (c.topups.length) {
          const { reference } = c.topups[Math.floor(pickTopup * c.topups.length)]!;
          const reply = await send(() => http('GET', `/api/payments/${reference}`, { cookie: c.cookie }));
          count(`payment-check:${reply.status}`);
          if (typeof reply.status === 'number') expect(reply.status).toBe(200);
        }
      } else if (roll < 0.92) {
        // An admin credits a customer.
        const amountMicros = r.pick([1_000_000, 2_500_000, 10_000_000]);
        adminCredits.attempted += amountMicros;
        const reply = await send(() => http('POST', `/api/admin/users/${c.id}/balance`, { cookie: adminCookie, body: { amountMicros, reason: 'goodwill' } }));
        count(`admin-credit:${reply.status}`);
        if (reply.status === 200) adminCredits.acknowledged += amountMicros;
        else expect(['lost', 'refused']).toContain(reply.status);
      } else if (roll < 0.96) {
        const reply = await send(() => http('GET', '/api/wallet', { cookie: c.cookie }));
        count(`wallet:${reply.status}`);
        if (reply.status === 200) expect(reply.body.balanceMicros).toBeGreaterThanOrEqual(0);
      } else {
        sandbox.control.advance(r.int(0, ORDER_SECONDS * 1000));
        count('provider-clock');
      }
      if (!killedHere) sandbox.control.reset();

      let owedKillPaid = false;
      if (killAfter && alive()) {
        await kill('between-operations');
        killedHere = true;
        owedKillPaid = betweenKillOwed;
        betweenKillOwed = false;
      }
      // Restart until the process stays up; the customer whose order was cut off may send it again.
      while (!alive()) {
        if (!killedHere) {
          // Only the armed crash point may end the process on its own.
          expect(armed && app!.child.signalCode === 'SIGKILL', `the server died by itself:\n${app!.output().slice(-3000)}`).toBe(true);
          await kill('crash-after-debit');
        }
        killedHere = false;
        await downAndUp(r, midway || owedKillPaid);
        if (lostOrder && retryLost) {
          const again = lostOrder;
          lostOrder = undefined;
          await order(again, 'order-retry-after-kill', (request) => request());
        }
      }
    }

    // ---- settling ------------------------------------------------------------------------
    sandbox.control.reset();
    gw.control.set({ callback: 'normal', statusMode: 'normal' });
    // Orders left between debit and submission are submitted by the next start once older than 10 s.
    const [unsent] = await database.query<{ newest: Date | null }>(`select max(created_at) as newest from orders where status = 'pending' and submitted_at is null`);
    if (unsent?.newest) await sleep(Math.max(0, new Date(unsent.newest).getTime() + 10_500 - Date.now()));
    const logger = createLogger('silent');
    const od = { db: database.db, providers: singleProvider(sandboxClient(sandbox, { timeoutMs: 5_000 })), logger };
    // The last restart: no crash point, and no background work of its own (JOBS=false), so the
    // jobs below run once, with the clock moved forward; the start-up reconciliation a worker
    // process runs (`npm run worker`) runs here.
    await kill('before-last-restart');
    await start({ jobs: false });
    restarts++;
    await reconcileOrders(od);
    const [unsentAfterRestart] = await database.query<{ n: number }>(`select count(*)::int as n from orders where status = 'pending' and submitted_at is null`);
    expect(unsentAfterRestart!.n).toBe(0);
    // Whatever the restarted server still writes (callbacks of the gateway) settles before the jobs run.
    let snapshot = '';
    for (let i = 0; i < 40; i++) {
      const [now] = await database.query<{ s: string }>(`select count(*) || ' ' || coalesce(max(updated_at)::text, '') as s from orders`);
      if (now!.s === snapshot) break;
      snapshot = now!.s;
      await sleep(500);
    }
    await Promise.all(callbacks);
    await gw.control.idle();

    const pd = {
      db: database.db,
      gateways: gatewayRegistry({ epoint: createGateway({ kind: 'epoint', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey, timeoutMs: 5_000 }) }),
      logger,
      publicUrl: origin,
    };
    // The last start runs no worker: the drip-feeds' remaining runs are written and sent here.
    for (let i = 0; i < 20; i++) {
      const [due] = await database.query<{ n: number }>(`select count(*)::int as n from orders where next_run_at is not null`);
      if (due!.n === 0) break;
      await startDueRuns(od, { minuteMs: 1 });
      await sleep(5);
    }
    await submitPending(od);
    for (let i = 1; i <= 6; i++) {
      sandbox.control.advance(ORDER_SECONDS * 1000);
      await syncOrderStatuses(od);
      await settleDripParents(od);
      const done = await reconcileOrders(od, new Date(Date.now() + i * 3_600_000));
      sandbox.control.advance(ORDER_SECONDS * 1000);
      await syncOrderStatuses(od);
      const paid = await reconcilePayments(pd, new Date(Date.now() + 48 * 3_600_000));
      const settled = await settleDripParents(od);
      if (i >= 2 && !done.submitted && !done.found && !done.refunded && !paid.settled && !paid.expired && !settled) break;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    // ---- the books -----------------------------------------------------------------------
    expect(await verifyLedger(database.db)).toEqual([]);
    const q = database.query.bind(database);
    expect(await q(`select id, balance_micros from users where balance_micros < 0`)).toEqual([]);

    // No order charged twice (a drip-feed's run not at all: its parent paid for it), no charge
    // without its order, refunds match the ledger.
    expect(
      await q(`
        select o.number, o.charge_micros, count(l.id)::int as charges, coalesce(sum(-l.amount_micros), 0)::bigint as charged
        from orders o left join ledger_entries l on l.kind = 'order_charge' and l.reference = o.id::text
        group by o.id having count(l.id) <> (case when o.parent_id is null then 1 else 0 end) or coalesce(sum(-l.amount_micros), 0) <> (case when o.parent_id is null then o.charge_micros else 0 end)`),
    ).toEqual([]);
    expect(await q(`select reference from ledger_entries where kind = 'order_charge' and reference not in (select id::text from orders)`)).toEqual([]);
    expect(
      await q(`
        select o.number, o.refunded_micros, coalesce(sum(l.amount_micros), 0)::bigint as refunded
        from orders o left join ledger_entries l on l.kind = 'order_refund' and (l.reference = o.id::text or l.reference like o.id::text || ':%' or l.reference like 'admin-refund:' || o.id::text || ':%')
        group by o.id having coalesce(sum(l.amount_micros), 0) <> o.refunded_micros`),
    ).toEqual([]);

    // Money is conserved: what came in (sign-up bonuses, admin credits, settled top-ups) less what orders kept.
    const [money] = await q<Record<string, string>>(`
      select
        (select coalesce(sum(balance_micros), 0) from users)::text as balances,
        (select coalesce(sum(amount_micros), 0) from ledger_entries where kind = 'signup_bonus')::text as bonuses,
        (select coalesce(sum((details->>'amountMicros')::bigint), 0) from audit_log where action = 'balance.adjust')::text as admin,
        (select coalesce(sum(amount_usd_micros), 0) from payments where status = 'completed')::text as topups,
        (select coalesce(sum(charge_micros), 0) from orders where parent_id is null)::text as charges,
        (select coalesce(sum(refunded_micros), 0) from orders)::text as refunds,
        (select coalesce(sum(amount_micros), 0) from ledger_entries where kind = 'topup')::text as ledger_topups,
        (select coalesce(sum(amount_micros), 0) from ledger_entries where kind = 'admin_adjustment')::text as ledger_admin`);
    const m = Object.fromEntries(Object.entries(money!).map(([k, v]) => [k, Number(v)]));
    expect(m.balances).toBe(m.bonuses! + m.admin! + m.topups! - m.charges! + m.refunds!);
    expect(m.ledger_topups).toBe(m.topups);
    expect(m.ledger_admin).toBe(m.admin);
    // An admin credit cut off by a kill either happened or did not; an acknowledged one happened.
    expect(m.admin).toBeGreaterThanOrEqual(adminCredits.acknowledged);
    expect(m.admin).toBeLessThanOrEqual(adminCredits.attempted);

    // Every acknowledged order request exists exactly once, and every reply for its key named that order.
    const rows = await q<{ id: string; user_id: string; idempotency_key: string; number: string; status: OrderStatus; note_code: string | null; charge_micros: string; refunded_micros: string; provider_order_id: string | null; quantity: number; remains: number | null; parent_id: string | null; runs: number | null; runs_sent: number; next_run_at: Date | null }>(
      `select id, user_id, idempotency_key, number, status, note_code, charge_micros, refunded_micros, provider_order_id, quantity, remains, parent_id, runs, runs_sent, next_run_at from orders`,
    );
    const byKey = new Map<string, typeof rows>();
    for (const o of rows) byKey.set(`${o.user_id}:${o.idempotency_key}`, [...(byKey.get(`${o.user_id}:${o.idempotency_key}`) ?? []), o]);
    const ackProblems: string[] = [];
    for (const [k, a] of acks) {
      const found = byKey.get(k) ?? [];
      if (found.length !== 1 || a.ids.size !== 1 || !a.ids.has(found[0]!.id)) ackProblems.push(`${a.key}: acknowledged ${[...a.ids].join(',')}, stored ${found.map((o) => o.id).join(',') || 'none'}`);
    }
    expect(ackProblems).toEqual([]);

    // Every order is final, or explained: unknown with the reason, or still running at the provider.
    const providerOrders = new Map(sandbox.control.orders().map((o) => [o.id, o]));
    const open = rows.filter((o) => {
      if (isFinalStatus(o.status)) return false;
      if (o.status === 'unknown' && o.note_code) return false;
      // Refused by the provider for want of funds: it waits, charged, for a provider with money (docs/rules.md#provider-funds).
      if (o.status === 'pending' && o.note_code === 'awaiting_provider_funds' && !o.provider_order_id) return false;
      // A drip-feed settles once its runs are final: it waits with a run still explained as open.
      if (o.runs !== null && o.next_run_at === null && rows.some((run) => run.parent_id === o.id && !isFinalStatus(run.status))) return false;
      const p = o.provider_order_id ? providerOrders.get(o.provider_order_id) : undefined;
      return !(p && ['pending', 'processing', 'in_progress'].includes(p.status));
    });
    expect(open.map((o) => `${o.number} ${o.status}`)).toEqual([]);
    // Refunds: in full for orders that deliver nothing more (also when the provider refunded or
    // cancelled an order after reporting it partial), charge × remains / quantity for partial
    // ones (at least that for the runs of a drip-feed the team refunded), never more than the
    // charge. A drip-feed parent's own row gives back exactly the runs never written; with its
    // runs, never more than its charge.
    for (const o of rows) {
      const charge = Number(o.charge_micros);
      const refunded = Number(o.refunded_micros);
      expect(refunded).toBeLessThanOrEqual(charge);
      if (o.runs !== null) {
        expect(refunded, `${o.number} drip-feed parent`).toBe((o.runs - o.runs_sent) * (charge / o.runs));
        const family = rows.filter((run) => run.parent_id === o.id).reduce((sum, run) => sum + Number(run.refunded_micros), refunded);
        expect(family, `${o.number} drip-feed and its runs`).toBeLessThanOrEqual(charge);
        continue;
      }
      const byTeam = o.parent_id !== null && staffRefunded.has(o.parent_id);
      if (o.status === 'completed' && !byTeam) expect(refunded).toBe(0);
      if (['cancelled', 'refunded', 'error', 'stopped'].includes(o.status)) expect(refunded, `${o.number} ${o.status}`).toBe(charge);
      if (o.status === 'partial') expect(refunded, `${o.number} partial`)[byTeam ? 'toBeGreaterThanOrEqual' : 'toBe'](partialRefundMicros(charge, o.remains ?? 0, o.quantity));
      const p = o.provider_order_id ? providerOrders.get(o.provider_order_id) : undefined;
      if (p && ['refunded', 'cancelled'].includes(p.status)) expect(refunded, `${o.number}: ${p.status} at the provider`).toBe(charge);
    }
    // The provider agrees: each of its orders belongs to exactly one of ours, none was sent twice.
    const attached = rows.filter((o) => o.provider_order_id).map((o) => o.provider_order_id!);
    expect(new Set(attached).size).toBe(attached.length);
    expect(attached.filter((id) => !providerOrders.has(id))).toEqual([]);
    const orphans = [...providerOrders.values()].filter((p) => !attached.includes(p.id));
    expect(orphans.map((p) => `${p.id} ${p.link} ${p.status}`)).toEqual([]);

    // Every payment is final, or pending and flagged for an admin with the reason; the gateway agrees.
    const paymentRows = await q<{ reference: string; status: string; flagged: boolean; flag_reason: string | null; transaction_id: string | null; amount_minor: string }>(
      `select reference, status, flagged, flag_reason, transaction_id, amount_minor from payments`,
    );
    const byReference = new Map(paymentRows.map((p) => [p.reference, p]));
    for (const p of paymentRows) {
      if (p.status === 'pending') expect(p.flagged, `payment ${p.reference} pending`).toBe(true);
      if (p.flagged) expect(p.flag_reason).toBeTruthy();
      if (p.flagged) expect(p.status).not.toBe('completed');
    }
    const gatewayPayments = gw.control.payments();
    for (const g of gatewayPayments) {
      const p = byReference.get(g.orderId);
      expect(p, `gateway payment ${g.orderId} unknown to the store`).toBeDefined();
      if (p!.status === 'completed') expect([g.status, g.amountQepik]).toEqual(['success', Number(p!.amount_minor)]);
      // A card charge that was not credited is flagged for an admin (e.g. a tampered callback).
      if (g.status === 'success' && p!.transaction_id === g.transaction) expect(p!.status === 'completed' || p!.flagged, `paid ${g.orderId} not credited`).toBe(true);
    }
    for (const c of customers) for (const t of c.topups) expect(byReference.has(t.reference)).toBe(true);

    // The running server reports the same balances.
    for (const c of customers) {
      const wallet = await http('GET', '/api/wallet', { cookie: c.cookie });
      const [row] = await q<{ b: string }>(`select balance_micros::text as b from users where id = $1`, [c.id]);
      expect(wallet.status === 200 && wallet.body.balanceMicros).toBe(Number(row!.b));
    }

    const statuses = (list: { status: string }[]) => list.reduce<Record<string, number>>((acc, x) => ((acc[x.status] = (acc[x.status] ?? 0) + 1), acc), {});
    const totalKills = Object.values(kills).reduce((a, b) => a + b, 0);
    console.log(
      `server kills (KILLS_SEED=${SEED}): ${OPERATIONS} operations in ${seconds} s (${(startingMs / 1000).toFixed(1)} s of it starting the server); ${totalKills} kills ${JSON.stringify(kills)}; ${restarts} restarts; ` +
        `${rows.length} orders ${JSON.stringify(statuses(rows))} (${acks.size} acknowledged keys); ${paymentRows.length} payments ${JSON.stringify(statuses(paymentRows))}; ` +
        `${providerOrders.size} provider orders; ${gatewayPayments.length} gateway payments`,
    );
    console.log('server kills operations:', JSON.stringify(tally));
    expect(kills['between-operations']).toBeGreaterThan(0);
    expect(tally['start:crash-after-debit']).toBeGreaterThan(0);
    // A safety net, not a measure: ten restarts of a child process take minutes on a machine kept busy by other work.
  }, 120_000 + OPERATIONS * 10_000);
});

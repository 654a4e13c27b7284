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
import { startSandboxPayriff, type SandboxPayriff } from '../../../sandbox/payriff';
import { startSandboxPaytr, type SandboxPaytr } from '../../../sandbox/paytr';
import { callbackPath } from '../../core/paymentMethods';
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
import { resolvePendingRefunds } from '../payments/refund';
import { paytrMerchantOid } from '../gateways/paytr';
import { openPayments, paymentLines, paymentMoney, paymentProblems, payriffDisagreements, paytrDisagreements } from '../testing/paymentBooks';
import { getSettings } from '../settings/service';
import { verifyLedger } from '../wallet/ledger';
import { gatewayEnv, payriffEnv, paytrEnv, providerEnv, sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

/**
 * Server kills under load. Customers place orders (new keys, retried keys, keys reused with
 * another body, orders over their balance, drip-feeds whose runs or whole schedule they cancel
 * and which the team refunds) and top up over HTTP against a real app process — by Epoint card,
 * through Payriff and PayTR, and by bank transfer with a receipt that the team approves or
 * rejects (two staff members at once) — with a deposit bonus rule and a coupon in force, while the
 * team refunds Payriff top-ups to the card; and a seeded schedule SIGKILLs that process — between
 * operations, in the middle of a request, during a gateway's callback, in the middle of a refund
 * (the gateway gave the money back, its answer lost), or at the crash point between debit and
 * submission (FAULT_INJECTION=crash-after-debit) — and restarts it. The SMM provider and the
 * gateways run in this process, so they outlive every kill; the provider injects faults, and the
 * gateways decline, fail their status calls, refuse or lose refunds, and send duplicate, late,
 * missing, badly signed and tampered notifications, also to a server that is down (they retry them
 * after the restart).
 *
 * After the last restart the system settles: the restarted server submits the orders left between
 * debit and submission, then the recurring jobs (status sync, order and payment reconciliation,
 * pending refunds) run with the clock moved forward, and the team reviews the transfers left with
 * a receipt. Then, reading the database: every balance equals its ledger, the money adds up
 * (bonuses, refunds to the card and their reversals included), no order was charged twice (a
 * drip-feed's runs not at all), no drip-feed gave back more than its charge, each payment was
 * credited at most once and each refund debited once, every acknowledged order exists exactly
 * once, every order and payment is final or explained, and the provider and gateways agree with
 * our records (a Payriff order is REFUNDED there exactly when its refund is completed here).
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
const KILLS_COUPON = 'KILLS-5';
/** What a refund to the card may be answered instead of done (409 and the gateway's refusal). */
const REFUND_REFUSALS = ['PAYMENT_REFUND_BALANCE_SHORT', 'PAYMENT_REFUND_FAILED', 'PAYMENT_REFUND_IN_PROGRESS', 'PAYMENT_ALREADY_REFUNDED', 'PAYMENT_NOT_REFUNDABLE'];
/** A bank transfer's receipt: a PNG by its first bytes. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('kills campaign receipt')]);
type TopUpKind = 'epoint' | 'payriff' | 'paytr' | 'bank';

/** One random stream per operation: what an operation draws never shifts the ones after it. */
const opRng = (op: number) => createRandom(SEED ^ Math.imul(op + 1, 0x9e3779b1));

type Reply = { status: number; body: any; cookies: string[] } | { status: 'refused' | 'lost'; body?: undefined; cookies?: undefined };

interface Customer {
  index: number;
  id: string;
  cookie: string;
  /** Every order request sent, by idempotency key. */
  sent: { key: string; body: OrderBody }[];
  topups: { reference: string; transaction: string; kind: TopUpKind }[];
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
  let payriff: SandboxPayriff;
  let paytr: SandboxPaytr;
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
    payriff = await startSandboxPayriff({ callbackUrl: `http://127.0.0.1:${port}${callbackPath('payriff')}`, delayMs: 50, retryDelaysMs: [400, 1500, 4000, 8000] });
    paytr = await startSandboxPaytr({ callbackUrl: `http://127.0.0.1:${port}${callbackPath('paytr')}`, delayMs: 50, retryDelaysMs: [400, 1500, 4000, 8000] });
    scratch = await createScratchDatabase('kills', url);
    dbUrl = scratch.url;
    dataDir = mkdtempSync(join(tmpdir(), 'artim-kills-'));
  });
  afterAll(async () => {
    await app?.stop('SIGKILL');
    await database?.close();
    await gw?.close();
    await payriff?.close();
    await paytr?.close();
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
          // Payriff and PayTR as real ones, by their keys: their sandboxes live here too.
          ...payriffEnv(payriff),
          ...paytrEnv(paytr),
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

    /** One request; `raw` is a body of its own type (a receipt's form), `timeoutMs` how long the caller waits for the answer. */
    const http = (method: string, path: string, opts: { cookie?: string; body?: unknown; raw?: { body: Buffer; type: string }; timeoutMs?: number } = {}): Promise<Reply> =>
      new Promise((resolve) => {
        const payload = opts.raw ? opts.raw.body : opts.body === undefined ? undefined : JSON.stringify(opts.body);
        const headers: Record<string, string | number> = { origin };
        if (payload !== undefined) Object.assign(headers, { 'content-type': opts.raw?.type ?? 'application/json', 'content-length': Buffer.byteLength(payload) });
        if (opts.cookie) headers.cookie = opts.cookie;
        // A fresh connection per request: a kept-alive socket of a killed process must not fail a request to the next one.
        const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: opts.timeoutMs ?? 30_000 }, (res) => {
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
        req.on('timeout', () => req.destroy(new Error('no answer in time')));
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
    // Every way money comes in: the team turns Payriff, PayTR and bank transfers on, and puts a
    // deposit bonus rule and a coupon in force.
    const methods = await http('GET', '/api/admin/payments/methods', { cookie: adminCookie });
    expect(methods.status).toBe(200);
    const account = 'Kills Bank\nIBAN AZ00 KILL 0000 0000 0000 0000 0000';
    for (const { kind, name, details, currency, minMicros, maxMicros, feeBp, position } of methods.body.methods) {
      if (kind === 'epoint') continue;
      const body = { name, details: kind === 'bank' ? { az: account, tr: account, en: account } : details, currency, minMicros, maxMicros, feeBp, position, enabled: true };
      expect((await http('PUT', `/api/admin/payments/methods/${kind}`, { cookie: adminCookie, body })).status).toBe(200);
    }
    const rule = { name: 'kills 10 %', method: null, minMicros: 5_000_000, percentBp: 1000, capMicros: 2_000_000, startsAt: null, endsAt: null, enabled: true };
    expect((await http('POST', '/api/admin/bonuses/rules', { cookie: adminCookie, body: rule })).status).toBe(201);
    const coupon = { code: KILLS_COUPON, kind: 'percent', amountMicros: null, percentBp: 500, capMicros: null, minTopUpMicros: 0, perCustomer: 3, totalUses: 40, expiresAt: null, enabled: true };
    expect((await http('POST', '/api/admin/bonuses/coupons', { cookie: adminCookie, body: coupon })).status).toBe(201);
    // A second member of the team, who reviews transfers and refunds at the same moments as the first.
    const staffUp = await http('POST', '/api/auth/sign-up/email', { body: { email: 'kills-staff@example.com', password: 'Str0ng-pass!', name: 'Kills Staff' } });
    expect(staffUp.status).toBe(200);
    const staffCookie = cookieOf(staffUp);
    const staffId = (await http('GET', '/api/me', { cookie: staffCookie })).body.user.id;
    expect((await http('POST', `/api/admin/users/${staffId}/roles`, { cookie: adminCookie, body: { role: 'admin' } })).status).toBeLessThan(300);
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
    /** Top-ups through a gateway started but not paid yet. */
    const openTopups: { kind: Exclude<TopUpKind, 'bank'>; transaction: string }[] = [];
    type Outcome = 'success' | 'declined' | 'expired' | 'eft';
    /** The customer pays (or is declined) on the gateway's page; its notification reaches the server on its own. */
    const completeAtGateway = ({ kind, transaction }: (typeof openTopups)[number], outcome: Outcome) => {
      try {
        if (kind === 'epoint') gw.control.complete(transaction, outcome === 'success' || outcome === 'eft' ? 'success' : 'declined');
        else if (kind === 'payriff') payriff.control.complete(transaction, outcome === 'eft' ? 'success' : outcome);
        else paytr.control.complete(transaction, outcome === 'expired' ? 'declined' : outcome);
        count(`pay:${kind}:${outcome}`);
      } catch {
        count(`pay:${kind}:already-closed`);
      }
    };
    /** Every gateway's notifications sent once, as they normally are. */
    const normalCallbacks = () => {
      gw.control.set({ callback: 'normal' });
      payriff.control.set({ callback: 'normal' });
      paytr.control.set({ notify: 'normal' });
    };
    /** Sends a bank transfer's receipt as the dialog does: one file in a form. */
    const uploadReceipt = (c: Customer, reference: string) => {
      const boundary = 'kills-receipt-boundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="receipt"; filename="receipt.png"\r\nContent-Type: image/png\r\n\r\n`;
      const body = Buffer.concat([Buffer.from(head), PNG, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      return http('POST', `/api/payments/${reference}/receipt`, { cookie: c.cookie, raw: { body, type: `multipart/form-data; boundary=${boundary}` } });
    };
    const review = (id: string, cookie: string, approve: boolean) =>
      http('POST', `/api/admin/payments/${id}/review`, { cookie, body: approve ? { approve: true } : { approve: false, reason: 'kills campaign: no such transfer arrived' } });
    const labelOf = (reply: Reply) => (typeof reply.status === 'number' ? (reply.status < 300 ? String(reply.status) : `${reply.status} ${reply.body?.error?.code}`) : reply.status);
    let refundsAsked = 0;
    let reviewsSent = 0;

    /** While the process is down: a customer pays (the callback meets a closed port), a request is refused; then the restart. */
    const downAndUp = async (r: Random, armNext = false) => {
      const payNow = r.chance(0.5);
      const pickOpen = r.next();
      const knock = r.chance(0.3);
      const pause = r.chance(0.3) ? r.int(0, 2000) : 0;
      const crashAfterDebit = r.chance(0.25) || armNext;
      if (payNow && openTopups.length) {
        const [open] = openTopups.splice(Math.floor(pickOpen * openTopups.length), 1);
        normalCallbacks();
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
      // The first top-ups through Payriff, PayTR and a bank transfer are made without a kill: the refund and the review later need them.
      const calm = op >= 1 && op <= 4;
      const killMid = r.chance(0.12) && !betweenKillOwed && !calm;
      const killDelay = r.int(0, 400);
      // The calm top-ups are left to finish too: no kill after them either.
      const killAfter = (r.chance(0.05) || betweenKillOwed) && !calm;
      const retryLost = r.chance(0.7);
      // Every run places a drip-feed first and has the team refund one later.
      const dripDraw = r.chance(0.35) ? r.pick(['place', 'place', 'place', 'cancel-run', 'cancel-run', 'cancel-parent', 'staff-refund', 'staff-refund'] as const) : null;
      const dripForced = op === 0 || op === Math.floor((OPERATIONS * 2) / 3);
      let drip = op === 0 ? 'place' : op === Math.floor((OPERATIONS * 2) / 3) ? 'staff-refund' : dripDraw;
      // Money coming in other ways: every run tops up through Payriff, PayTR, a bank transfer and
      // Payriff again first, refunds a Payriff top-up a third of the way (killed in the middle), has
      // two staff review a transfer at once, then tops up through Payriff or PayTR with the kill
      // between operations owed midway landing while its notification is on its way.
      const moneyDraw = r.chance(0.3) ? r.pick(['payriff', 'payriff', 'paytr', 'paytr', 'bank', 'bank-review', 'refund', 'refund'] as const) : null;
      const midwayGateway = r.pick(['payriff', 'paytr'] as const);
      const forcedMoney =
        op === 1 || op === 4 ? 'payriff' : op === 2 ? 'paytr' : op === 3 ? 'bank' : op === Math.floor(OPERATIONS / 3) ? 'refund' : op === Math.floor(OPERATIONS / 2) - 1 ? 'bank-review' : midway ? midwayGateway : null;
      const money = dripForced ? null : (forcedMoney ?? (drip ? null : moneyDraw));
      if (money) drip = null;
      let killedHere = false;
      let lostOrder: OrderBody | undefined;
      /** A review whose answer a kill cut off: the staff member sends it again after the restart. */
      let lostReview: string | undefined;
      /** Sends the request; with `killMid` the process is SIGKILLed `killDelay` ms into it. */
      const send = async <T,>(request: () => Promise<T>): Promise<T> => {
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

      if (money === 'payriff' || money === 'paytr') {
        // A top-up through Payriff or PayTR; paid (declined, expired) at its sandbox, whose notification reaches the server on its own.
        const kind = money;
        const amountMicros = r.pick([1_000_000, 5_000_000, 10_100_000, 25_000_000]);
        const coupon = r.chance(0.3) ? KILLS_COUPON : undefined;
        const outcome: Outcome | 'later' = calm || midway ? 'success' : kind === 'payriff' ? r.pick(['success', 'success', 'success', 'declined', 'expired', 'later'] as const) : r.pick(['success', 'success', 'eft', 'declined', 'later'] as const);
        const killAtCallback = r.chance(0.5);
        const lateMs = r.int(500, 8000);
        if (kind === 'payriff') {
          const callback = calm || midway ? 'normal' : r.pick(['normal', 'normal', 'normal', 'duplicate', 'late', 'none', 'tamper-amount'] as const);
          const statusMode = calm ? 'normal' : r.pick(['normal', 'normal', 'normal', 'normal', 'normal', 'normal', '5xx', 'garbage', 'error-code', 'tamper-amount'] as const);
          payriff.control.set({ callback, duplicates: 3, lateMs, statusMode });
          count(`topup-payriff-faults:${callback}:${statusMode}`);
        } else {
          const notify = calm || midway ? 'normal' : r.pick(['normal', 'normal', 'normal', 'duplicate', 'late', 'none', 'bad-hash', 'tamper-amount'] as const);
          const statusMode = calm ? 'normal' : r.pick(['normal', 'normal', 'normal', 'normal', 'normal', '5xx', 'garbage'] as const);
          paytr.control.set({ notify, duplicates: 3, lateMs, statusMode });
          count(`topup-paytr-faults:${notify}:${statusMode}`);
        }
        const topUp = () => http('POST', '/api/payments/topup', { cookie: c.cookie, body: { amountMicros, language: 'en', method: kind, ...(coupon ? { coupon } : {}) } });
        const reply = killAtCallback ? await topUp() : await send(topUp);
        count(`topup-${kind}:${labelOf(reply)}`);
        if (reply.status === 201) {
          const transaction = kind === 'payriff' ? String(reply.body.paymentUrl).split('/').pop()! : paytrMerchantOid(reply.body.reference);
          c.topups.push({ reference: reply.body.reference, transaction, kind });
          if (outcome === 'later') openTopups.push({ kind, transaction });
          else {
            completeAtGateway({ kind, transaction }, outcome);
            // A calm top-up is settled before the next operation changes the gateway's faults:
            // its notification is delivered, and the status it makes the server ask is still true.
            if (calm) await (kind === 'payriff' ? payriff : paytr).control.idle();
            // The notification is on its way (or being handled) when the process dies.
            if (killMid && killAtCallback) {
              await sleep(killDelay / 8);
              await kill('during-callback');
              killedHere = true;
            }
          }
        } else if (typeof reply.status === 'number') {
          expect(['RATE_LIMITED', 'COUPON_ALREADY_USED', 'COUPON_USED_UP'], JSON.stringify(reply.body)).toContain(reply.body?.error?.code);
        }
      } else if (money === 'bank') {
        // A bank transfer: started, then its receipt sent (now and then never).
        const amountMicros = r.pick([10_000_000, 20_000_000]);
        const coupon = r.chance(0.3) ? KILLS_COUPON : undefined;
        const withReceipt = calm || r.chance(0.85);
        const reply = await send(() => http('POST', '/api/payments/topup', { cookie: c.cookie, body: { amountMicros, language: 'az', method: 'bank', ...(coupon ? { coupon } : {}) } }));
        count(`topup-bank:${labelOf(reply)}`);
        if (reply.status === 201) {
          c.topups.push({ reference: reply.body.reference, transaction: '', kind: 'bank' });
          if (withReceipt && !killedHere) {
            const sent = await send(() => uploadReceipt(c, reply.body.reference));
            count(`bank-receipt:${labelOf(sent)}`);
            if (typeof sent.status === 'number') expect(sent.status, JSON.stringify(sent.body)).toBe(201);
          }
        } else if (typeof reply.status === 'number') {
          expect(['RATE_LIMITED', 'COUPON_ALREADY_USED', 'COUPON_USED_UP'], JSON.stringify(reply.body)).toContain(reply.body?.error?.code);
        }
      } else if (money === 'bank-review') {
        // The team reviews a transfer with its receipt: two staff members at once (one decides it), or one.
        const pick = r.next();
        const both = forcedMoney === 'bank-review' || r.chance(0.6);
        const [approveFirst, approveSecond] = [r.chance(0.75), r.chance(0.5)];
        const waiting = await database!.query<{ id: string }>(
          `select p.id from payments p where p.method = 'bank' and p.status = 'pending' and exists (select 1 from payment_receipts r where r.payment_id = p.id) order by p.created_at`,
        );
        if (waiting.length) {
          const { id } = waiting[Math.floor(pick * waiting.length)]!;
          const replies = await send(() => Promise.all([review(id, adminCookie, approveFirst), ...(both ? [review(id, staffCookie, approveSecond)] : [])]));
          reviewsSent += replies.length;
          count(`bank-review:${replies.map(labelOf).join('/')}`);
          expect(replies.filter((x) => x.status === 200).length).toBeLessThanOrEqual(1);
          for (const x of replies) if (typeof x.status === 'number' && x.status !== 200) expect(x.body?.error?.code, JSON.stringify(x.body)).toBe('PAYMENT_ALREADY_SETTLED');
          if (replies.some((x) => x.status === 'lost' || x.status === 'refused')) lostReview = id;
        }
      } else if (money === 'refund') {
        // The team refunds a Payriff top-up to the card (or asks again about one left pending). The
        // gateway refunds, refuses, never answers, or refunds and loses its answer; the forced one
        // is killed in the middle: the money went back to the card, the process dies before writing so.
        const pick = r.next();
        const forced = forcedMoney === 'refund';
        const mode = forced ? 'lost-reply' : r.pick(['normal', 'normal', 'normal', 'error-code', 'lost-reply', 'timeout'] as const);
        const race = !forced && r.chance(0.25);
        // Now and then part of the charge was given back from Payriff's dashboard first: the refund settles partial.
        const dashboard = !forced && r.chance(0.2);
        // Top-ups not refunded yet first (then pending ones), those the customer's balance can still give back first.
        const candidates = await database!.query<{ id: string; transaction_id: string; refund_status: string | null; amount_minor: string }>(
          `select p.id, p.transaction_id, p.refund_status, p.amount_minor::text from payments p join users u on u.id = p.user_id
           where p.method = 'payriff' and p.status = 'completed' and p.reversed_at is null and (p.refund_status is null or p.refund_status = 'pending')
           order by p.refund_status is null desc, (u.balance_micros >= p.amount_usd_micros + p.bonus_micros + p.coupon_micros) desc, p.created_at`,
        );
        if (candidates.length) {
          const p = forced ? candidates[0]! : candidates[Math.floor(pick * candidates.length)]!;
          payriff.control.set({ refundMode: mode, statusMode: 'normal' });
          if (dashboard) {
            try {
              payriff.control.refund(p.transaction_id, Math.max(1, Math.floor(Number(p.amount_minor) / 3)));
              count('refund:dashboard-part');
            } catch {
              count('refund:dashboard-refused');
            }
          }
          // A refund whose answer never comes: the staff member's page gives up (the server waits its 15 s in the background).
          const unanswered = mode === 'lost-reply' || mode === 'timeout';
          const ask = (cookie: string) => http('POST', `/api/admin/payments/${p.id}/refund`, { cookie, body: { reason: 'kills campaign: back to the card' }, timeoutMs: unanswered ? 1_500 : 30_000 });
          let replies: Reply[];
          if (forced || (killMid && mode === 'lost-reply')) {
            const pending = ask(adminCookie);
            for (let i = 0; i < 60 && payriff.control.order(p.transaction_id)?.status !== 'REFUNDED'; i++) await sleep(50);
            await kill('mid-refund');
            killedHere = true;
            replies = [await pending];
          } else {
            replies = await send(() => Promise.all([ask(adminCookie), ...(race ? [ask(staffCookie)] : [])]));
          }
          refundsAsked += replies.length;
          count(`refund:${p.refund_status ?? 'new'}:${mode}${race ? ':race' : ''}:${replies.map(labelOf).join('/')}`);
          for (const x of replies) if (typeof x.status === 'number' && x.status >= 300) expect(REFUND_REFUSALS, JSON.stringify(x.body)).toContain(x.body?.error?.code);
          payriff.control.set({ refundMode: 'normal' });
        } else count('refund:none');
      } else if (drip === 'place') {
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
          c.topups.push({ reference: reply.body.reference, transaction, kind: 'epoint' });
          if (outcome === 'later') openTopups.push({ kind: 'epoint', transaction });
          else {
            completeAtGateway({ kind: 'epoint', transaction }, outcome);
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
        const callback = r.pick(['normal', 'duplicate'] as const);
        gw.control.set({ callback, statusMode: 'normal' });
        payriff.control.set({ callback, statusMode: 'normal' });
        paytr.control.set({ notify: callback, statusMode: 'normal' });
        if (openTopups.length) {
          const [open] = openTopups.splice(Math.floor(pickOpen * openTopups.length), 1);
          completeAtGateway(open!, 'success');
        }
      } else if (roll < 0.84) {
        // The gateway sends an old callback again.
        const pickTopup = r.next();
        const mode = r.pick(['normal', 'duplicate'] as const);
        const all = customers.flatMap((x) => x.topups).filter((t) => t.kind !== 'bank');
        if (all.length) {
          const { transaction, kind } = all[Math.floor(pickTopup * all.length)]!;
          callbacks.push(
            kind === 'epoint' ? gw.control.sendCallback(transaction, { mode }) : kind === 'payriff' ? payriff.control.sendCallback(transaction, { mode }) : paytr.control.notify(transaction, { mode }),
          );
          count(`callback-replay:${kind}:${mode}`);
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
      // Midway, the kill between operations lands while the top-up's notification is on its way (or being handled).
      if (midway && forcedMoney && alive()) await sleep(r.int(0, 30));
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
        if (lostReview && alive()) {
          // The staff member whose review was cut off sends it again: decided once, whichever way.
          const again = await review(lostReview, staffCookie, true);
          lostReview = undefined;
          count(`bank-review-after-kill:${labelOf(again)}`);
          if (typeof again.status === 'number' && again.status !== 200) expect(again.body?.error?.code).toBe('PAYMENT_ALREADY_SETTLED');
        }
      }
    }

    // ---- settling ------------------------------------------------------------------------
    sandbox.control.reset();
    gw.control.set({ callback: 'normal', statusMode: 'normal' });
    payriff.control.set({ callback: 'normal', statusMode: 'normal', refundMode: 'normal' });
    paytr.control.set({ notify: 'normal', statusMode: 'normal' });
    const logger = createLogger('silent');
    const od = { db: database.db, providers: singleProvider(sandboxClient(sandbox, { timeoutMs: 5_000 })), logger };
    // The last restart: no crash point, and no background work of its own (JOBS=false), so the
    // jobs below run once, with the clock moved forward; the start-up reconciliation a worker
    // process runs (`npm run worker`) runs here.
    await kill('before-last-restart');
    // Orders left between debit and submission are submitted by the next start once older than 10 s.
    // Read once the server is down: a request still in flight before the kill may have written one.
    const [unsent] = await database.query<{ newest: Date | null }>(`select max(created_at) as newest from orders where status = 'pending' and submitted_at is null`);
    if (unsent?.newest) await sleep(Math.max(0, new Date(unsent.newest).getTime() + 10_500 - Date.now()));
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
    await Promise.all([gw.control.idle(), payriff.control.idle(), paytr.control.idle()]);

    const pd = {
      db: database.db,
      gateways: gatewayRegistry({
        epoint: createGateway({ kind: 'epoint', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey, timeoutMs: 5_000 }),
        payriff: createGateway({ kind: 'payriff', baseUrl: payriff.url, secretKey: payriff.secretKey, timeoutMs: 5_000 }),
        paytr: createGateway({ kind: 'paytr', baseUrl: paytr.origin, merchantId: paytr.merchantId, merchantKey: paytr.merchantKey, merchantSalt: paytr.merchantSalt, testMode: true, timeoutMs: 5_000 }),
      }),
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
    // A refund cut off by a kill holds its claim for 60 s: with the clock moved forward, it has run out.
    await database.query(`update payments set claimed_until = now() where refund_status = 'pending' and claimed_until > now()`);
    for (let i = 1; i <= 6; i++) {
      sandbox.control.advance(ORDER_SECONDS * 1000);
      await syncOrderStatuses(od);
      await settleDripParents(od);
      const done = await reconcileOrders(od, new Date(Date.now() + i * 3_600_000));
      sandbox.control.advance(ORDER_SECONDS * 1000);
      await syncOrderStatuses(od);
      const paid = await reconcilePayments(pd, new Date(Date.now() + 48 * 3_600_000));
      const refunds = await resolvePendingRefunds(pd, 0);
      count(`settle:refunds:${refunds.completed}/${refunds.failed}/${refunds.pending}`);
      const settled = await settleDripParents(od);
      if (i >= 2 && !done.submitted && !done.found && !done.refunded && !paid.settled && !paid.expired && !settled && !refunds.completed && !refunds.failed) break;
    }
    // The team reviews every transfer left with its receipt.
    const decide = createRandom(SEED + 1);
    for (const { id } of await database.query<{ id: string }>(
      `select p.id from payments p where p.method = 'bank' and p.status = 'pending' and exists (select 1 from payment_receipts r where r.payment_id = p.id)`,
    )) {
      const reply = await review(id, adminCookie, decide.chance(0.75));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      count('settle:bank-review');
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

    // Money is conserved: what came in (sign-up bonuses, admin credits, settled top-ups and what they earned, less refunds to the card) less what orders kept.
    const [money] = await q<Record<string, string>>(`
      select
        (select coalesce(sum(balance_micros), 0) from users)::text as balances,
        (select coalesce(sum(amount_micros), 0) from ledger_entries where kind = 'signup_bonus')::text as bonuses,
        (select coalesce(sum((details->>'amountMicros')::bigint), 0) from audit_log where action = 'balance.adjust')::text as admin,
        (select coalesce(sum(charge_micros), 0) from orders where parent_id is null)::text as charges,
        (select coalesce(sum(refunded_micros), 0) from orders)::text as refunds,
        (select coalesce(sum(amount_micros), 0) from ledger_entries where kind = 'admin_adjustment')::text as ledger_admin`);
    const m = Object.fromEntries(Object.entries(money!).map(([k, v]) => [k, Number(v)]));
    // Settled top-ups with what they earned (deposit bonus, coupon), less refunds to the card that
    // took them back (a refused one gave it back), each checked against the ledger's own sums.
    const paid = await paymentMoney(database);
    expect(paid.problems).toEqual([]);
    expect(m.balances).toBe(m.bonuses! + m.admin! + paid.topups - paid.refunds - m.charges! + m.refunds!);
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
    // Each payment credited at most once (its amount and what it earned), each refund debited once
    // and completed, given back once, or pending with the gateway's error; Payriff and PayTR agree.
    const lines = await paymentLines(database);
    expect(openPayments(lines)).toEqual([]);
    expect(paymentProblems(lines)).toEqual([]);
    expect(payriffDisagreements(payriff.control.orders(), lines)).toEqual([]);
    expect(paytrDisagreements(paytr.control.orders(), lines)).toEqual([]);
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
        `${providerOrders.size} provider orders; ${gatewayPayments.length} gateway payments; ` +
        `by method ${JSON.stringify(lines.reduce<Record<string, number>>((acc, p) => ((acc[`${p.method}:${p.status}${p.refund_status ? `:refund-${p.refund_status}` : ''}`] = (acc[`${p.method}:${p.status}${p.refund_status ? `:refund-${p.refund_status}` : ''}`] ?? 0) + 1), acc), {}))}`,
    );
    console.log('server kills operations:', JSON.stringify(tally));
    expect(kills['between-operations']).toBeGreaterThan(0);
    expect(tally['start:crash-after-debit']).toBeGreaterThan(0);
    expect(refundsAsked).toBeGreaterThan(0);
    expect(reviewsSent).toBeGreaterThan(0);
    // A safety net, not a measure: ten restarts of a child process take minutes on a machine kept busy by other work.
  }, 120_000 + OPERATIONS * 10_000);
});

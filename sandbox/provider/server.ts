import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { keepConnections } from '../shared/keepAlive';
import { generateCatalog, PRICE_FACTOR, withPriceFactor } from './catalog';
import { faultConfigSchema, Faults, type AppliedFault, type FaultConfig, type FaultState } from './faults';
import { RefusalTurns } from './orderRules';
import { OrderBook, SANDBOX_STATUSES, type OrderView, type SandboxStatus } from './orders';
import { handleQqtube, qqtubeRefusal, type ApiContext, type ApiReply } from './qqtubeApi';
import { handleV2, v2Refusal } from './v2Api';

export interface SandboxProviderOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Catalogue seed (default 1). */
  seed?: number;
  /** Number of services, 1–5000 (default 320). */
  serviceCount?: number;
  /** Whole lifetime of an order, from pending to its outcome (default 30). */
  orderSeconds?: number;
  /** Length of one minute of a drip-feed's interval, in ms (default 60000). */
  dripMinuteMs?: number;
  /**
   * `wall` (default): orders progress with the wall clock, and `advance` moves it further on.
   * `manual`: time stands still but for `advance`, so a test sees the same state however slowly
   * the machine runs.
   */
  clock?: 'wall' | 'manual';
  /** JSON file keeping orders, balance and clock across restarts; in memory when missing. */
  stateFile?: string;
  /** The key both protocols expect (default "sandbox-key"). */
  apiKey?: string;
  /**
   * The account's starting balance in USD (a decimal text), or null (the default) for one that
   * never runs out. Each accepted order takes its charge from it and cancels and partial orders
   * give back what they did not deliver; an order that costs more than it is refused in the
   * protocol's words ("Not enough funds on balance"). `balance` / `funds` answer it.
   */
  balance?: string | null;
  /**
   * Every price of the catalogue times this factor, exactly (a decimal text of at most 4
   * decimals, default "1"): a second sandbox provider sells the same services at other prices.
   */
  priceFactor?: string;
  /**
   * Every N-th order that would be taken is refused with the protocol's ordinary refusal
   * ("Service temporarily unavailable"); 0 (default) never. Counted from the start and from
   * each `reset`, so the same orders are refused every run.
   */
  refuseEvery?: number;
  /**
   * How long every protocol call waits before it is answered, in ms: a fixed delay or a
   * `[min, max]` range drawn uniformly per call (default 0). Real panels answer in 0.3–3 s.
   */
  latencyMs?: LatencyRange;
  /**
   * Requests each API key may make per second (default 0: unlimited). A call over the limit is
   * answered as panels behind a rate limiter answer it: HTTP 429 with `Retry-After` and the
   * protocol's error envelope ("Too many requests"); the call is not processed.
   */
  rateLimitPerSecond?: number;
}

/** A delay in ms, fixed or a uniform `[min, max]` range. */
export type LatencyRange = number | readonly [number, number];

/** "300-1500" → [300, 1500]; "250" → 250; throws on anything else. */
export function parseLatencyRange(text: string): LatencyRange {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) throw new Error(`latency must be "<ms>" or "<min>-<max>", got "${text}"`);
  const min = Number(m[1]);
  if (m[2] === undefined) return min;
  const max = Number(m[2]);
  if (max < min) throw new Error(`latency range "${text}" ends before it starts`);
  return [min, max];
}

const drawLatency = (range: LatencyRange): number =>
  typeof range === 'number' ? range : range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));

export interface SandboxControl {
  /** Replaces the current fault (see FaultConfig). */
  setFault(fault: FaultConfig): void;
  fault(): FaultState;
  /**
   * Back to normal: no fault, call counts cleared, `refuseEvery` counted from here; with
   * `orders`, also no orders and the starting balance.
   */
  reset(opts?: { orders?: boolean }): void;
  /** Every order, newest first, as it stands on the virtual clock. */
  orders(): OrderView[];
  order(id: string): OrderView | undefined;
  /** Pins an order to a status; `delivered` defaults to what it has delivered so far. */
  setOrderState(id: string, status: SandboxStatus, delivered?: number): OrderView;
  /** Moves the virtual clock forward. */
  advance(ms: number): void;
  now(): Date;
  balance(): string;
  /** Sets the account's balance as it reads now (USD); null: unlimited again. */
  setBalance(amount: string | null): void;
  /** Prices the catalogue at `factor` times the generated prices (see SandboxProviderOptions.priceFactor). */
  setPriceFactor(factor: string): void;
  /** Refuses every N-th order from now on (0: none; see SandboxProviderOptions.refuseEvery). */
  setRefuseEvery(every: number): void;
  /** Calls received per "protocol:action", e.g. `{ "smm-v2:status": 2 }`. */
  calls(): Record<string, number>;
  /** Changes the latency of every protocol call (see SandboxProviderOptions.latencyMs). */
  setLatency(range: LatencyRange): void;
  /** Changes the per-key request limit (0: unlimited). */
  setRateLimit(perSecond: number): void;
  /** Calls answered 429 because their key was over the limit. */
  rateLimited(): number;
}

export interface SandboxProvider {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  qqtubeUrl: string;
  v2Url: string;
  apiKey: string;
  control: SandboxControl;
  close(): Promise<void>;
}

const GARBAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser before accessing the site.</body></html>';
const UNAVAILABLE = '<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503</h1></body></html>';
const MAX_BODY = 1_000_000;

const controlBodySchema = faultConfigSchema.extend({
  reset: z.boolean().optional(),
  clearOrders: z.boolean().optional(),
  advanceMs: z.number().nonnegative().optional(),
  /** A balance in USD, or null: unlimited. */
  balance: z.string().regex(/^\d+(\.\d+)?$/).nullable().optional(),
  priceFactor: z.string().regex(PRICE_FACTOR).refine((f) => Number(f) > 0, 'must be more than 0').optional(),
  refuseEvery: z.number().int().nonnegative().optional(),
  latencyRange: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
  rateLimitPerSecond: z.number().int().nonnegative().optional(),
}).strict();
const orderPatchSchema = z.object({
  status: z.enum(SANDBOX_STATUSES as [SandboxStatus, ...SandboxStatus[]]),
  delivered: z.number().int().nonnegative().optional(),
});
const FAULT_KEYS = Object.keys(faultConfigSchema.shape) as (keyof FaultConfig)[];

/**
 * Starts the sandbox SMM provider: one HTTP server speaking QQTube-style at `/v1-api` and
 * PerfectPanel v2 at `/api/v2` (with drip-feed, refill and cancel), with fault control at
 * `/__control` (GET reads, POST sets).
 */
export async function startSandboxProvider(opts: SandboxProviderOptions = {}): Promise<SandboxProvider> {
  const apiKey = opts.apiKey ?? 'sandbox-key';
  const generated = generateCatalog(opts.seed ?? 1, Math.min(5000, Math.max(1, opts.serviceCount ?? 320)));
  let priceFactor = opts.priceFactor ?? '1';
  const turns = new RefusalTurns(opts.refuseEvery ?? 0);
  const book = new OrderBook({ orderSeconds: opts.orderSeconds ?? 30, balance: opts.balance ?? null, stateFile: opts.stateFile, manualClock: opts.clock === 'manual', dripMinuteMs: opts.dripMinuteMs });
  const ctx: ApiContext = { catalog: withPriceFactor(generated, priceFactor), book, apiKey, turns };
  const faults = new Faults();
  let calls: Record<string, number> = {};
  let latency: LatencyRange = opts.latencyMs ?? 0;
  let ratePerSecond = opts.rateLimitPerSecond ?? 0;
  let limited = 0;
  /** Per key: when the current one-second window started and how many calls it took. */
  const windows = new Map<string, { start: number; count: number }>();
  /** Whether a call with `key` fits in its window; counts it when it does. */
  const admit = (key: string): boolean => {
    if (ratePerSecond <= 0) return true;
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= 1000) windows.set(key, (w = { start: now, count: 0 }));
    if (w.count >= ratePerSecond) return false;
    w.count++;
    return true;
  };

  const control: SandboxControl = {
    setFault: (fault) => faults.set(fault),
    fault: () => faults.get(),
    reset: (o) => {
      faults.reset();
      calls = {};
      limited = 0;
      windows.clear();
      turns.restart();
      if (o?.orders) book.clear();
    },
    orders: () => book.list(),
    order: (id) => book.get(id),
    setOrderState: (id, status, delivered) => book.setState(id, status, delivered),
    advance: (ms) => book.advance(ms),
    now: () => new Date(book.now()),
    balance: () => book.balance(),
    setBalance: (amount) => book.setBalance(amount),
    setPriceFactor: (factor) => {
      ctx.catalog = withPriceFactor(generated, factor);
      priceFactor = factor;
    },
    setRefuseEvery: (every) => turns.set(every),
    calls: () => ({ ...calls }),
    setLatency: (range) => void (latency = range),
    setRateLimit: (perSecond) => void (ratePerSecond = perSecond),
    rateLimited: () => limited,
  };

  const server = keepConnections(createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      console.error('sandbox provider: request failed', e);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  }));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (url.pathname === '/__control' || url.pathname.startsWith('/__control/')) return handleControl(req, res, url);
    const protocol = url.pathname === '/v1-api' ? 'qqtube' : url.pathname === '/api/v2' ? 'smm-v2' : null;
    if (!protocol) return sendJson(res, 404, { error: 'Not found' });

    const contentType = req.headers['content-type'] ?? '';
    // A v2 panel answers whatever it cannot read with its usual refusal, HTTP 200.
    const unreadable = () =>
      protocol === 'qqtube'
        ? sendJson(res, 400, { status: 'error', messages: [{ id: 400, message: 'Invalid request' }] })
        : sendJson(res, 200, v2Refusal('Incorrect request').body);
    if (req.method !== 'GET' && req.method !== 'POST') {
      return protocol === 'qqtube' ? sendJson(res, 405, { status: 'error', messages: [{ id: 405, message: 'Invalid access method' }] }) : unreadable();
    }
    if (protocol === 'qqtube' && contentType.startsWith('multipart/')) {
      // The real QQTube endpoint answers a multipart POST this way.
      return sendJson(res, 405, { status: 'error', messages: [{ id: 405, message: 'Invalid access method' }] });
    }
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      return unreadable();
    }
    try {
      if (contentType.includes('application/json') && body.length) {
        const parsed: unknown = JSON.parse(body.toString('utf8'));
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return unreadable();
        for (const [k, v] of Object.entries(parsed)) params[k] = String(v);
      } else if (contentType.startsWith('multipart/') && body.length) {
        const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
        for (const [k, v] of form) if (typeof v === 'string') params[k] = v;
      } else if (body.length) {
        Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
      }
    } catch {
      return unreadable();
    }

    const action = params.action ?? '';
    const counter = `${protocol}:${action}`;
    calls[counter] = (calls[counter] ?? 0) + 1;

    // The limiter stands in front of the panel: a refused call is never processed.
    if (!admit(String((protocol === 'qqtube' ? params.api_key : params.key) ?? ''))) {
      limited++;
      const body = protocol === 'qqtube' ? { status: 'error', messages: [{ id: 429, message: 'Too many requests' }] } : { error: 'Too many requests' };
      return sendJson(res, 429, body, { 'retry-after': '1' });
    }
    const delay = drawLatency(latency);
    if (delay > 0) await sleep(delay);

    const fault = faults.take(action);
    if (fault?.latencyMs) await sleep(fault.latencyMs);
    if (fault && fault.mode !== 'normal') return sendFault(res, fault, protocol, action);

    const reply = protocol === 'qqtube' ? handleQqtube(params, ctx) : handleV2(params, ctx);
    if (fault?.acceptThenTimeout) return; // the order is recorded; the answer never comes
    sendJson(res, reply.status, reply.body);
  }

  function sendFault(res: ServerResponse, fault: AppliedFault, protocol: 'qqtube' | 'smm-v2', action: string) {
    switch (fault.mode) {
      case 'timeout':
        return; // never answered; close() drops the connection
      case '5xx':
        return send(res, 503, 'text/html', UNAVAILABLE);
      case 'garbage':
        return send(res, 200, 'text/html', GARBAGE);
      case 'refuse': {
        const message = fault.message ?? (action === 'add' ? 'Not enough funds on balance' : 'Service temporarily unavailable');
        const reply: ApiReply = protocol === 'qqtube' ? qqtubeRefusal(message) : v2Refusal(message);
        return sendJson(res, reply.status, reply.body);
      }
    }
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const state = () => ({
      fault: faults.get(),
      calls,
      now: new Date(book.now()).toISOString(),
      clockOffsetMs: book.clockOffsetMs,
      balance: book.balance(),
      unlimited: book.unlimited,
      priceFactor,
      refuseEvery: turns.every,
      orders: book.list().length,
      latencyMs: latency,
      rateLimitPerSecond: ratePerSecond,
      rateLimited: limited,
    });
    const orderMatch = /^\/__control\/orders(?:\/([^/]+))?$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/__control') return sendJson(res, 200, state());
    if (req.method === 'GET' && orderMatch && !orderMatch[1]) return sendJson(res, 200, book.list());

    let body: unknown;
    try {
      body = JSON.parse((await readBody(req)).toString('utf8') || '{}');
    } catch {
      return sendJson(res, 400, { error: 'body must be JSON' });
    }
    if (req.method === 'POST' && url.pathname === '/__control') {
      const parsed = controlBodySchema.safeParse(body);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      const c = parsed.data;
      if (c.reset) control.reset({ orders: c.clearOrders });
      else if (c.clearOrders) book.clear();
      if (c.advanceMs) book.advance(c.advanceMs);
      if (c.balance !== undefined) book.setBalance(c.balance);
      if (c.priceFactor !== undefined) control.setPriceFactor(c.priceFactor);
      if (c.refuseEvery !== undefined) turns.set(c.refuseEvery);
      if (c.latencyRange) latency = c.latencyRange;
      if (c.rateLimitPerSecond !== undefined) ratePerSecond = c.rateLimitPerSecond;
      if (FAULT_KEYS.some((k) => c[k] !== undefined)) {
        faults.set(Object.fromEntries(FAULT_KEYS.filter((k) => c[k] !== undefined).map((k) => [k, c[k]])));
      }
      return sendJson(res, 200, state());
    }
    if (req.method === 'POST' && orderMatch?.[1]) {
      const parsed = orderPatchSchema.safeParse(body);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      if (!book.get(orderMatch[1])) return sendJson(res, 404, { error: 'no such order' });
      return sendJson(res, 200, book.setState(orderMatch[1], parsed.data.status, parsed.data.delivered));
    }
    return sendJson(res, 404, { error: 'Not found' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: base,
    qqtubeUrl: `${base}/v1-api`,
    v2Url: `${base}/api/v2`,
    apiKey,
    control,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // also drops requests held open by a timeout fault
      await closed;
      await book.flush();
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { ...headers, 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  send(res, status, 'application/json', JSON.stringify(body), headers);
}

import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import Big from 'big.js';
import { hashText } from './random';

/**
 * The sandbox's order book: orders, their simulated progress on a virtual clock, the account
 * balance and refills, optionally persisted to a JSON file.
 */

export type SandboxStatus =
  | 'pending' | 'processing' | 'in_progress' | 'completed' | 'partial'
  | 'cancelled' | 'refunded' | 'stopped' | 'error';

export const SANDBOX_STATUSES: readonly SandboxStatus[] = [
  'pending', 'processing', 'in_progress', 'completed', 'partial', 'cancelled', 'refunded', 'stopped', 'error',
];

/** `partial-refund`: partial at the end of its lifetime, then refunded in full one lifetime later. */
type Outcome = 'completed' | 'partial' | 'cancelled' | 'refunded' | 'partial-refund';

export interface StoredOrder {
  id: string;
  via: 'qqtube' | 'smm-v2';
  serviceId: string;
  link: string;
  /** The whole order: for a drip-feed, every run's quantity together. */
  quantity: number;
  params: Record<string, string>;
  /** What the order cost, in the decimals of the protocol it came through (v2: 5, QQTube: 4). */
  charge: string;
  /**
   * A drip-feed (SMM v2 `runs` and `interval`): `runs` deliveries of `quantity / runs`, each
   * starting `runGapMs` after the one before (the interval's minutes, as long as the sandbox's
   * minute was when the order came).
   */
  runs?: number;
  interval?: number;
  runGapMs?: number;
  /** Virtual epoch ms. */
  createdAt: number;
  lifetimeMs: number;
  /** The account's count before delivery (derived from the link, so it is stable per account). */
  startCount: number;
  outcome: Outcome;
  /** Share of the quantity a partial order delivers. */
  partialShare: number;
  /** Set by cancel or by a test: the order stays in this state. */
  override?: { status: SandboxStatus; delivered: number };
}

export interface OrderView extends StoredOrder {
  status: SandboxStatus;
  delivered: number;
  remains: number;
  /** start_count as reported: 0 until delivery starts. */
  reportedStartCount: number;
  currentCount: number;
  /** What the provider gave back to the balance for this order. */
  refund: string;
}

export interface Refill { id: string; orderId: string; createdAt: number }

/** Decimals of an order's money: SMM v2 panels count in 5, the QQTube-style API in 4. */
export const decimalsOf = (via: StoredOrder['via']) => (via === 'smm-v2' ? 5 : 4);

interface State {
  nextOrderId: number;
  nextRefillId: number;
  clockOffsetMs: number;
  /** Balance before charges and refunds. */
  baseBalance: string;
  /**
   * No balance to run out of: no order is refused for funds, and the balance reads as
   * `UNLIMITED_BALANCE` less what the orders cost. Missing in a file written before it: limited.
   */
  unlimited?: boolean;
  orders: StoredOrder[];
  refills: Refill[];
}

/** Links are compared as panels compare them: trimmed, without the scheme, `www.` and a trailing slash, any case. */
const linkKey = (serviceId: string, link: string) =>
  `${serviceId} ${link.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/+$/, '')}`;

const ACTIVE: readonly SandboxStatus[] = ['pending', 'processing', 'in_progress'];
export const isActive = (s: SandboxStatus) => ACTIVE.includes(s);

/** Outcome chosen by the link: tests pick it with a marker in the URL. */
function outcomeOf(link: string): Outcome {
  const l = link.toLowerCase();
  if (l.includes('sandbox-partial-refund')) return 'partial-refund';
  if (l.includes('sandbox-partial')) return 'partial';
  if (l.includes('sandbox-cancel')) return 'cancelled';
  if (l.includes('sandbox-refund')) return 'refunded';
  return 'completed';
}

/**
 * State of an order at a moment. Lifetime phases: first 10 % pending, next 10 % processing,
 * then in progress with delivery growing linearly, then the outcome. Orders that end
 * cancelled or refunded never start delivering. A `partial-refund` order ends partial and turns
 * refunded (the whole charge back) one more lifetime later.
 *
 * A drip-feed's runs each go through a lifetime of their own, one interval after the other: it
 * is pending and processing as its first run is, in progress until its last run ends, and
 * delivers what its runs have delivered together; its outcome applies to every run.
 */
export function viewOrder(o: StoredOrder, now: number): OrderView {
  let status: SandboxStatus;
  let delivered: number;
  if (o.override) {
    status = o.override.status;
    delivered = Math.min(o.quantity, Math.max(0, o.override.delivered));
  } else {
    const runs = o.runs ?? 1;
    const gap = o.runGapMs ?? 0;
    const perRun = o.quantity / runs;
    const partly = o.outcome === 'partial' || o.outcome === 'partial-refund';
    const target = o.outcome === 'completed' ? perRun : partly ? Math.floor(perRun * o.partialShare) : 0;
    /** How far run `k` (from 0) is through its lifetime. */
    const through = (k: number) => (now - o.createdAt - k * gap) / o.lifetimeMs;
    const first = through(0);
    const last = through(runs - 1);
    const deliveredBy = (f: number) => (f >= 1 ? target : f < 0.2 ? 0 : Math.floor(target * ((f - 0.2) / 0.8)));
    if (last >= 2 && o.outcome === 'partial-refund') {
      status = 'refunded';
      delivered = target * runs;
    } else if (last >= 1) {
      status = o.outcome === 'partial-refund' ? 'partial' : o.outcome;
      delivered = target * runs;
    } else if (first < 0.1 || target === 0) {
      status = 'pending';
      delivered = 0;
    } else if (first < 0.2) {
      status = 'processing';
      delivered = 0;
    } else {
      status = 'in_progress';
      delivered = 0;
      for (let k = 0; k < runs; k++) delivered += deliveredBy(through(k));
    }
  }
  const remains = o.quantity - delivered;
  const started = delivered > 0 || !['pending', 'processing', 'cancelled', 'refunded', 'error'].includes(status);
  return {
    ...o,
    status,
    delivered,
    remains,
    reportedStartCount: started ? o.startCount : 0,
    currentCount: o.startCount + delivered,
    refund: refundOf(o.charge, status, remains, o.quantity, decimalsOf(o.via)),
  };
}

/** Full refund when nothing will be delivered; charge × remains / quantity for partial ones, rounded down. */
function refundOf(charge: string, status: SandboxStatus, remains: number, quantity: number, dp: number): string {
  if (status === 'cancelled' || status === 'refunded' || status === 'error') return new Big(charge).toFixed(dp);
  if (status === 'partial' || status === 'stopped') {
    return new Big(charge).times(remains).div(quantity).round(dp, Big.roundDown).toFixed(dp);
  }
  return new Big(0).toFixed(dp);
}

/** What an unlimited account's balance starts at (it is never checked). */
export const UNLIMITED_BALANCE = '1000000000';

export class OrderBook {
  private state: State;
  /** Indexes kept beside the state so lookups and the balance stay cheap with many orders. */
  private byId = new Map<string, StoredOrder>();
  private chargeTotal = new Big(0);
  /** Orders that may give money back (not plain completions). */
  private refundable = new Set<StoredOrder>();
  /** The latest order of each service and link (`activeOrder`). */
  private latestByLink = new Map<string, StoredOrder>();
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** The last write failed (told once until one succeeds again). */
  private saveFailed = false;
  /** With a manual clock, the wall-clock instant virtual time starts from and never leaves on its own. */
  private readonly stoppedAt: number | null;

  /** `balance`: the starting balance in USD, or null for an account that never runs out. */
  constructor(private readonly opts: { orderSeconds: number; balance: string | null; stateFile?: string; manualClock?: boolean; dripMinuteMs?: number }) {
    this.stoppedAt = opts.manualClock ? Date.now() : null;
    this.state = {
      nextOrderId: 1_000_001,
      nextRefillId: 5001,
      clockOffsetMs: 0,
      baseBalance: opts.balance ?? UNLIMITED_BALANCE,
      unlimited: opts.balance === null,
      orders: [],
      refills: [],
    };
    if (opts.stateFile && existsSync(opts.stateFile)) {
      const saved = JSON.parse(readFileSync(opts.stateFile, 'utf8')) as Partial<State>;
      this.state = { ...this.state, ...saved, unlimited: saved.unlimited ?? (saved.baseBalance === undefined && this.state.unlimited) };
    }
    this.reindex();
  }

  private reindex(): void {
    this.byId.clear();
    this.refundable.clear();
    this.latestByLink.clear();
    this.chargeTotal = new Big(0);
    for (const o of this.state.orders) this.index(o);
  }

  private index(o: StoredOrder): void {
    this.byId.set(o.id, o);
    this.latestByLink.set(linkKey(o.serviceId, o.link), o);
    this.chargeTotal = this.chargeTotal.plus(o.charge);
    if (o.override || o.outcome !== 'completed') this.refundable.add(o);
  }

  /** Virtual now: wall clock (or, with a manual clock, its start) plus the offset tests add with `advance`. */
  now(): number {
    return (this.stoppedAt ?? Date.now()) + this.state.clockOffsetMs;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('the sandbox clock only moves forward');
    this.state.clockOffsetMs += ms;
    this.changed();
  }

  /**
   * Records an order; with `runs` and `interval` it is a drip-feed of `quantity / runs` per run
   * (one order, whose runs follow each other on the clock).
   */
  create(input: Pick<StoredOrder, 'via' | 'serviceId' | 'link' | 'quantity' | 'params' | 'charge' | 'runs' | 'interval'>): OrderView {
    const h = hashText(input.link);
    const { runs, interval, ...plain } = input;
    const order: StoredOrder = {
      ...plain,
      ...(runs && runs > 1 ? { runs, interval, runGapMs: (interval ?? 0) * (this.opts.dripMinuteMs ?? 60_000) } : {}),
      id: String(this.state.nextOrderId++),
      createdAt: this.now(),
      lifetimeMs: this.opts.orderSeconds * 1000,
      startCount: 100 + (h % 50_000),
      outcome: outcomeOf(input.link),
      partialShare: 0.3 + ((h >>> 8) % 50) / 100,
    };
    this.state.orders.push(order);
    this.index(order);
    this.changed();
    return viewOrder(order, this.now());
  }

  /**
   * The order of this service and link still under way, if any: a panel takes one at a time
   * (a drip-feed is one order, however many runs it has left).
   */
  activeOrder(serviceId: string, link: string): OrderView | undefined {
    const o = this.latestByLink.get(linkKey(serviceId, link));
    const view = o && viewOrder(o, this.now());
    return view && isActive(view.status) ? view : undefined;
  }

  get(id: string): OrderView | undefined {
    const o = this.byId.get(id);
    return o && viewOrder(o, this.now());
  }

  /** Newest first. */
  list(limit = Infinity): OrderView[] {
    const now = this.now();
    const orders = this.state.orders;
    return orders.slice(Math.max(0, orders.length - limit)).reverse().map((o) => viewOrder(o, now));
  }

  /** Pins an order to a state (tests, cancel). `delivered` defaults to what it has delivered so far. */
  setState(id: string, status: SandboxStatus, delivered?: number): OrderView {
    const o = this.byId.get(id);
    if (!o) throw new Error(`no sandbox order ${id}`);
    const current = viewOrder(o, this.now());
    const units = delivered ?? (status === 'completed' ? o.quantity : current.delivered);
    o.override = { status, delivered: units };
    this.refundable.add(o);
    this.changed();
    return viewOrder(o, this.now());
  }

  /** The balance as `dp` decimals (4 by default; SMM v2 answers with 5), rounded down. */
  balance(dp = 4): string {
    return this.exactBalance().round(dp, Big.roundDown).toFixed(dp);
  }

  private exactBalance(): Big {
    const now = this.now();
    let b = new Big(this.state.baseBalance).minus(this.chargeTotal);
    for (const o of this.refundable) b = b.plus(viewOrder(o, now).refund);
    return b;
  }

  /** Whether the account never runs out (no order is refused for funds). */
  get unlimited(): boolean {
    return this.state.unlimited === true;
  }

  /**
   * Sets the balance as it reads now (later charges are taken from it, refunds given back to it);
   * null makes the account unlimited again, reading `UNLIMITED_BALANCE`.
   */
  setBalance(amount: string | null): void {
    const target = new Big(amount ?? UNLIMITED_BALANCE);
    this.state.baseBalance = new Big(this.state.baseBalance).plus(target.minus(this.exactBalance())).toFixed();
    this.state.unlimited = amount === null;
    this.changed();
  }

  addRefill(orderId: string): Refill {
    const refill = { id: String(this.state.nextRefillId++), orderId, createdAt: this.now() };
    this.state.refills.push(refill);
    this.changed();
    return refill;
  }

  /**
   * A refill and its state on the virtual clock: pending for the first tenth of an order's
   * lifetime, then in progress, completed after one lifetime.
   */
  getRefill(id: string): (Refill & { status: 'Pending' | 'In progress' | 'Completed' }) | undefined {
    const r = this.state.refills.find((x) => x.id === id);
    if (!r) return undefined;
    const f = (this.now() - r.createdAt) / (this.opts.orderSeconds * 1000);
    return { ...r, status: f >= 1 ? 'Completed' : f >= 0.1 ? 'In progress' : 'Pending' };
  }

  /** Forgets every order and refill and restores the starting balance. */
  clear(): void {
    this.state = { ...this.state, orders: [], refills: [], baseBalance: this.opts.balance ?? UNLIMITED_BALANCE, unlimited: this.opts.balance === null };
    this.reindex();
    this.changed();
  }

  get clockOffsetMs(): number {
    return this.state.clockOffsetMs;
  }

  /** Writes the state now (used on close); never fails: a state that cannot be written stays in memory. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.save();
  }

  private changed(): void {
    if (!this.opts.stateFile || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, 200);
    this.saveTimer.unref();
  }

  /**
   * Atomic write (temporary file, then rename) into the state file's folder, created when
   * missing; writes are serialized. A write that fails is told once (not on every change) and
   * the state lives on in memory; the next write tries again.
   */
  private save(): Promise<void> {
    const file = this.opts.stateFile;
    if (!file) return Promise.resolve();
    const text = JSON.stringify(this.state);
    this.saving = this.saving.then(async () => {
      try {
        await mkdir(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, text);
        await rename(tmp, file);
        this.saveFailed = false;
      } catch (e) {
        if (!this.saveFailed) console.error(`sandbox provider: state not saved to ${file}; it is kept in memory`, e);
        this.saveFailed = true;
      }
    });
    return this.saving;
  }
}

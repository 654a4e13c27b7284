/**
 * The sandbox Payriff's memory: orders, their outcomes, notifications and fault settings.
 * Everything that waits (delayed cards, late or retried notifications) hangs off one AbortSignal
 * per generation, so reset() and close() stop it all at once.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBackground, deliver, sendCopies, type DeliveryAttempt } from '../shared/notify';
import { amountNumber, envelope, OK } from './protocol';

export type CallbackMode = 'normal' | 'none' | 'duplicate' | 'tamper-amount' | 'tamper-currency' | 'late';
export type StatusMode = 'normal' | 'timeout' | '5xx' | 'garbage' | 'error-code' | 'tamper-amount' | 'tamper-currency';
export type PaymentStatus = 'CREATED' | 'APPROVED' | 'DECLINED' | 'CANCELED' | 'EXPIRED' | 'REFUNDED' | 'PARTIAL_REFUND';
export type PaymentWay = 'CARD' | 'APPLE_PAY' | 'GOOGLE_PAY';

export interface FaultSettings {
  /** How the next notifications are sent: once, never, N copies at once, tampered, or late. */
  callback: CallbackMode;
  /** Copies sent in `duplicate` mode. */
  duplicates: number;
  /** Wait before a `late` notification. */
  lateMs: number;
  /**
   * How the order status call answers: normally, never, with HTTP 503, with a body that is not
   * JSON, with HTTP 200 and a refusal code, or with the paid amount or currency not the order's.
   */
  statusMode: StatusMode;
  /** Wait before every status answer (a slow gateway). */
  statusDelayMs: number;
  /**
   * How refunds answer: normally, never, refused with HTTP 200 and a refusal code, or
   * `lost-reply`: the refund is made but its answer never comes (the order reads REFUNDED).
   */
  refundMode: 'normal' | 'timeout' | 'error-code' | 'lost-reply';
}

export const DEFAULT_SETTINGS: FaultSettings = {
  callback: 'normal', duplicates: 5, lateMs: 2000, statusMode: 'normal', statusDelayMs: 0, refundMode: 'normal',
};

export type CallbackAttempt = DeliveryAttempt<CallbackMode>;

export interface SandboxTransaction {
  uuid: string;
  createdDate: string;
  status: PaymentStatus;
  paymentWay: PaymentWay;
  pan: string | null;
  responseDescription: string;
}

export interface SandboxOrder {
  orderId: string;
  transactionId: number;
  requestRrn: string | null;
  amountQepik: number;
  currency: string;
  language: 'AZ' | 'EN' | 'RU';
  description: string;
  callbackUrl: string | null;
  redirectUrl: string | null;
  metadata: Record<string, string> | null;
  status: PaymentStatus;
  /** True while a delayed card is being "authorised": the status stays CREATED. */
  processing: boolean;
  refundedQepik: number;
  transactions: SandboxTransaction[];
  createdDate: string;
  callbacks: CallbackAttempt[];
}

export type Outcome = 'success' | 'declined' | 'delayed' | 'cancelled' | 'expired';

export interface StateOptions {
  merchantName: string;
  callbackUrl?: string;
  delayMs: number;
  retryDelaysMs: number[];
}

export function createState(opts: StateOptions) {
  const orders = new Map<string, SandboxOrder>();
  let settings: FaultSettings = { ...DEFAULT_SETTINGS };
  /** Where notifications go instead of each order's own callbackUrl, when set. */
  let callbackUrl = opts.callbackUrl ?? null;
  const background = createBackground('sandbox payriff');
  const track = background.track;

  function newOrderId(): string {
    let id: string;
    do id = `ORD-${randomBytes(10).toString('hex').toUpperCase()}`;
    while (orders.has(id));
    return id;
  }

  const newTransactionId = () => randomInt(1, 2 ** 31);

  /** An order as `GET /api/v3/orders/{orderId}` and the notifications describe it. */
  function orderInfo(o: SandboxOrder) {
    return {
      orderId: o.orderId,
      amount: amountNumber(o.amountQepik),
      currencyType: o.currency,
      merchantName: opts.merchantName,
      operationType: 'PURCHASE',
      paymentStatus: o.status,
      // What went back to the card so far (a PARTIAL_REFUND's part, a REFUNDED order's whole).
      refundedAmount: amountNumber(o.refundedQepik),
      auto: false,
      createdDate: o.createdDate,
      description: o.description,
      metadata: o.metadata ? JSON.stringify(o.metadata) : null,
      transactions: o.transactions.map((t) => ({
        uuid: t.uuid, createdDate: t.createdDate, status: t.status, channel: 'SANDBOX', channelType: 'ECOM',
        requestRrn: o.requestRrn, responseRrn: null, pan: t.pan, paymentWay: t.paymentWay, responseDescription: t.responseDescription,
      })),
    };
  }

  /** Sends the order's notification as `mode` says; resolves when every copy is delivered or given up. */
  async function sendCallback(orderId: string, o: { mode?: CallbackMode; url?: string } = {}): Promise<CallbackAttempt[]> {
    const order = orders.get(orderId);
    if (!order) throw new Error(`unknown order ${orderId}`);
    const mode = o.mode ?? settings.callback;
    const payload = orderInfo(order);
    // Notifications are not signed: a tampered one looks exactly like a true one.
    if (mode === 'tamper-amount') payload.amount = amountNumber(order.amountQepik + 1);
    if (mode === 'tamper-currency') payload.currencyType = 'USD';
    const body = JSON.stringify(envelope(OK, 'Approved', payload));
    const headers = { 'content-type': 'application/json' };
    const signal = background.signal;
    const attempt = (url: string | null): CallbackAttempt => ({ at: new Date().toISOString(), url, mode, httpStatus: null });
    const keep = (record: CallbackAttempt) => void order.callbacks.push(record);
    return sendCopies({
      mode, url: o.url ?? callbackUrl ?? order.callbackUrl, noUrl: 'no callback URL', attempt, keep, settings, signal,
      send: (url) => deliver({ url, body, headers, signal, retryDelaysMs: opts.retryDelaysMs, attempt: () => attempt(url), keep }),
    });
  }

  const DESCRIPTION: Record<Exclude<Outcome, 'delayed'>, [PaymentStatus, string]> = {
    success: ['APPROVED', 'Approved'],
    declined: ['DECLINED', 'Declined by the issuer'],
    cancelled: ['CANCELED', 'Cancelled by the customer'],
    expired: ['EXPIRED', 'The order was not paid in time'],
  };

  function settle(o: SandboxOrder, outcome: Exclude<Outcome, 'delayed'>, way: PaymentWay, card?: string): void {
    const [status, responseDescription] = DESCRIPTION[outcome];
    o.status = status;
    o.processing = false;
    if (outcome !== 'expired') {
      o.transactions.push({
        uuid: randomUUID(), createdDate: new Date().toISOString(), status, paymentWay: way,
        pan: card ? `${card.slice(0, 6)}******${card.slice(-4)}` : null, responseDescription,
      });
    }
    void track(sendCallback(o.orderId));
  }

  /** Finishes an order still CREATED; false when it is already closed or being processed. */
  function finish(orderId: string, outcome: Outcome, way: PaymentWay = 'CARD', card?: string): boolean {
    const o = orders.get(orderId);
    if (!o || o.status !== 'CREATED' || o.processing) return false;
    if (outcome !== 'delayed') {
      settle(o, outcome, way, card);
      return true;
    }
    o.processing = true;
    void track(sleep(opts.delayMs, undefined, { signal: background.signal }).then(() => settle(o, 'success', way, card)));
    return true;
  }

  /**
   * Gives `amountQepik` of an approved order back: REFUNDED once all of it is, PARTIAL_REFUND
   * before. A string is the reason it is refused.
   */
  function refund(orderId: string, amountQepik: number): SandboxOrder | string {
    const o = orders.get(orderId);
    if (!o) return 'Order not found';
    if (o.status !== 'APPROVED' && o.status !== 'PARTIAL_REFUND') return `Order is ${o.status}, not paid`;
    if (amountQepik > o.amountQepik - o.refundedQepik) return 'Refund amount exceeds the paid amount';
    o.refundedQepik += amountQepik;
    o.status = o.refundedQepik === o.amountQepik ? 'REFUNDED' : 'PARTIAL_REFUND';
    o.transactions.push({
      uuid: randomUUID(), createdDate: new Date().toISOString(), status: o.status, paymentWay: o.transactions.at(-1)?.paymentWay ?? 'CARD',
      pan: o.transactions.at(-1)?.pan ?? null, responseDescription: 'Refunded',
    });
    return o;
  }

  return {
    orders,
    orderInfo,
    finish,
    refund,
    sendCallback,
    newOrderId,
    newTransactionId,
    get settings() {
      return settings;
    },
    set(patch: Partial<FaultSettings>): FaultSettings {
      settings = { ...settings, ...patch };
      return settings;
    },
    get signal() {
      return background.signal;
    },
    get callbackUrl() {
      return callbackUrl;
    },
    setCallbackUrl(url: string | null) {
      callbackUrl = url;
    },
    idle: background.idle,
    stop(clear: boolean) {
      background.restart();
      if (clear) {
        orders.clear();
        settings = { ...DEFAULT_SETTINGS };
      }
    },
  };
}

export type SandboxState = ReturnType<typeof createState>;

/**
 * The PayTR sandbox's memory: orders, their outcomes, signed notifications and fault settings.
 * Everything that waits (delayed cards, late or retried notifications) hangs off one AbortSignal
 * per generation, so reset() and close() stop it all at once.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBackground, deliver, sendCopies, type DeliveryAttempt } from '../shared/notify';
import { notificationHashOf, type Keys } from './protocol';

export type NotifyMode = 'normal' | 'none' | 'duplicate' | 'bad-hash' | 'tamper-amount' | 'tamper-currency' | 'late';
export type StatusMode = 'normal' | 'timeout' | '5xx' | 'garbage';
export type OrderStatus = 'waiting' | 'success' | 'failed';
export type PaymentType = 'card' | 'eft';

export interface FaultSettings {
  /** How the next notifications are sent: once, never, N copies at once, wrongly hashed, tampered, or late. */
  notify: NotifyMode;
  /** Copies sent in `duplicate` mode. */
  duplicates: number;
  /** Wait before a `late` notification. */
  lateMs: number;
  /** How durum-sorgu answers: normally, never, with HTTP 503, or with a body that is not JSON. */
  statusMode: StatusMode;
}

export const DEFAULT_SETTINGS: FaultSettings = { notify: 'normal', duplicates: 5, lateMs: 2000, statusMode: 'normal' };

export interface NotificationAttempt extends DeliveryAttempt<NotifyMode> {
  /** The shop's answer as text (PayTR wants exactly "OK"). */
  answer: string | null;
}

export interface SandboxOrder {
  token: string;
  merchantOid: string;
  /** payment_amount as sent: kuruş. */
  amountKurus: number;
  /** PayTR's code as sent ("TL"). */
  currency: string;
  lang: 'tr' | 'en';
  email: string;
  userIp: string;
  /** user_name, user_address and user_phone as sent. */
  userName: string;
  userAddress: string;
  userPhone: string;
  basket: [string, string, number][];
  okUrl: string;
  failUrl: string;
  testMode: boolean;
  status: OrderStatus;
  /** True while a delayed card is being "authorised": the order stays `waiting`. */
  processing: boolean;
  paymentType: PaymentType | null;
  failedReasonCode: string | null;
  failedReasonMsg: string | null;
  maskedPan: string | null;
  paidAt: string | null;
  createdAt: string;
  notifications: NotificationAttempt[];
}

export type Outcome = 'success' | 'declined' | 'delayed' | 'cancelled' | 'eft';

export interface StateOptions {
  keys: Keys;
  callbackUrl?: string;
  delayMs: number;
  /** Waits between deliveries of a notification the shop did not answer with OK. */
  retryDelaysMs: number[];
}

/** failed_reason_code and failed_reason_msg of PayTR's table for the sandbox's failures. */
const FAILURES = {
  declined: { code: '0', msg: { tr: 'Kart limiti / bakiyesi yetersiz', en: 'Insufficient card limit / balance' } },
  cancelled: { code: '6', msg: { tr: 'Müşteri ödeme yapmaktan vazgeçti ve ödeme sayfasından ayrıldı.', en: 'The customer gave up the payment and left the payment page.' } },
} as const;

export function createState(opts: StateOptions) {
  const orders = new Map<string, SandboxOrder>();
  let settings: FaultSettings = { ...DEFAULT_SETTINGS };
  let callbackUrl = opts.callbackUrl ?? null;
  const background = createBackground('sandbox paytr');
  const track = background.track;

  const byOid = (merchantOid: string) => [...orders.values()].find((o) => o.merchantOid === merchantOid);

  /** The fields PayTR posts to the shop's notification URL for an order. */
  function fields(o: SandboxOrder, mode: NotifyMode): Record<string, string> {
    const success = o.status === 'success';
    let amount = o.amountKurus;
    let currency = o.currency;
    // Tampered copies are hashed correctly: only a comparison with the stored payment catches them.
    if (mode === 'tamper-amount') amount += 100;
    if (mode === 'tamper-currency') currency = 'USD';
    const status = success ? 'success' : 'failed';
    const total = success ? String(amount) : '0';
    const key = mode === 'bad-hash' ? { ...opts.keys, merchantKey: `${opts.keys.merchantKey}-wrong` } : opts.keys;
    return {
      merchant_oid: o.merchantOid,
      status,
      total_amount: total,
      hash: notificationHashOf(key, o.merchantOid, status, total),
      ...(success ? {} : { failed_reason_code: o.failedReasonCode ?? '0', failed_reason_msg: o.failedReasonMsg ?? '' }),
      test_mode: o.testMode ? '1' : '0',
      payment_type: o.paymentType ?? 'card',
      currency,
      payment_amount: String(amount),
    };
  }

  /** Sends the order's notification as `mode` says; resolves when every copy is answered OK or given up. */
  async function notify(merchantOid: string, o2: { mode?: NotifyMode; url?: string } = {}): Promise<NotificationAttempt[]> {
    const o = byOid(merchantOid);
    if (!o) throw new Error(`unknown merchant_oid ${merchantOid}`);
    const mode = o2.mode ?? settings.notify;
    const body = new URLSearchParams(fields(o, mode));
    const signal = background.signal;
    const attempt = (url: string | null): NotificationAttempt => ({ at: new Date().toISOString(), url, mode, httpStatus: null, answer: null });
    const keep = (record: NotificationAttempt) => void o.notifications.push(record);
    // The shop must answer exactly OK, whatever the HTTP status; until then the copy is retried.
    const read = async (res: Response, record: NotificationAttempt) => {
      record.answer = (await res.text().catch(() => '')).slice(0, 200);
    };
    const accepted = (record: NotificationAttempt) => record.answer?.trim() === 'OK';
    return sendCopies({
      mode, url: o2.url ?? callbackUrl, noUrl: 'no notification URL set', attempt, keep, settings, signal,
      send: (url) => deliver({ url, body, signal, retryDelaysMs: opts.retryDelaysMs, attempt: () => attempt(url), read, accepted, keep }),
    });
  }

  function close(o: SandboxOrder, outcome: Exclude<Outcome, 'delayed'>, card?: string): void {
    const paid = outcome === 'success' || outcome === 'eft';
    const failure = outcome === 'declined' || outcome === 'cancelled' ? FAILURES[outcome] : null;
    Object.assign(o, {
      status: paid ? 'success' : 'failed',
      processing: false,
      paymentType: outcome === 'eft' ? 'eft' : 'card',
      failedReasonCode: failure?.code ?? null,
      failedReasonMsg: failure?.msg[o.lang] ?? null,
      maskedPan: card ? `${card.slice(0, 6)}******${card.slice(-4)}` : null,
      paidAt: paid ? new Date().toISOString() : null,
    });
    void track(notify(o.merchantOid));
  }

  /** Finishes an order still waiting; false when it is already closed or being processed. */
  function finish(merchantOid: string, outcome: Outcome, card?: string): boolean {
    const o = byOid(merchantOid);
    if (!o || o.status !== 'waiting' || o.processing) return false;
    if (outcome !== 'delayed') {
      close(o, outcome, card);
      return true;
    }
    o.processing = true;
    void track(sleep(opts.delayMs, undefined, { signal: background.signal }).then(() => close(o, 'success', card)));
    return true;
  }

  return {
    orders,
    byOid,
    fields,
    finish,
    notify,
    newToken: () => randomBytes(24).toString('hex'),
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
    /** Waits until no delayed card, late or retried notification is still running. */
    idle: background.idle,
    /** Stops all waiting work; with `clear`, forgets orders and restores default settings. */
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

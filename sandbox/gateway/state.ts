/**
 * The sandbox gateway's memory: payments, their outcomes, signed callbacks and fault settings.
 * Everything that waits (delayed cards, late or retried callbacks) hangs off one AbortSignal per
 * generation, so reset() and close() stop it all at once.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBackground, deliver, sendCopies, type DeliveryAttempt } from '../shared/notify';
import { amountNumber, encode, sign } from './protocol';

export type CallbackMode = 'normal' | 'none' | 'duplicate' | 'bad-signature' | 'tamper-amount' | 'tamper-currency' | 'late';
export type StatusMode = 'normal' | 'timeout' | '5xx' | 'garbage';
export type SandboxStatus = 'new' | 'success' | 'error' | 'returned';

export interface FaultSettings {
  /** How the next callbacks are sent: once, never, N copies at once, wrongly signed, tampered, or late. */
  callback: CallbackMode;
  /** Copies sent in `duplicate` mode. */
  duplicates: number;
  /** Wait before a `late` callback. */
  lateMs: number;
  /** How /get-status answers: normally, never, with HTTP 503, or with a body that is not JSON. */
  statusMode: StatusMode;
  /** Wait before every /get-status answer (a slow gateway). */
  statusDelayMs: number;
}

export const DEFAULT_SETTINGS: FaultSettings = { callback: 'normal', duplicates: 5, lateMs: 2000, statusMode: 'normal', statusDelayMs: 0 };

export type CallbackAttempt = DeliveryAttempt<CallbackMode>;

export interface SandboxPayment {
  transaction: string;
  orderId: string;
  amountQepik: number;
  currency: string;
  language: 'az' | 'en' | 'ru';
  description: string;
  successUrl: string;
  errorUrl: string;
  otherAttr: unknown;
  status: SandboxStatus;
  /** True while a delayed card is being "authorised": status stays `new`. */
  processing: boolean;
  code: string | null;
  message: string | null;
  bankTransaction: string | null;
  bankResponse: string | null;
  rrn: string | null;
  cardMask: string | null;
  createdAt: string;
  callbacks: CallbackAttempt[];
}

export type Outcome = 'success' | 'declined' | 'delayed' | 'cancelled';

export interface StateOptions {
  privateKey: string;
  callbackUrl?: string;
  delayMs: number;
  retryDelaysMs: number[];
}

export function createState(opts: StateOptions) {
  const payments = new Map<string, SandboxPayment>();
  let settings: FaultSettings = { ...DEFAULT_SETTINGS };
  let callbackUrl = opts.callbackUrl ?? null;
  const background = createBackground('sandbox gateway');
  const track = background.track;

  function newTransactionId(): string {
    let id: string;
    do id = `te${String(randomInt(0, 1e9)).padStart(9, '0')}`;
    while (payments.has(id));
    return id;
  }

  /** The decoded fields of Epoint's callback and status reply for a payment. */
  function fields(p: SandboxPayment) {
    return {
      status: p.status, message: p.message, code: p.code, transaction: p.transaction,
      bank_transaction: p.bankTransaction, bank_response: p.bankResponse, rrn: p.rrn, card_mask: p.cardMask,
      amount: amountNumber(p.amountQepik), currency: p.currency, order_id: p.orderId, other_attr: p.otherAttr,
    };
  }

  /** Sends the payment's callback as `mode` says; resolves when every copy is delivered or given up. */
  async function sendCallback(transaction: string, o: { mode?: CallbackMode; url?: string } = {}): Promise<CallbackAttempt[]> {
    const p = payments.get(transaction);
    if (!p) throw new Error(`unknown transaction ${transaction}`);
    const mode = o.mode ?? settings.callback;
    const payload = fields(p);
    // Tampered copies are signed correctly: only a comparison with the stored payment catches them.
    if (mode === 'tamper-amount') payload.amount = amountNumber(p.amountQepik + 1);
    if (mode === 'tamper-currency') payload.currency = 'USD';
    const data = encode(payload);
    const key = mode === 'bad-signature' ? `${opts.privateKey}-wrong` : opts.privateKey;
    const body = new URLSearchParams({ data, signature: sign(key, data) });
    const signal = background.signal;
    const attempt = (url: string | null): CallbackAttempt => ({ at: new Date().toISOString(), url, mode, httpStatus: null });
    const keep = (record: CallbackAttempt) => void p.callbacks.push(record);
    return sendCopies({
      mode, url: o.url ?? callbackUrl, noUrl: 'no callback URL set', attempt, keep, settings, signal,
      send: (url) => deliver({ url, body, signal, retryDelaysMs: opts.retryDelaysMs, attempt: () => attempt(url), keep }),
    });
  }

  function settle(p: SandboxPayment, outcome: Exclude<Outcome, 'delayed'>, card?: string): void {
    const approved = outcome === 'success';
    Object.assign(p, {
      status: approved ? 'success' : 'error',
      processing: false,
      code: approved ? '000' : outcome === 'declined' ? '005' : '100',
      message: approved ? 'Approved' : outcome === 'declined' ? 'Declined by the issuer' : 'Cancelled by the customer',
      bankResponse: approved ? 'APPROVED' : outcome === 'declined' ? 'DECLINED' : 'CANCELLED',
      bankTransaction: card ? randomBytes(8).toString('hex').toUpperCase() : null,
      rrn: card ? String(randomInt(1e11, 1e12)) : null,
      cardMask: card ? `${card.slice(0, 6)}******${card.slice(-4)}` : null,
    });
    void track(sendCallback(p.transaction));
  }

  /** Finishes a payment still `new`; false when it is already closed or being processed. */
  function finish(transaction: string, outcome: Outcome, card?: string): boolean {
    const p = payments.get(transaction);
    if (!p || p.status !== 'new' || p.processing) return false;
    if (outcome !== 'delayed') {
      settle(p, outcome, card);
      return true;
    }
    p.processing = true;
    void track(sleep(opts.delayMs, undefined, { signal: background.signal }).then(() => settle(p, 'success', card)));
    return true;
  }

  return {
    payments,
    fields,
    finish,
    sendCallback,
    newTransactionId,
    get settings() {
      return settings;
    },
    set(patch: Partial<FaultSettings>): FaultSettings {
      settings = { ...settings, ...patch };
      return settings;
    },
    /** Aborted by stop(): anything waiting on it gives up. */
    get signal() {
      return background.signal;
    },
    get callbackUrl() {
      return callbackUrl;
    },
    setCallbackUrl(url: string | null) {
      callbackUrl = url;
    },
    /** Waits until no delayed card, late or retried callback is still running. */
    idle: background.idle,
    /** Stops all waiting work; with `clear`, forgets payments and restores default settings. */
    stop(clear: boolean) {
      background.restart();
      if (clear) {
        payments.clear();
        settings = { ...DEFAULT_SETTINGS };
      }
    },
  };
}

export type SandboxState = ReturnType<typeof createState>;

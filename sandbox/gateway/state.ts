/**
 * The sandbox gateway's memory: payments, their outcomes, signed callbacks and fault settings.
 * Everything that waits (delayed cards, late or retried callbacks) hangs off one AbortSignal per
 * generation, so reset() and close() stop it all at once.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
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

export interface CallbackAttempt {
  at: string;
  url: string | null;
  mode: CallbackMode;
  /** HTTP status of the merchant's answer; null when it did not answer or no URL was set. */
  httpStatus: number | null;
  error?: string;
}

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
  const inflight = new Set<Promise<unknown>>();
  let settings: FaultSettings = { ...DEFAULT_SETTINGS };
  let callbackUrl = opts.callbackUrl ?? null;
  // Every delayed answer, card and callback listens on the generation's signal: no listener cap.
  const newGeneration = () => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    return controller;
  };
  let generation = newGeneration();

  /** Runs `work` in the background, tracked so idle() can wait for it; aborts end it quietly. */
  function track(work: Promise<unknown>): Promise<unknown> {
    const p = work.catch((err: unknown) => {
      if (!(err instanceof Error && err.name === 'AbortError')) console.error('[sandbox gateway]', err);
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    return p;
  }

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

  async function post(p: SandboxPayment, mode: CallbackMode, url: string, body: URLSearchParams): Promise<CallbackAttempt> {
    const signal = generation.signal;
    for (let attempt = 0; ; attempt++) {
      const record: CallbackAttempt = { at: new Date().toISOString(), url, mode, httpStatus: null };
      try {
        const res = await fetch(url, { method: 'POST', body, signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]) });
        await res.arrayBuffer().catch(() => undefined);
        record.httpStatus = res.status;
      } catch (err) {
        if (signal.aborted) throw err;
        record.error = err instanceof Error ? err.message : String(err);
      }
      p.callbacks.push(record);
      const ok = record.httpStatus !== null && record.httpStatus >= 200 && record.httpStatus < 300;
      if (ok || attempt >= opts.retryDelaysMs.length) return record;
      await sleep(opts.retryDelaysMs[attempt], undefined, { signal });
    }
  }

  /** Sends the payment's callback as `mode` says; resolves when every copy is delivered or given up. */
  async function sendCallback(transaction: string, o: { mode?: CallbackMode; url?: string } = {}): Promise<CallbackAttempt[]> {
    const p = payments.get(transaction);
    if (!p) throw new Error(`unknown transaction ${transaction}`);
    const mode = o.mode ?? settings.callback;
    const url = o.url ?? callbackUrl;
    if (mode === 'none') return [];
    if (!url) {
      const record: CallbackAttempt = { at: new Date().toISOString(), url: null, mode, httpStatus: null, error: 'no callback URL set' };
      p.callbacks.push(record);
      return [record];
    }
    const payload = fields(p);
    // Tampered copies are signed correctly: only a comparison with the stored payment catches them.
    if (mode === 'tamper-amount') payload.amount = amountNumber(p.amountQepik + 1);
    if (mode === 'tamper-currency') payload.currency = 'USD';
    const data = encode(payload);
    const key = mode === 'bad-signature' ? `${opts.privateKey}-wrong` : opts.privateKey;
    const body = new URLSearchParams({ data, signature: sign(key, data) });
    if (mode === 'late') await sleep(settings.lateMs, undefined, { signal: generation.signal });
    const copies = mode === 'duplicate' ? settings.duplicates : 1;
    return Promise.all(Array.from({ length: copies }, () => post(p, mode, url, body)));
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
    void track(sleep(opts.delayMs, undefined, { signal: generation.signal }).then(() => settle(p, 'success', card)));
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
      return generation.signal;
    },
    get callbackUrl() {
      return callbackUrl;
    },
    setCallbackUrl(url: string | null) {
      callbackUrl = url;
    },
    /** Waits until no delayed card, late or retried callback is still running. */
    async idle(): Promise<void> {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    /** Stops all waiting work; with `clear`, forgets payments and restores default settings. */
    stop(clear: boolean) {
      generation.abort();
      generation = newGeneration();
      if (clear) {
        payments.clear();
        settings = { ...DEFAULT_SETTINGS };
      }
    },
  };
}

export type SandboxState = ReturnType<typeof createState>;

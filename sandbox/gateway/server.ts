/**
 * A local card gateway that speaks Epoint's protocol (reference/payments.md): `/api/1/request`
 * and `/api/1/get-status` with signed form bodies, a hosted card page at `/pay/:transaction`,
 * signed callbacks to the merchant's result URL, and fault controls under `/__control`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { addControlRoutes, COMMON_FAULTS, listen } from '../shared/control';
import { messagePage, payPage, TEST_CARDS, type FieldError } from './page';
import { decode, formatAmount, parseAmount, signatureMatches } from './protocol';
import { createState, type CallbackAttempt, type CallbackMode, type FaultSettings, type SandboxPayment } from './state';

export type { CallbackAttempt, CallbackMode, FaultSettings, SandboxPayment, StatusMode } from './state';
export { TEST_CARDS } from './page';

export interface SandboxGatewayOptions {
  port?: number;
  host?: string;
  publicKey?: string;
  privateKey?: string;
  /** The merchant's result URL, where signed callbacks are POSTed. */
  callbackUrl?: string;
  /** How long the delayed test card keeps the payment `new`. Default 3000. */
  delayMs?: number;
  /** Waits between callback retries after a non-2xx answer. Default [250, 1000, 3000]. */
  retryDelaysMs?: number[];
  /** Shown on the card page. */
  merchantName?: string;
}

export interface SandboxControl {
  set(patch: Partial<FaultSettings>): FaultSettings;
  settings(): FaultSettings;
  /** Default settings, no payments, nothing pending. */
  reset(): void;
  payments(): SandboxPayment[];
  payment(transaction: string): SandboxPayment | undefined;
  /** Pays (or declines) without the browser, as if the card form had been submitted. */
  complete(transaction: string, outcome: 'success' | 'declined'): SandboxPayment;
  /** Marks a successful payment as returned (refunded by the gateway). */
  refund(transaction: string): SandboxPayment;
  /** (Re)sends the payment's callback now; resolves with the delivery attempts. */
  sendCallback(transaction: string, opts?: { mode?: CallbackMode; url?: string }): Promise<CallbackAttempt[]>;
  /** Resolves once no delayed card or callback is still in flight. */
  idle(): Promise<void>;
}

export interface SandboxGateway {
  /** Base URL for the Epoint adapter, e.g. http://127.0.0.1:1234/api/1 */
  url: string;
  /** Server origin, e.g. http://127.0.0.1:1234 */
  origin: string;
  publicKey: string;
  privateKey: string;
  control: SandboxControl;
  setCallbackUrl(url: string | null): void;
  close(): Promise<void>;
}

export const SANDBOX_PUBLIC_KEY = 'i000000001';
export const SANDBOX_PRIVATE_KEY = 'sandbox-private-key';

const controlBody = z.strictObject({
  callback: z.enum(['normal', 'none', 'duplicate', 'bad-signature', 'tamper-amount', 'tamper-currency', 'late']).optional(),
  statusMode: z.enum(['normal', 'timeout', '5xx', 'garbage']).optional(),
  statusDelayMs: z.int().min(0).max(600_000).optional(),
  ...COMMON_FAULTS,
});
const transactionBody = z.object({ transaction: z.string(), outcome: z.enum(['success', 'declined']).optional() });

const httpUrl = z.url({ protocol: /^https?$/ });
const requestPayload = z.object({
  public_key: z.string(),
  amount: z.union([z.string(), z.number()]),
  currency: z.literal('AZN', { error: 'currency must be AZN' }),
  language: z.enum(['az', 'en', 'ru']).default('az'),
  order_id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(255)),
  description: z.string().max(1000).default(''),
  success_redirect_url: httpUrl,
  error_redirect_url: httpUrl,
  other_attr: z.unknown().optional(),
});

const CARD_OUTCOME = {
  [TEST_CARDS.success]: 'success',
  [TEST_CARDS.declined]: 'declined',
  [TEST_CARDS.delayed]: 'delayed',
} as const;

function cardErrors(form: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  if (!/^\d{16}$/.test(form.number)) errors.push('badNumber');
  const exp = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry);
  const now = new Date();
  const month = exp ? Number(exp[1]) : 0;
  const year = exp ? 2000 + Number(exp[2]) : 0;
  if (month < 1 || month > 12 || year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) errors.push('badExpiry');
  if (!/^\d{3,4}$/.test(form.cvc)) errors.push('badCvc');
  if (!form.name) errors.push('badName');
  return errors;
}

export async function startSandboxGateway(opts: SandboxGatewayOptions = {}): Promise<SandboxGateway> {
  const publicKey = opts.publicKey ?? SANDBOX_PUBLIC_KEY;
  const privateKey = opts.privateKey ?? SANDBOX_PRIVATE_KEY;
  const merchant = opts.merchantName ?? 'Artım';
  const state = createState({
    privateKey,
    callbackUrl: opts.callbackUrl,
    delayMs: opts.delayMs ?? 3000,
    retryDelaysMs: opts.retryDelaysMs ?? [250, 1000, 3000],
  });
  let origin = '';
  const app = new Hono();
  const epointError = (c: Context, message: string) => c.json({ status: 'error', message });

  /** Reads and checks a signed Epoint form body; a string is the error message to answer with. */
  async function signedPayload(c: Context): Promise<Record<string, unknown> | string> {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const { data, signature } = form;
    if (typeof data !== 'string' || typeof signature !== 'string' || !data || !signature) return 'data and signature are required';
    if (!signatureMatches(privateKey, data, signature)) return 'Invalid signature';
    const payload = decode(data);
    if (!payload) return 'data is not base64-encoded JSON';
    if (payload.public_key !== publicKey) return 'Invalid public_key';
    return payload;
  }

  app.post('/api/1/request', async (c) => {
    const payload = await signedPayload(c);
    if (typeof payload === 'string') return epointError(c, payload);
    const parsed = requestPayload.safeParse(payload);
    if (!parsed.success) return epointError(c, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const p = parsed.data;
    const amountQepik = parseAmount(p.amount);
    if (amountQepik === null) return epointError(c, 'amount must be a positive decimal with at most 2 places');
    if ([...state.payments.values()].some((x) => x.orderId === p.order_id)) return epointError(c, 'order_id is already used');
    const transaction = state.newTransactionId();
    state.payments.set(transaction, {
      transaction, orderId: p.order_id, amountQepik, currency: p.currency, language: p.language,
      description: p.description, successUrl: p.success_redirect_url, errorUrl: p.error_redirect_url,
      otherAttr: p.other_attr ?? null, status: 'new', processing: false, code: null, message: null,
      bankTransaction: null, bankResponse: null, rrn: null, cardMask: null, createdAt: new Date().toISOString(), callbacks: [],
    });
    return c.json({ status: 'success', transaction, redirect_url: `${origin}/pay/${transaction}`, message: 'Payment created' });
  });

  app.post('/api/1/get-status', async (c) => {
    const { statusMode: mode, statusDelayMs } = state.settings;
    if (statusDelayMs > 0) await sleep(statusDelayMs, undefined, { signal: state.signal }).catch(() => undefined);
    if (mode === 'timeout') {
      // Never answers while the mode lasts; reset() or close() releases the request.
      await sleep(600_000, undefined, { signal: state.signal }).catch(() => undefined);
      return c.text('Gateway Timeout', 504);
    }
    if (mode === '5xx') return c.text('Service Unavailable', 503);
    if (mode === 'garbage') return c.html('<html><body>{"status": "succ');
    const payload = await signedPayload(c);
    if (typeof payload === 'string') return epointError(c, payload);
    const p = typeof payload.transaction === 'string' ? state.payments.get(payload.transaction) : undefined;
    if (!p) return epointError(c, 'Transaction not found');
    return c.json(state.fields(p));
  });

  app.get('/pay/:transaction', (c) => {
    const p = state.payments.get(c.req.param('transaction'));
    if (!p) return c.html(messagePage('en', 'notFound'), 404);
    if (p.status !== 'new' || p.processing) return c.html(messagePage(p.language, 'closed', p.status === 'success' || p.processing ? p.successUrl : p.errorUrl), 409);
    return c.html(payPage({ lang: p.language, transaction: p.transaction, merchant, description: p.description, amount: formatAmount(p.amountQepik) }));
  });

  app.post('/pay/:transaction', async (c) => {
    const p = state.payments.get(c.req.param('transaction'));
    if (!p) return c.html(messagePage('en', 'notFound'), 404);
    if (p.status !== 'new' || p.processing) return c.html(messagePage(p.language, 'closed'), 409);
    const body = await c.req.parseBody();
    const form = Object.fromEntries(['number', 'expiry', 'cvc', 'name', 'action'].map((k) => [k, String(body[k] ?? '').trim()]));
    form.number = form.number.replace(/[\s-]/g, '');
    if (form.action === 'cancel') {
      state.finish(p.transaction, 'cancelled');
      return c.redirect(p.errorUrl, 303);
    }
    const errors = cardErrors(form);
    if (errors.length) {
      const page = payPage({ lang: p.language, transaction: p.transaction, merchant, description: p.description, amount: formatAmount(p.amountQepik), errors, values: { expiry: form.expiry, name: form.name } });
      return c.html(page, 422);
    }
    // Any well-formed card that is not a test card is declined, like an unknown card at a bank.
    const outcome = CARD_OUTCOME[form.number as keyof typeof CARD_OUTCOME] ?? 'declined';
    state.finish(p.transaction, outcome, form.number);
    return c.redirect(outcome === 'declined' ? p.errorUrl : p.successUrl, 303);
  });

  const control: SandboxControl = {
    set: (patch) => state.set(patch),
    settings: () => ({ ...state.settings }),
    reset: () => state.stop(true),
    payments: () => [...state.payments.values()].map((p) => structuredClone(p)),
    payment: (t) => {
      const p = state.payments.get(t);
      return p && structuredClone(p);
    },
    complete(transaction, outcome) {
      const p = state.payments.get(transaction);
      if (!p) throw new Error(`unknown transaction ${transaction}`);
      const card = outcome === 'success' ? TEST_CARDS.success : TEST_CARDS.declined;
      if (!state.finish(transaction, outcome, card)) throw new Error(`payment ${transaction} is already ${p.status}`);
      return structuredClone(p);
    },
    refund(transaction) {
      const p = state.payments.get(transaction);
      if (!p || p.status !== 'success') throw new Error(`payment ${transaction} is not a successful payment`);
      Object.assign(p, { status: 'returned', message: 'Returned', bankResponse: 'RETURNED' });
      return structuredClone(p);
    },
    sendCallback: (transaction, o) => state.sendCallback(transaction, o),
    idle: () => state.idle(),
  };

  addControlRoutes(app, {
    settingsBody: controlBody,
    settings: () => control.settings(),
    set: (patch) => control.set(patch),
    reset: () => control.reset(),
    callbackUrl: () => state.callbackUrl,
    setCallbackUrl: (url) => state.setCallbackUrl(url),
    listing: () => ({ payments: control.payments() }),
    actions: 'complete|refund|callback',
    actionBody: transactionBody,
    async act(action, { transaction, outcome }) {
      if (action === 'callback') return { attempts: await control.sendCallback(transaction) };
      if (action === 'refund') return { payment: control.refund(transaction) };
      return { payment: control.complete(transaction, outcome ?? 'success') };
    },
  });

  const served = await listen(app, opts);
  origin = served.origin;

  return {
    url: `${origin}/api/1`,
    origin,
    publicKey,
    privateKey,
    control,
    setCallbackUrl: (url) => state.setCallbackUrl(url),
    async close() {
      state.stop(false);
      await served.close();
    },
  };
}

/**
 * A local gateway that speaks Payriff's order API v3 (reference/payments.md): `POST /api/v3/orders`,
 * `GET /api/v3/orders/{orderId}` and `POST /api/v3/refund` with the secret key as `Authorization`,
 * JSON envelopes whose `code` decides (refusals come with HTTP 200), a hosted payment page at
 * `/pay/:orderId` (test cards, Apple Pay, Google Pay), unsigned JSON notifications to the order's
 * callbackUrl, and fault controls under `/__control`.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { addControlRoutes, COMMON_FAULTS, listen } from '../shared/control';
import { messagePage, payPage, TEST_CARDS, type FieldError, type PageLanguage } from './page';
import { CODES, envelope, formatAmount, keyMatches, parseAmount } from './protocol';
import { createState, type CallbackAttempt, type CallbackMode, type FaultSettings, type SandboxOrder } from './state';

export type { CallbackAttempt, CallbackMode, FaultSettings, PaymentStatus, SandboxOrder, StatusMode } from './state';
export { TEST_CARDS } from './page';

export interface SandboxPayriffOptions {
  port?: number;
  host?: string;
  /** The merchant's secret key; generated at start when not given. */
  secretKey?: string;
  /** Where notifications go instead of each order's own callbackUrl. */
  callbackUrl?: string;
  /** How long the delayed test card keeps the order CREATED. Default 3000. */
  delayMs?: number;
  /** Waits between notification retries after a non-2xx answer. Default [250, 1000, 3000]. */
  retryDelaysMs?: number[];
  /** Shown on the payment page. */
  merchantName?: string;
}

export interface SandboxPayriffControl {
  set(patch: Partial<FaultSettings>): FaultSettings;
  settings(): FaultSettings;
  /** Default settings, no orders, nothing pending. */
  reset(): void;
  orders(): SandboxOrder[];
  order(orderId: string): SandboxOrder | undefined;
  /** Pays, declines or lets the order expire without the browser, as if the page had been used. */
  complete(orderId: string, outcome: 'success' | 'declined' | 'expired'): SandboxOrder;
  /**
   * Gives `amountQepik` of an approved order back as the merchant's dashboard would, outside the
   * API (a partial refund leaves it PARTIAL_REFUND). Throws when the order cannot be refunded so.
   */
  refund(orderId: string, amountQepik: number): SandboxOrder;
  /** (Re)sends the order's notification now; resolves with the delivery attempts. */
  sendCallback(orderId: string, opts?: { mode?: CallbackMode; url?: string }): Promise<CallbackAttempt[]>;
  /** Resolves once no delayed card or notification is still in flight. */
  idle(): Promise<void>;
}

export interface SandboxPayriff {
  /** Base URL for the Payriff adapter (the API's origin), e.g. http://127.0.0.1:1234 */
  url: string;
  origin: string;
  secretKey: string;
  control: SandboxPayriffControl;
  setCallbackUrl(url: string | null): void;
  close(): Promise<void>;
}

const controlBody = z.strictObject({
  callback: z.enum(['normal', 'none', 'duplicate', 'tamper-amount', 'tamper-currency', 'late']).optional(),
  statusMode: z.enum(['normal', 'timeout', '5xx', 'garbage', 'error-code', 'tamper-amount', 'tamper-currency']).optional(),
  statusDelayMs: z.int().min(0).max(600_000).optional(),
  refundMode: z.enum(['normal', 'timeout', 'error-code', 'lost-reply']).optional(),
  ...COMMON_FAULTS,
});
const orderBody = z.strictObject({
  orderId: z.string(),
  outcome: z.enum(['success', 'declined', 'expired']).optional(),
  /** For `refund`: qəpik to give back (default: all that is left). */
  amountQepik: z.int().min(1).optional(),
});

const httpUrl = z.url({ protocol: /^https?$/ });
const createBody = z.strictObject({
  amount: z.union([z.number(), z.string()]),
  currency: z.enum(['AZN', 'USD', 'EUR']).default('AZN'),
  language: z.enum(['AZ', 'EN', 'RU']).default('AZ'),
  operation: z.literal('PURCHASE', { error: 'operation must be PURCHASE' }),
  description: z.string().max(500).default(''),
  callbackUrl: httpUrl.optional(),
  redirectUrl: httpUrl.optional(),
  cardSave: z.boolean().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
const refundBody = z.strictObject({ orderId: z.string(), amount: z.union([z.number(), z.string()]).optional() });

const CARD_OUTCOME = {
  [TEST_CARDS.success]: 'success',
  [TEST_CARDS.declined]: 'declined',
  [TEST_CARDS.delayed]: 'delayed',
} as const;

const PAGE_LANGUAGE: Record<SandboxOrder['language'], PageLanguage> = { AZ: 'az', EN: 'en', RU: 'ru' };

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

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

export async function startSandboxPayriff(opts: SandboxPayriffOptions = {}): Promise<SandboxPayriff> {
  const secretKey = opts.secretKey ?? `sandbox-payriff-${randomBytes(12).toString('hex')}`;
  const merchant = opts.merchantName ?? 'Artım';
  const state = createState({
    merchantName: merchant,
    callbackUrl: opts.callbackUrl,
    delayMs: opts.delayMs ?? 3000,
    retryDelaysMs: opts.retryDelaysMs ?? [250, 1000, 3000],
  });
  let origin = '';
  const app = new Hono();
  const refuse = (c: Context, code: string, message: string) => c.json(envelope(code, message));

  // Every API call carries the secret key; a wrong one is answered 401 with Payriff's code.
  app.use('/api/*', async (c, next) => {
    if (!keyMatches(secretKey, c.req.header('authorization'))) return c.json(envelope(CODES.unauthorized, 'Unauthorized'), 401);
    await next();
  });

  app.post('/api/v3/orders', async (c) => {
    const parsed = createBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return refuse(c, CODES.invalid, issues(parsed.error));
    const p = parsed.data;
    const amountQepik = parseAmount(p.amount);
    if (amountQepik === null) return refuse(c, CODES.invalid, 'amount: a positive amount with at most 2 decimals');
    if (p.currency !== 'AZN') return refuse(c, CODES.refused, `currency ${p.currency} is not enabled for this application`);
    const requestRrn = c.req.header('x-request-rrn') ?? null;
    if (requestRrn !== null && (requestRrn.length > 100 || [...state.orders.values()].some((o) => o.requestRrn === requestRrn))) {
      return refuse(c, CODES.invalid, 'X-REQUEST-RRN is already used');
    }
    const order: SandboxOrder = {
      orderId: state.newOrderId(), transactionId: state.newTransactionId(), requestRrn, amountQepik, currency: p.currency,
      language: p.language, description: p.description, callbackUrl: p.callbackUrl ?? null, redirectUrl: p.redirectUrl ?? null,
      metadata: p.metadata ?? null, status: 'CREATED', processing: false, refundedQepik: 0, transactions: [],
      createdDate: new Date().toISOString(), callbacks: [],
    };
    state.orders.set(order.orderId, order);
    return c.json(envelope(CODES.ok, 'Approved', {
      orderId: order.orderId, paymentUrl: `${origin}/pay/${order.orderId}`, transactionId: order.transactionId,
    }));
  });

  app.get('/api/v3/orders/:orderId', async (c) => {
    const { statusMode: mode, statusDelayMs } = state.settings;
    if (statusDelayMs > 0) await sleep(statusDelayMs, undefined, { signal: state.signal }).catch(() => undefined);
    if (mode === 'timeout') {
      // Never answers while the mode lasts; reset() or close() releases the request.
      await sleep(600_000, undefined, { signal: state.signal }).catch(() => undefined);
      return c.text('Gateway Timeout', 504);
    }
    if (mode === '5xx') return c.text('Service Unavailable', 503);
    if (mode === 'garbage') return c.html('<html><body>{"code": "000');
    if (mode === 'error-code') return refuse(c, CODES.refused, 'Request rejected');
    const order = state.orders.get(c.req.param('orderId'));
    if (!order) return refuse(c, CODES.invalid, 'Order not found');
    const info = state.orderInfo(order);
    if (mode === 'tamper-amount') info.amount = Number(formatAmount(order.amountQepik + 1));
    if (mode === 'tamper-currency') info.currencyType = 'USD';
    return c.json(envelope(CODES.ok, 'Approved', info));
  });

  app.post('/api/v3/refund', async (c) => {
    const mode = state.settings.refundMode;
    if (mode === 'timeout') {
      await sleep(600_000, undefined, { signal: state.signal }).catch(() => undefined);
      return c.text('Gateway Timeout', 504);
    }
    if (mode === 'error-code') return refuse(c, CODES.refused, 'Refund rejected');
    const parsed = refundBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return refuse(c, CODES.invalid, issues(parsed.error));
    const order = state.orders.get(parsed.data.orderId);
    // Without an amount, what is left of the order is refunded.
    const amountQepik = parsed.data.amount === undefined ? (order ? order.amountQepik - order.refundedQepik : 0) : parseAmount(parsed.data.amount);
    if (amountQepik === null || amountQepik <= 0) return refuse(c, CODES.invalid, 'amount: a positive amount with at most 2 decimals');
    const result = state.refund(parsed.data.orderId, amountQepik);
    if (typeof result === 'string') return refuse(c, CODES.refused, result);
    if (mode === 'lost-reply') {
      // Refunded, but the answer is lost on the way: the shop only learns it from the order's status.
      await sleep(600_000, undefined, { signal: state.signal }).catch(() => undefined);
      return c.text('Gateway Timeout', 504);
    }
    return c.json(envelope(CODES.ok, 'Approved', null));
  });

  /** Where the customer goes once the page is done with the order: the shop's redirectUrl, else a message here. */
  const leave = (c: Context, o: SandboxOrder) =>
    o.redirectUrl ? c.redirect(o.redirectUrl, 303) : c.html(messagePage(PAGE_LANGUAGE[o.language], 'closed'));

  const pageOf = (o: SandboxOrder, extra: Partial<Parameters<typeof payPage>[0]> = {}) =>
    payPage({
      lang: PAGE_LANGUAGE[o.language], orderId: o.orderId, merchant, description: o.description,
      amount: formatAmount(o.amountQepik), currency: o.currency, ...extra,
    });

  app.get('/pay/:orderId', (c) => {
    const o = state.orders.get(c.req.param('orderId'));
    if (!o) return c.html(messagePage('en', 'notFound'), 404);
    if (o.status !== 'CREATED' || o.processing) return c.html(messagePage(PAGE_LANGUAGE[o.language], 'closed', o.redirectUrl), 409);
    return c.html(pageOf(o));
  });

  app.post('/pay/:orderId', async (c) => {
    const o = state.orders.get(c.req.param('orderId'));
    if (!o) return c.html(messagePage('en', 'notFound'), 404);
    if (o.status !== 'CREATED' || o.processing) return c.html(messagePage(PAGE_LANGUAGE[o.language], 'closed', o.redirectUrl), 409);
    const body = await c.req.parseBody();
    const form = Object.fromEntries(['number', 'expiry', 'cvc', 'name', 'action'].map((k) => [k, String(body[k] ?? '').trim()]));
    form.number = form.number.replace(/[\s-]/g, '');
    if (form.action === 'cancel') {
      state.finish(o.orderId, 'cancelled');
      return leave(c, o);
    }
    // A wallet behaves like a card that is approved.
    if (form.action === 'apple-pay' || form.action === 'google-pay') {
      state.finish(o.orderId, 'success', form.action === 'apple-pay' ? 'APPLE_PAY' : 'GOOGLE_PAY');
      return leave(c, o);
    }
    const errors = cardErrors(form);
    if (errors.length) return c.html(pageOf(o, { errors, values: { expiry: form.expiry, name: form.name } }), 422);
    // Any well-formed card that is not a test card is declined, like an unknown card at a bank.
    const outcome = CARD_OUTCOME[form.number as keyof typeof CARD_OUTCOME] ?? 'declined';
    state.finish(o.orderId, outcome, 'CARD', form.number);
    return leave(c, o);
  });

  const control: SandboxPayriffControl = {
    set: (patch) => state.set(patch),
    settings: () => ({ ...state.settings }),
    reset: () => state.stop(true),
    orders: () => [...state.orders.values()].map((o) => structuredClone(o)),
    order: (id) => {
      const o = state.orders.get(id);
      return o && structuredClone(o);
    },
    complete(orderId, outcome) {
      const o = state.orders.get(orderId);
      if (!o) throw new Error(`unknown order ${orderId}`);
      const card = outcome === 'success' ? TEST_CARDS.success : outcome === 'declined' ? TEST_CARDS.declined : undefined;
      if (!state.finish(orderId, outcome, 'CARD', card)) throw new Error(`order ${orderId} is already ${o.status}`);
      return structuredClone(o);
    },
    refund(orderId, amountQepik) {
      const result = state.refund(orderId, amountQepik);
      if (typeof result === 'string') throw new Error(`order ${orderId}: ${result}`);
      return structuredClone(result);
    },
    sendCallback: (orderId, o) => state.sendCallback(orderId, o),
    idle: () => state.idle(),
  };

  addControlRoutes(app, {
    settingsBody: controlBody,
    settings: () => control.settings(),
    set: (patch) => control.set(patch),
    reset: () => control.reset(),
    callbackUrl: () => state.callbackUrl,
    setCallbackUrl: (url) => state.setCallbackUrl(url),
    listing: () => ({ orders: control.orders() }),
    actions: 'complete|callback|refund',
    actionBody: orderBody,
    async act(action, { orderId, outcome, amountQepik }) {
      if (action === 'callback') return { attempts: await control.sendCallback(orderId) };
      if (action === 'refund') {
        const o = state.orders.get(orderId);
        return { order: control.refund(orderId, amountQepik ?? (o ? o.amountQepik - o.refundedQepik : 1)) };
      }
      return { order: control.complete(orderId, outcome ?? 'success') };
    },
  });

  const served = await listen(app, opts);
  origin = served.origin;

  return {
    url: origin,
    origin,
    secretKey,
    control,
    setCallbackUrl: (url) => state.setCallbackUrl(url),
    async close() {
      state.stop(false);
      await served.close();
    },
  };
}

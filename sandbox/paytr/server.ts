/**
 * A local gateway that speaks PayTR's iFrame API (dev.paytr.com): `POST /odeme/api/get-token`
 * and `POST /odeme/durum-sorgu` with HMAC-signed forms, the hosted page at
 * `/odeme/guvenli/:token` (card or EFT / Havale, in Turkish or English by `lang`), hashed
 * notifications to the shop's notification URL (retried until the shop answers `OK`, as PayTR
 * does), and fault controls under `/__control`.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { addControlRoutes, COMMON_FAULTS, listen } from '../shared/control';
import { messagePage, payPage, TEST_CARDS, type FieldError } from './page';
import { decodeBasket, liraComma, liraFor, sameHash, statusTokenOf, tokenOf, type Keys } from './protocol';
import { createState, type FaultSettings, type NotificationAttempt, type NotifyMode, type SandboxOrder } from './state';

export type { FaultSettings, NotificationAttempt, NotifyMode, SandboxOrder, StatusMode } from './state';
export { TEST_CARDS } from './page';

export interface SandboxPaytrOptions {
  port?: number;
  host?: string;
  /** The merchant's keys; generated at start when not given. */
  merchantId?: string;
  merchantKey?: string;
  merchantSalt?: string;
  /** The shop's notification URL (PayTR's merchant panel setting). */
  callbackUrl?: string;
  /** How long the delayed test card keeps the order waiting. Default 3000. */
  delayMs?: number;
  /** Waits between deliveries of a notification not answered `OK`. Default [250, 1000, 3000, 10000]. */
  retryDelaysMs?: number[];
  /** Shown on the payment page. */
  merchantName?: string;
}

export interface SandboxPaytrControl {
  set(patch: Partial<FaultSettings>): FaultSettings;
  settings(): FaultSettings;
  /** Default settings, no orders, nothing pending. */
  reset(): void;
  orders(): SandboxOrder[];
  order(merchantOid: string): SandboxOrder | undefined;
  /** Pays (card or EFT) or declines without the browser, as if the page had been used. */
  complete(merchantOid: string, outcome: 'success' | 'declined' | 'eft'): SandboxOrder;
  /** (Re)sends the order's notification now; resolves with the delivery attempts. */
  notify(merchantOid: string, opts?: { mode?: NotifyMode; url?: string }): Promise<NotificationAttempt[]>;
  /** Resolves once no delayed card or notification is still in flight. */
  idle(): Promise<void>;
}

export interface SandboxPaytr {
  /** The origin the PayTR adapter is pointed at instead of https://www.paytr.com. */
  origin: string;
  merchantId: string;
  merchantKey: string;
  merchantSalt: string;
  control: SandboxPaytrControl;
  setCallbackUrl(url: string | null): void;
  close(): Promise<void>;
}

const controlBody = z.strictObject({
  notify: z.enum(['normal', 'none', 'duplicate', 'bad-hash', 'tamper-amount', 'tamper-currency', 'late']).optional(),
  statusMode: z.enum(['normal', 'timeout', '5xx', 'garbage']).optional(),
  ...COMMON_FAULTS,
});
const orderBody = z.strictObject({ merchant_oid: z.string(), outcome: z.enum(['success', 'declined', 'eft']).optional() });

const httpUrl = z.url({ protocol: /^https?$/ });
const flag = z.enum(['0', '1']);
const tokenRequest = z.object({
  merchant_id: z.string().min(1),
  user_ip: z.string().min(1).max(39),
  merchant_oid: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'merchant_oid must be letters and digits, at most 64'),
  email: z.email().max(100),
  payment_amount: z.string().regex(/^[1-9]\d{0,11}$/, 'payment_amount must be the amount × 100 as a whole number'),
  paytr_token: z.string().min(1),
  user_basket: z.string().min(1),
  debug_on: flag.default('0'),
  no_installment: flag,
  max_installment: z.string().regex(/^(0|[2-9]|1[0-2])$/),
  user_name: z.string().min(1).max(60),
  user_address: z.string().min(1).max(400),
  user_phone: z.string().min(1).max(20),
  merchant_ok_url: httpUrl,
  merchant_fail_url: httpUrl,
  timeout_limit: z.string().regex(/^\d{1,4}$/).default('30'),
  currency: z.enum(['TL', 'TRY'], { error: 'currency must be TL' }),
  test_mode: flag,
  lang: z.enum(['tr', 'en']).default('tr'),
});
const statusRequest = z.object({ merchant_id: z.string(), merchant_oid: z.string(), paytr_token: z.string() });

const CARD_OUTCOME = {
  [TEST_CARDS.success]: 'success',
  [TEST_CARDS.declined]: 'declined',
  [TEST_CARDS.delayed]: 'delayed',
} as const;

function cardErrors(form: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  if (!/^\d{16}$/.test(form.cc_number)) errors.push('badNumber');
  const exp = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry);
  const now = new Date();
  const month = exp ? Number(exp[1]) : 0;
  const year = exp ? 2000 + Number(exp[2]) : 0;
  if (month < 1 || month > 12 || year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) errors.push('badExpiry');
  if (!/^\d{3,4}$/.test(form.cvv)) errors.push('badCvc');
  if (!form.cc_owner) errors.push('badName');
  return errors;
}

export async function startSandboxPaytr(opts: SandboxPaytrOptions = {}): Promise<SandboxPaytr> {
  const keys: Keys = {
    merchantId: opts.merchantId ?? String(100_000 + (randomBytes(3).readUIntBE(0, 3) % 900_000)),
    merchantKey: opts.merchantKey ?? randomBytes(12).toString('base64url'),
    merchantSalt: opts.merchantSalt ?? randomBytes(12).toString('base64url'),
  };
  const merchant = opts.merchantName ?? 'Artım';
  const state = createState({ keys, callbackUrl: opts.callbackUrl, delayMs: opts.delayMs ?? 3000, retryDelaysMs: opts.retryDelaysMs ?? [250, 1000, 3000, 10_000] });
  let origin = '';
  const app = new Hono();

  const form = async (c: Context): Promise<Record<string, string>> => {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
  };
  const refused = (c: Context, reason: string) => c.json({ status: 'failed', reason });

  app.post('/odeme/api/get-token', async (c) => {
    const f = await form(c);
    const parsed = tokenRequest.safeParse(f);
    if (!parsed.success) return refused(c, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const p = parsed.data;
    if (p.merchant_id !== keys.merchantId) return refused(c, 'merchant_id gecersiz');
    if (!sameHash(tokenOf(keys, f), p.paytr_token)) return refused(c, 'paytr_token gecersiz');
    const basket = decodeBasket(p.user_basket);
    if (!basket) return refused(c, 'user_basket gecersiz');
    if (state.byOid(p.merchant_oid)) return refused(c, 'merchant_oid daha once kullanilmis');
    const token = state.newToken();
    state.orders.set(token, {
      token, merchantOid: p.merchant_oid, amountKurus: Number(p.payment_amount), currency: p.currency, lang: p.lang,
      email: p.email, userIp: p.user_ip, userName: p.user_name, userAddress: p.user_address, userPhone: p.user_phone, basket, okUrl: p.merchant_ok_url, failUrl: p.merchant_fail_url, testMode: p.test_mode === '1',
      status: 'waiting', processing: false, paymentType: null, failedReasonCode: null, failedReasonMsg: null, maskedPan: null,
      paidAt: null, createdAt: new Date().toISOString(), notifications: [],
    });
    return c.json({ status: 'success', token });
  });

  app.post('/odeme/durum-sorgu', async (c) => {
    const mode = state.settings.statusMode;
    if (mode === 'timeout') {
      // Never answers while the mode lasts; reset() or close() releases the request.
      await sleep(600_000, undefined, { signal: state.signal }).catch(() => undefined);
      return c.text('Gateway Timeout', 504);
    }
    if (mode === '5xx') return c.text('Service Unavailable', 503);
    if (mode === 'garbage') return c.html('<html><body>{"status": "succ');
    const parsed = statusRequest.safeParse(await form(c));
    // The sandbox's own error numbers; the words follow PayTR's.
    if (!parsed.success || parsed.data.merchant_id !== keys.merchantId) return c.json({ status: 'error', err_no: '001', err_msg: 'Gecersiz istek veya magaza aktif degil' });
    const { merchant_oid: oid, paytr_token: token } = parsed.data;
    if (!sameHash(statusTokenOf(keys, oid), token)) return c.json({ status: 'error', err_no: '003', err_msg: 'paytr_token gecersiz' });
    const o = state.byOid(oid);
    if (!o || o.status !== 'success') return c.json({ status: 'error', err_no: '004', err_msg: `${oid} ile ilgili başarılı ödeme bulunamadı` });
    // A commission of 2.49 % shown as PayTR shows it; the order's amount and what was paid are equal without instalments.
    const cut = Math.round((o.amountKurus * 249) / 10_000);
    return c.json({
      status: 'success',
      payment_amount: liraComma(o.amountKurus),
      payment_total: liraComma(o.amountKurus),
      payment_date: o.paidAt!.slice(0, 19).replace('T', ' '),
      currency: o.currency,
      taksit: '0',
      kart_marka: o.paymentType === 'card' ? 'WORLD' : '',
      masked_pan: o.maskedPan ?? '',
      odeme_tipi: o.paymentType === 'eft' ? 'EFT' : 'KART',
      test_mode: o.testMode ? '1' : '0',
      net_tutar: liraComma(o.amountKurus - cut),
      kesinti_tutari: liraComma(cut),
      returns: [],
    });
  });

  const pageModel = (o: SandboxOrder) => ({ lang: o.lang, token: o.token, merchant, basket: o.basket.map((l) => l[0]).join(', '), amount: liraFor(o.amountKurus, o.lang) });

  app.get('/odeme/guvenli/:token', (c) => {
    const o = state.orders.get(c.req.param('token'));
    if (!o) return c.html(messagePage('tr', 'notFound'), 404);
    if (o.status !== 'waiting' || o.processing) return c.html(messagePage(o.lang, 'closed', o.status === 'failed' ? o.failUrl : o.okUrl), 409);
    return c.html(payPage(pageModel(o)));
  });

  app.post('/odeme/guvenli/:token', async (c) => {
    const o = state.orders.get(c.req.param('token'));
    if (!o) return c.html(messagePage('tr', 'notFound'), 404);
    if (o.status !== 'waiting' || o.processing) return c.html(messagePage(o.lang, 'closed'), 409);
    const body = await form(c);
    const f = Object.fromEntries(['cc_owner', 'cc_number', 'expiry', 'cvv', 'action'].map((k) => [k, (body[k] ?? '').trim()]));
    f.cc_number = f.cc_number.replace(/[\s-]/g, '');
    if (f.action === 'cancel') {
      state.finish(o.merchantOid, 'cancelled');
      return c.redirect(o.failUrl, 303);
    }
    if (f.action === 'eft') {
      state.finish(o.merchantOid, 'eft');
      return c.redirect(o.okUrl, 303);
    }
    const errors = cardErrors(f);
    if (errors.length) return c.html(payPage({ ...pageModel(o), errors, values: { expiry: f.expiry, name: f.cc_owner } }), 422);
    // Any well-formed card that is not a test card is declined, like an unknown card at a bank.
    const outcome = CARD_OUTCOME[f.cc_number as keyof typeof CARD_OUTCOME] ?? 'declined';
    state.finish(o.merchantOid, outcome, f.cc_number);
    return c.redirect(outcome === 'declined' ? o.failUrl : o.okUrl, 303);
  });

  const control: SandboxPaytrControl = {
    set: (patch) => state.set(patch),
    settings: () => ({ ...state.settings }),
    reset: () => state.stop(true),
    orders: () => [...state.orders.values()].map((o) => structuredClone(o)),
    order: (oid) => {
      const o = state.byOid(oid);
      return o && structuredClone(o);
    },
    complete(oid, outcome) {
      const o = state.byOid(oid);
      if (!o) throw new Error(`unknown merchant_oid ${oid}`);
      const card = outcome === 'success' ? TEST_CARDS.success : outcome === 'declined' ? TEST_CARDS.declined : undefined;
      if (!state.finish(oid, outcome, card)) throw new Error(`order ${oid} is already ${o.status}`);
      return structuredClone(o);
    },
    notify: (oid, o) => state.notify(oid, o),
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
    actions: 'complete|notify',
    actionBody: orderBody,
    async act(action, { merchant_oid: oid, outcome }) {
      if (action === 'notify') return { attempts: await control.notify(oid) };
      return { order: control.complete(oid, outcome ?? 'success') };
    },
  });

  const served = await listen(app, opts);
  origin = served.origin;

  return {
    origin,
    ...keys,
    control,
    setCallbackUrl: (url) => state.setCallbackUrl(url),
    async close() {
      state.stop(false);
      await served.close();
    },
  };
}

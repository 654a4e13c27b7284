/**
 * PayTR adapter (iFrame API, dev.paytr.com). Every call is a form POST signed with
 * paytr_token = base64(HMAC-SHA256(fields in a fixed order + merchant_salt, key = merchant_key));
 * notifications carry hash = base64(HMAC-SHA256(merchant_oid + merchant_salt + status +
 * total_amount, merchant_key)). PayTR answers refusals with HTTP 200 and a `status` of its own,
 * so the body decides, never the HTTP status alone.
 *
 * PayTR's order id (`merchant_oid`) must be letters and digits only: our reference without its
 * hyphens is sent, and it is the payment's `transactionId` (what the status inquiry and the
 * notification name). PayTR spells the lira "TL"; the storefront's currency is TRY.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError, type ErrorCode } from '../../core/errors';
import { postFormForJson } from './http';
import type { CallbackBody, CreatePaymentInput, GatewayName, GatewayStatus, PaymentGateway } from './types';

export const PAYTR_BASE_URL = 'https://www.paytr.com';

export interface PaytrOptions {
  /** PayTR's origin; defaults to https://www.paytr.com. */
  baseUrl?: string;
  merchantId: string;
  merchantKey: string;
  merchantSalt: string;
  /** PayTR's test mode for the merchant's test keys (`test_mode=1`): no card is charged. */
  testMode?: boolean;
  /** Per-call limit; a call without an answer in time counts as no answer. Default 15 s. */
  timeoutMs?: number;
  name?: GatewayName;
}

/** base64(HMAC-SHA256(text, key)): every PayTR token and hash. */
export function paytrHmac(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('base64');
}

/** The fields of a token request that its paytr_token signs, in PayTR's order. */
export interface PaytrTokenFields {
  merchant_id: string;
  user_ip: string;
  merchant_oid: string;
  email: string;
  payment_amount: string;
  user_basket: string;
  no_installment: string;
  max_installment: string;
  currency: string;
  test_mode: string;
}

/** paytr_token of get-token: merchant_id + user_ip + merchant_oid + email + payment_amount + user_basket + no_installment + max_installment + currency + test_mode + salt. */
export function paytrCreateToken(f: PaytrTokenFields, merchantKey: string, merchantSalt: string): string {
  const text = f.merchant_id + f.user_ip + f.merchant_oid + f.email + f.payment_amount + f.user_basket + f.no_installment + f.max_installment + f.currency + f.test_mode;
  return paytrHmac(merchantKey, text + merchantSalt);
}

/** paytr_token of the status inquiry: merchant_id + merchant_oid + salt. */
export function paytrStatusToken(merchantId: string, merchantOid: string, merchantKey: string, merchantSalt: string): string {
  return paytrHmac(merchantKey, merchantId + merchantOid + merchantSalt);
}

/** hash of a notification: merchant_oid + salt + status + total_amount. */
export function paytrNotificationHash(f: { merchant_oid: string; status: string; total_amount: string }, merchantKey: string, merchantSalt: string): string {
  return paytrHmac(merchantKey, f.merchant_oid + merchantSalt + f.status + f.total_amount);
}

/** Constant-time comparison of two hashes as text. */
export function paytrHashMatches(expected: string, given: string): boolean {
  // Hashing both sides first gives equal lengths, so the comparison leaks neither content nor length.
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** Our reference as PayTR's merchant_oid: letters and digits only ("balance-m3x-ab12" → "balancem3xab12"). */
export const paytrMerchantOid = (reference: string): string => reference.replace(/[^A-Za-z0-9]/g, '');

/** PayTR's currency code → ours: "TL" is the lira (TRY); others pass as they are, for the comparison to catch. */
export const currencyFromPaytr = (code: string): string => (code.toUpperCase() === 'TL' ? 'TRY' : code.toUpperCase());

/** Kuruş written as PayTR's get-token and notifications do: the amount × 100 as a whole number ("1080"). */
const KURUS = /^\d{1,15}$/;
function kurusOf(value: string | null): number | null {
  if (value === null || !KURUS.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Lira written as the status inquiry does: a decimal with a comma or a dot and at most two
 * places ("10,8", "99,90", "10.80", "10") → kuruş; null for anything else.
 */
export function liraToKurus(value: string | null): number | null {
  const m = value === null ? null : /^(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** "17.17" written from kuruş, for the basket's price. */
const kurusToLira = (kurus: number): string => `${Math.trunc(kurus / 100)}.${String(kurus % 100).padStart(2, '0')}`;

// Replies and notifications are read leniently: unknown fields pass, numbers may arrive as numbers.
const text = z.union([z.string(), z.number()]).transform(String);
const optionalText = text.nullish().transform((v) => v ?? null);

const tokenReply = z.looseObject({ status: z.string(), token: optionalText, reason: optionalText });

const statusReply = z.looseObject({
  status: z.string(),
  payment_amount: optionalText,
  payment_total: optionalText,
  currency: optionalText,
  err_no: optionalText,
  err_msg: optionalText,
});

const notification = z.looseObject({
  merchant_oid: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
  status: z.enum(['success', 'failed']),
  total_amount: z.string().regex(KURUS),
  hash: z.string().min(1),
  payment_amount: optionalText,
  currency: optionalText,
  failed_reason_code: optionalText,
  failed_reason_msg: optionalText,
  payment_type: optionalText,
  test_mode: optionalText,
});

/**
 * What stands for a customer's postal address and phone in PayTR's token request, which requires
 * both (non-empty): the shop's customer profile holds neither, so nothing true can be sent.
 */
export const PAYTR_NO_CONTACT = '-';

/** PayTR's `user_name`: the profile's name (at most 60 characters), or the e-mail when it has none. */
export const paytrUserName = (customer: { email: string; name?: string }) => customer.name?.trim().slice(0, 60) || customer.email;

/**
 * The status inquiry answers `error` both for an order without a successful payment (not paid
 * yet, declined, unknown) and for a refused call (wrong token, merchant or request). Its words
 * tell them apart: only "no (successful) payment found" means the payment is still open. PayTR's
 * documentation of the inquiry names no field or code for this — only `err_msg` ("check err_msg
 * for the error's detail") — so the words are what there is to read.
 */
const NOT_PAID = /bulunamad|not found|failed to find|no successful/i;

export function createPaytrGateway(options: PaytrOptions): PaymentGateway {
  const { merchantId, merchantKey, merchantSalt, testMode = false, timeoutMs = 15_000, name = 'paytr' } = options;
  const baseUrl = (options.baseUrl ?? PAYTR_BASE_URL).replace(/\/+$/, '');

  /** POSTs a form and returns the parsed JSON body; throws `failure` on no usable answer. */
  function call(path: string, fields: Record<string, string>, failure: ErrorCode): Promise<unknown> {
    return postFormForJson({ gateway: name, baseUrl, path, failure, timeoutMs }, new URLSearchParams(fields));
  }

  return {
    name,

    // `p.callbackUrl` is not sent: PayTR posts to the notification URL set in its merchant panel.
    async create(p: CreatePaymentInput) {
      if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor <= 0) throw new RangeError('amountMinor must be a positive integer');
      if (p.currency !== 'TRY') throw new RangeError('PayTR charges this shop in TRY only');
      if (!p.customer) throw new RangeError('PayTR must be told the customer’s e-mail and address');
      const merchantOid = paytrMerchantOid(p.reference);
      if (!merchantOid || merchantOid.length > 64) throw new RangeError('reference must give 1-64 letters and digits');
      const signed: PaytrTokenFields = {
        merchant_id: merchantId,
        user_ip: p.customer.ip,
        merchant_oid: merchantOid,
        email: p.customer.email,
        payment_amount: String(p.amountMinor),
        // One line: the top-up, at its price in lira, once.
        user_basket: Buffer.from(JSON.stringify([[p.description.slice(0, 200), kurusToLira(p.amountMinor), 1]]), 'utf8').toString('base64'),
        // A balance top-up is paid at once: no instalments.
        no_installment: '1',
        max_installment: '0',
        currency: 'TL',
        test_mode: testMode ? '1' : '0',
      };
      const json = await call('/odeme/api/get-token', {
        ...signed,
        paytr_token: paytrCreateToken(signed, merchantKey, merchantSalt),
        debug_on: '0',
        // PayTR's page speaks Turkish and English: an Azerbaijani customer reads it in Turkish.
        lang: p.language === 'en' || p.language === 'ru' ? 'en' : 'tr',
        // The name on the customer's profile (else the e-mail); no postal address or phone is kept.
        user_name: paytrUserName(p.customer),
        user_address: PAYTR_NO_CONTACT,
        user_phone: PAYTR_NO_CONTACT,
        merchant_ok_url: p.successUrl,
        merchant_fail_url: p.errorUrl,
        timeout_limit: '30',
      }, 'PAYMENT_NOT_CREATED');
      const reply = tokenReply.safeParse(json);
      if (!reply.success) throw new AppError('PAYMENT_NOT_CREATED', `${name} get-token: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      const { status, token, reason } = reply.data;
      if (status !== 'success' || !token || !/^[A-Za-z0-9_-]+$/.test(token)) {
        throw new AppError('PAYMENT_NOT_CREATED', `${name} refused the payment: ${reason ?? status}`, { gateway: name, reason: 'refused', gatewayMessage: reason });
      }
      return { paymentUrl: `${baseUrl}/odeme/guvenli/${token}`, transactionId: merchantOid };
    },

    async status(transactionId: string): Promise<GatewayStatus> {
      const json = await call('/odeme/durum-sorgu', {
        merchant_id: merchantId,
        merchant_oid: transactionId,
        paytr_token: paytrStatusToken(merchantId, transactionId, merchantKey, merchantSalt),
      }, 'PAYMENT_STATUS_UNKNOWN');
      const reply = statusReply.safeParse(json);
      if (!reply.success || (reply.data.status !== 'success' && reply.data.status !== 'error')) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} durum-sorgu: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      }
      const r = reply.data;
      if (r.status === 'error') {
        if (!NOT_PAID.test(r.err_msg ?? '')) {
          throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} durum-sorgu refused: ${r.err_no ?? ''} ${r.err_msg ?? 'error'}`.trim(), {
            gateway: name, reason: 'refused', gatewayMessage: r.err_msg,
          });
        }
        // No successful payment (yet): PayTR's inquiry does not tell a declined order from an open one.
        return { state: 'pending', transactionId, reference: null, amountMinor: null, currency: null, code: r.err_no, message: r.err_msg, raw: json };
      }
      return {
        state: 'success',
        transactionId,
        reference: null,
        // The order's amount, not `payment_total`: what the customer paid may include instalment interest.
        amountMinor: liraToKurus(r.payment_amount),
        currency: r.currency === null ? null : currencyFromPaytr(r.currency),
        code: null,
        message: null,
        raw: json,
      };
    },

    parseCallback(body: CallbackBody): GatewayStatus {
      const f = notification.safeParse(body);
      if (!f.success || !paytrHashMatches(paytrNotificationHash(f.data, merchantKey, merchantSalt), f.data.hash)) {
        throw new AppError('SIGNATURE_INVALID', `${name} notification: missing or wrong hash`);
      }
      const n = f.data;
      const success = n.status === 'success';
      return {
        state: success ? 'success' : 'failed',
        transactionId: n.merchant_oid,
        reference: null,
        // `total_amount` is what the customer paid, interest of instalments included; the order's
        // own amount is `payment_amount` (not covered by the hash: the status inquiry confirms it).
        amountMinor: success ? kurusOf(n.payment_amount) : null,
        currency: n.currency === null ? null : currencyFromPaytr(n.currency),
        code: n.failed_reason_code,
        message: n.failed_reason_msg,
        raw: { ...n, hash: undefined },
      };
    },
  };
}

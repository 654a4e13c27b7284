/**
 * Epoint adapter (reference/payments.md). Every call is a form POST of `data` (base64 JSON) and
 * `signature` = base64(sha1(private_key + data + private_key)). Epoint answers refusals with
 * HTTP 200 and `status: "error"`, so the body decides, never the HTTP status alone.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError, type ErrorCode } from '../../core/errors';
import { decimalToQepik, qepikToDecimal } from './amount';
import { postFormForJson } from './http';
import type { CallbackBody, CreatePaymentInput, GatewayName, GatewayStatus, PaymentGateway } from './types';

export const EPOINT_BASE_URL = 'https://epoint.az/api/1';

export interface EpointOptions {
  baseUrl?: string;
  publicKey: string;
  privateKey: string;
  /** Per-call limit; a call without an answer in time counts as no answer. Default 15 s. */
  timeoutMs?: number;
  name?: GatewayName;
}

/** base64 of the JSON text of `payload`: Epoint's `data` field. */
export function epointEncode(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}

/** base64(sha1_raw(privateKey + data + privateKey)): Epoint's `signature` field. Not an HMAC. */
export function epointSign(privateKey: string, data: string): string {
  return createHash('sha1').update(privateKey + data + privateKey, 'utf8').digest('base64');
}

/** Constant-time check of `signature` against the one `privateKey` gives for the raw `data`. */
export function epointVerify(privateKey: string, data: string, signature: string): boolean {
  // Hashing both sides first gives equal lengths, so the comparison leaks neither content nor length.
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(epointSign(privateKey, data)), digest(signature));
}

// Replies are read leniently: unknown fields pass, ids and codes may arrive as numbers.
const text = z.union([z.string(), z.number()]).transform(String);
const optionalText = text.nullish().transform((v) => v ?? null);

const createReply = z.looseObject({
  status: z.string(),
  transaction: optionalText,
  redirect_url: optionalText,
  message: optionalText,
});

const paymentReply = z.looseObject({
  status: z.string(),
  message: optionalText,
  code: optionalText,
  transaction: optionalText,
  order_id: optionalText,
  amount: z.union([z.string(), z.number()]).nullish(),
  currency: optionalText,
});
type PaymentReply = z.infer<typeof paymentReply>;

const STATES: Record<string, GatewayStatus['state']> = {
  success: 'success',
  new: 'pending',
  returned: 'returned',
  error: 'failed',
  server_error: 'failed',
};

function toStatus(reply: PaymentReply, state: GatewayStatus['state'], raw: unknown): GatewayStatus {
  return {
    state,
    transactionId: reply.transaction,
    reference: reply.order_id,
    amountMinor: reply.amount == null ? null : decimalToQepik(reply.amount),
    currency: reply.currency,
    code: reply.code,
    message: reply.message,
    raw,
  };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes Epoint's `data` field; null when it is not base64 of a JSON value. */
export function epointDecode(data: string): unknown {
  if (!BASE64.test(data)) return null;
  try {
    return JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

export function createEpointGateway(options: EpointOptions): PaymentGateway {
  const { publicKey, privateKey, timeoutMs = 15_000, name = 'epoint' } = options;
  const baseUrl = (options.baseUrl ?? EPOINT_BASE_URL).replace(/\/+$/, '');

  /** POSTs a signed payload and returns the parsed JSON body; throws `failure` on no usable answer. */
  async function call(path: string, payload: Record<string, unknown>, failure: ErrorCode): Promise<unknown> {
    const data = epointEncode(payload);
    const body = new URLSearchParams({ data, signature: epointSign(privateKey, data) });
    return postFormForJson({ gateway: name, baseUrl, path, failure, timeoutMs }, body);
  }

  return {
    name,

    async create(p: CreatePaymentInput) {
      if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor <= 0) throw new RangeError('amountMinor must be a positive integer');
      if (p.currency !== 'AZN') throw new RangeError('Epoint charges in AZN only');
      if (!p.reference || p.reference.length > 255) throw new RangeError('reference must be 1-255 characters');
      const json = await call('/request', {
        public_key: publicKey,
        amount: qepikToDecimal(p.amountMinor),
        currency: p.currency,
        // Epoint's page speaks az, en and ru: a Turkish customer reads it in English.
        language: p.language === 'tr' ? 'en' : p.language,
        order_id: p.reference,
        description: p.description.slice(0, 1000),
        success_redirect_url: p.successUrl,
        error_redirect_url: p.errorUrl,
      }, 'PAYMENT_NOT_CREATED');
      const reply = createReply.safeParse(json);
      if (!reply.success) {
        throw new AppError('PAYMENT_NOT_CREATED', `${name} /request: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      }
      const { status, transaction, redirect_url, message } = reply.data;
      if (status !== 'success' || !transaction || !redirect_url) {
        throw new AppError('PAYMENT_NOT_CREATED', `${name} refused the payment: ${message ?? status}`, {
          gateway: name, reason: 'refused', gatewayMessage: message,
        });
      }
      return { paymentUrl: redirect_url, transactionId: transaction };
    },

    async status(transactionId: string) {
      const json = await call('/get-status', { public_key: publicKey, transaction: transactionId }, 'PAYMENT_STATUS_UNKNOWN');
      const reply = paymentReply.safeParse(json);
      const state = reply.success ? STATES[reply.data.status.toLowerCase()] : undefined;
      if (!reply.success || !state) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} /get-status: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      }
      // An error that names no transaction is a refused call (bad key, unknown id), not a failed payment.
      if ((state === 'failed' && !reply.data.transaction) || (reply.data.transaction && reply.data.transaction !== transactionId)) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} /get-status refused: ${reply.data.message ?? 'error'}`, {
          gateway: name, reason: 'refused', gatewayMessage: reply.data.message,
        });
      }
      return toStatus(reply.data, state, json);
    },

    parseCallback(body: CallbackBody) {
      const data = typeof body.data === 'string' ? body.data : undefined;
      const signature = typeof body.signature === 'string' ? body.signature : undefined;
      if (!data || !signature || !epointVerify(privateKey, data, signature)) {
        throw new AppError('SIGNATURE_INVALID', `${name} callback: missing or wrong signature`);
      }
      const json = epointDecode(data);
      const reply = paymentReply.safeParse(json);
      if (!reply.success) throw new AppError('SIGNATURE_INVALID', `${name} callback: undecodable data`);
      // A signed callback with a state this adapter does not know is treated as unfinished.
      return toStatus(reply.data, STATES[reply.data.status.toLowerCase()] ?? 'pending', json);
    },
  };
}

/**
 * Payriff adapter, order API v3 (reference/payments.md). JSON over HTTPS with the secret key as
 * the `Authorization` header (no scheme). Every reply is an envelope `{ code, message, payload }`
 * and only `code === "00000"` is a success: refusals come with HTTP 200 too, so the body decides.
 * Payriff's notifications are not signed: a callback only names an order, and settlement asks
 * `GET /api/v3/orders/{orderId}` before anything moves.
 */
import { z } from 'zod';
import { AppError, type ErrorCode } from '../../core/errors';
import { decimalToQepik, qepikToDecimal } from './amount';
import { badReply, fetchText, httpError } from './http';
import type { CallbackBody, CreatePaymentInput, GatewayLanguage, GatewayStatus, PaymentGateway } from './types';

export const PAYRIFF_BASE_URL = 'https://api.payriff.com';

/** The one result code that means the call did what it was asked. */
export const PAYRIFF_SUCCESS = '00000';

export interface PayriffOptions {
  baseUrl?: string;
  secretKey: string;
  /** Per-call limit; a call without an answer in time counts as no answer. Default 15 s. */
  timeoutMs?: number;
}

/** Payriff's page speaks AZ, EN and RU: a Turkish customer reads it in English. */
export const payriffLanguage = (language: GatewayLanguage): 'AZ' | 'EN' | 'RU' =>
  language === 'az' ? 'AZ' : language === 'ru' ? 'RU' : 'EN';

/** What an order's `paymentStatus` means here; a status not listed is no usable answer. */
export const PAYRIFF_STATES: Record<string, GatewayStatus['state']> = {
  CREATED: 'pending',
  PENDING: 'pending',
  IN_REVIEW: 'pending',
  APPROVED: 'success',
  DECLINED: 'failed',
  CANCELED: 'failed',
  EXPIRED: 'failed',
  REFUNDED: 'returned',
  REVERSE: 'returned',
  // Part of the charge given back (a refund of less than the whole, by the API or the merchant's dashboard).
  PARTIAL_REFUND: 'partly_returned',
};

// Replies are read leniently: unknown fields pass, ids and codes may arrive as numbers.
const text = z.union([z.string(), z.number()]).transform(String);
const optionalText = text.nullish().transform((v) => v ?? null);

const envelope = z.looseObject({
  code: text,
  message: optionalText,
  responseId: optionalText,
  payload: z.unknown().optional(),
});

const createdPayload = z.looseObject({
  orderId: text.pipe(z.string().min(1)),
  paymentUrl: z.url({ protocol: /^https?$/ }),
});

const orderPayload = z.looseObject({
  orderId: text,
  amount: z.union([z.string(), z.number()]).nullish(),
  currencyType: optionalText,
  paymentStatus: z.string(),
  /**
   * What was given back to the card so far, in manat, as the sandbox reports it. The reference
   * (reference/payments.md) names PARTIAL_REFUND nowhere and no field for the amount: when the
   * field is missing or unreadable, the amount is unknown (null), never guessed.
   */
  refundedAmount: z.unknown().optional(),
  metadata: z.unknown().optional(),
  transactions: z
    .array(z.looseObject({ status: optionalText, responseDescription: optionalText }))
    .nullish(),
});
type OrderPayload = z.infer<typeof orderPayload>;

/** An order id as Payriff writes them: letters, digits, dashes and underscores, nothing a path could hide in. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * A notification: `{ …, payload: { orderId, … } }`. Only the order id is read; everything else in
 * it is unsigned and ignored.
 */
const callbackSchema = z.looseObject({ payload: z.looseObject({ orderId: z.string().regex(ORDER_ID) }) });

/** Our reference, from the order's metadata (an object, or the JSON text Payriff returns it as). */
function referenceOf(metadata: unknown): string | null {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const reference = value && typeof value === 'object' ? (value as Record<string, unknown>).reference : undefined;
  return typeof reference === 'string' ? reference : null;
}

function toStatus(order: OrderPayload, state: GatewayStatus['state'], raw: unknown): GatewayStatus {
  const last = order.transactions?.at(-1);
  const refundedMinor = state === 'returned' || state === 'partly_returned' ? decimalToQepik(order.refundedAmount) : null;
  return {
    state,
    transactionId: order.orderId,
    reference: referenceOf(order.metadata),
    amountMinor: order.amount == null ? null : decimalToQepik(order.amount),
    currency: order.currencyType,
    code: order.paymentStatus,
    message: last?.responseDescription ?? null,
    refundedMinor,
    raw,
  };
}

export function createPayriffGateway(options: PayriffOptions): PaymentGateway {
  const { secretKey, timeoutMs = 15_000 } = options;
  const baseUrl = (options.baseUrl ?? PAYRIFF_BASE_URL).replace(/\/+$/, '');
  const name = 'payriff';

  /** Calls Payriff and returns the envelope's payload; throws `failure` on no answer or any code but 00000. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    failure: ErrorCode,
    body?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    const request = { gateway: name, baseUrl, path, failure, timeoutMs };
    const { response, text: textBody } = await fetchText(request, {
      method,
      headers: { Accept: 'application/json', Authorization: secretKey, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'manual',
    });
    let json: unknown;
    try {
      json = JSON.parse(textBody);
    } catch {
      json = undefined;
    }
    const reply = envelope.safeParse(json);
    if (!response.ok) {
      throw httpError(request, response.status, { gatewayCode: reply.success ? reply.data.code : null });
    }
    if (!reply.success) throw badReply(request, 'unexpected reply');
    if (reply.data.code !== PAYRIFF_SUCCESS) {
      throw new AppError(failure, `${name} refused ${path}: ${reply.data.message ?? reply.data.code}`, {
        gateway: name, reason: 'refused', gatewayCode: reply.data.code, gatewayMessage: reply.data.message,
      });
    }
    return reply.data.payload;
  }

  return {
    name,

    async create(p: CreatePaymentInput) {
      if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor <= 0) throw new RangeError('amountMinor must be a positive integer');
      if (p.currency !== 'AZN') throw new RangeError('Payriff charges in AZN only');
      if (!p.reference || p.reference.length > 100) throw new RangeError('reference must be 1-100 characters');
      const payload = await call(
        'POST',
        '/api/v3/orders',
        'PAYMENT_NOT_CREATED',
        {
          // A JSON number in manat: the shortest float that prints as the exact two-place decimal.
          amount: Number(qepikToDecimal(p.amountMinor)),
          currency: p.currency,
          language: payriffLanguage(p.language),
          operation: 'PURCHASE',
          description: p.description.slice(0, 500),
          ...(p.callbackUrl ? { callbackUrl: p.callbackUrl } : {}),
          redirectUrl: p.successUrl,
          cardSave: false,
          metadata: { reference: p.reference },
        },
        { 'X-REQUEST-RRN': p.reference },
      );
      const created = createdPayload.safeParse(payload);
      if (!created.success || !ORDER_ID.test(created.data.orderId)) {
        throw new AppError('PAYMENT_NOT_CREATED', `${name} /api/v3/orders: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      }
      return { paymentUrl: created.data.paymentUrl, transactionId: created.data.orderId };
    },

    async status(transactionId: string) {
      if (!ORDER_ID.test(transactionId)) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name}: not an order id`, { gateway: name, reason: 'bad_id' });
      }
      const payload = await call('GET', `/api/v3/orders/${transactionId}`, 'PAYMENT_STATUS_UNKNOWN');
      const order = orderPayload.safeParse(payload);
      if (!order.success) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} order status: unexpected reply`, { gateway: name, reason: 'bad_reply' });
      }
      if (order.data.orderId !== transactionId) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} answered for order ${order.data.orderId}`, { gateway: name, reason: 'bad_reply' });
      }
      // A status this adapter does not know (one still being refunded, say) is for a person to read.
      const state = PAYRIFF_STATES[order.data.paymentStatus.toUpperCase()];
      if (!state) {
        throw new AppError('PAYMENT_STATUS_UNKNOWN', `${name} order status ${order.data.paymentStatus}`, {
          gateway: name, reason: 'unexpected_status', paymentStatus: order.data.paymentStatus,
        });
      }
      return toStatus(order.data, state, payload);
    },

    parseCallback(body: CallbackBody) {
      const parsed = callbackSchema.safeParse(body);
      if (!parsed.success) throw new AppError('SIGNATURE_INVALID', `${name} callback: no order id`);
      // Unsigned: a hint that this order changed, never a statement of what it is now.
      return { state: 'pending', transactionId: parsed.data.payload.orderId, reference: null, amountMinor: null, currency: null, code: null, message: null, raw: body };
    },

    async refund(transactionId: string, amountMinor: number) {
      if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new RangeError('amountMinor must be a positive integer');
      if (!ORDER_ID.test(transactionId)) {
        throw new AppError('PAYMENT_REFUND_FAILED', `${name}: not an order id`, { gateway: name, reason: 'bad_id' });
      }
      await call('POST', '/api/v3/refund', 'PAYMENT_REFUND_FAILED', { orderId: transactionId, amount: Number(qepikToDecimal(amountMinor)) });
    },
  };
}

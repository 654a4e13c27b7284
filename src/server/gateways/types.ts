import type { PaymentCurrency } from '../../core/paymentMethods';

/**
 * One interface for every card gateway. The payments feature talks only to this; each adapter
 * (Epoint, Payriff, PayTR, and the local sandboxes that speak their protocols) hides its wire
 * format. `src/server/gateways/registry.ts` holds the one gateway of each method kind.
 */

/** The gateway that answered for a payment (stored as `payments.provider`): the sandbox of Epoint's protocol is `sandbox`. */
export type GatewayName = 'epoint' | 'sandbox' | 'payriff' | 'paytr';

export type GatewayLanguage = 'az' | 'tr' | 'en' | 'ru';

export interface CreatePaymentInput {
  /** The storefront's own payment reference; sent as the gateway's order id and echoed back. */
  reference: string;
  /** Charge in the currency's minor unit (AZN qəpik, TRY kuruş), a positive integer. */
  amountMinor: number;
  currency: PaymentCurrency;
  description: string;
  /** The customer's language; each adapter maps it to one its page speaks. */
  language: GatewayLanguage;
  /**
   * The customer, for gateways that must be told who pays (PayTR): e-mail, the address the request
   * came from, and the name on the profile when there is one.
   */
  customer?: { email: string; ip: string; name?: string };
  /** Where the gateway posts its notification for this payment (the method's callback route). */
  callbackUrl?: string;
  successUrl: string;
  errorUrl: string;
}

export interface CreatedPayment {
  /** The hosted card page the customer's browser is sent to. */
  paymentUrl: string;
  /** The gateway's id for the payment, used for status calls. */
  transactionId: string;
}

/**
 * A gateway's view of one payment, from a status call or a callback.
 * `pending` means "not finished yet" and is never a failure. Fields the gateway did not state
 * are null; `raw` is the decoded reply for logs and admin screens.
 */
export interface GatewayStatus {
  /** `partly_returned`: paid, and part of the charge given back to the card since (Payriff's PARTIAL_REFUND). */
  state: 'success' | 'pending' | 'failed' | 'returned' | 'partly_returned';
  transactionId: string | null;
  reference: string | null;
  amountMinor: number | null;
  currency: string | null;
  code: string | null;
  message: string | null;
  /** What was given back to the card so far, in minor units, when the gateway says (a refunded or partly refunded order). */
  refundedMinor?: number | null;
  raw: unknown;
}

/** A notification as it arrived: form fields or a JSON object, read by the adapter of its route. */
export type CallbackBody = Record<string, unknown>;

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Registers a payment. Throws AppError('PAYMENT_NOT_CREATED') on any refusal or no answer. */
  create(p: CreatePaymentInput): Promise<CreatedPayment>;
  /** Asks for the current state. Throws AppError('PAYMENT_STATUS_UNKNOWN') without a usable answer. */
  status(transactionId: string): Promise<GatewayStatus>;
  /**
   * Verifies and decodes a callback body. Throws AppError('SIGNATURE_INVALID') on a missing or
   * wrong signature or undecodable data. A valid callback is a hint, not proof of payment:
   * settlement re-confirms with `status()`.
   */
  parseCallback(body: CallbackBody): GatewayStatus;
  /**
   * Gives a completed payment's money back to the card, when the gateway can (Payriff's refund).
   * Throws AppError('PAYMENT_REFUND_FAILED') when it is refused or unanswered.
   */
  refund?(transactionId: string, amountMinor: number): Promise<void>;
}

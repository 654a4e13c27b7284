/**
 * One interface for every card gateway. The payments feature talks only to this; each adapter
 * (Epoint, the local sandbox that speaks Epoint's protocol, later others) hides its wire format.
 */

export type GatewayName = 'epoint' | 'sandbox';

export type GatewayLanguage = 'az' | 'en' | 'ru';

export interface CreatePaymentInput {
  /** The storefront's own payment reference; sent as the gateway's order id and echoed back. */
  reference: string;
  /** Charge in AZN qəpik (1 AZN = 100 qəpik), a positive integer. */
  amountQepik: number;
  currency: 'AZN';
  description: string;
  language: GatewayLanguage;
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
  state: 'success' | 'pending' | 'failed' | 'returned';
  transactionId: string | null;
  reference: string | null;
  amountQepik: number | null;
  currency: string | null;
  code: string | null;
  message: string | null;
  raw: unknown;
}

export interface CallbackForm {
  data?: string;
  signature?: string;
}

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
  parseCallback(form: CallbackForm): GatewayStatus;
}

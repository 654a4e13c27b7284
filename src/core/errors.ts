/**
 * Stable error codes shared by the server and the browser.
 *
 * The server answers every refused request with `{ error: { code, message } }`; the browser
 * words `code` with `errorText` (src/web/lib/errorText.ts, texts under `errors` in the `common`
 * locale files), and the code never changes once published. Each code carries its HTTP status.
 */
export const ERROR_CODES = {
  // generic
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  RATE_LIMITED: 429,
  /** Too many live-update streams on this address or instance: `details.retryAfterSeconds`, and a Retry-After header. */
  TOO_MANY_STREAMS: 429,
  ORIGIN_REFUSED: 403,
  MAINTENANCE: 503,
  INTERNAL: 500,

  // accounts
  INVALID_CREDENTIALS: 401,
  EMAIL_TAKEN: 409,
  EMAIL_INVALID: 422,
  PASSWORD_WEAK: 422,
  REGISTRATION_CLOSED: 403,
  RESET_LINK_INVALID: 400,
  LAST_ADMIN: 409,
  ROLE_EXISTS: 409,
  MAIL_NOT_SENT: 502,

  // catalogue and providers
  SERVICE_NOT_FOUND: 404,
  PROVIDER_REFUSED: 502,
  PROVIDER_NO_ANSWER: 504,
  PROVIDER_BAD_REPLY: 502,

  // orders and wallet
  LINK_INVALID: 422,
  QUANTITY_OUT_OF_RANGE: 422,
  PARAM_REQUIRED: 422,
  ACTIVE_ORDER_EXISTS: 409,
  INSUFFICIENT_BALANCE: 402,
  /** The price the customer was shown is not the price now (fees or catalogue changed): `details.totalMicros` is the new one. */
  PRICE_CHANGED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  ORDER_NOT_FOUND: 404,
  /** Refill asked for an order whose service has none, that is not completed, or past its period. */
  REFILL_NOT_ALLOWED: 409,
  /** Cancel asked for an order that is not active or whose service cannot be cancelled. */
  CANCEL_NOT_ALLOWED: 409,
  /** Drip-feed asked for a service that does not allow it. */
  DRIPFEED_NOT_AVAILABLE: 422,

  // reseller API keys
  API_KEY_LIMIT: 409,
  API_ACCESS_DISABLED: 403,

  // payments
  PAYMENT_NOT_CREATED: 502,
  PAYMENT_NOT_FOUND: 404,
  PAYMENT_STATUS_UNKNOWN: 502,
  SIGNATURE_INVALID: 400,
  /** A top-up through a method that is off, or that this shop cannot take (no gateway configured). */
  PAYMENT_METHOD_UNAVAILABLE: 409,
  /** A top-up outside its method's bounds. `details.minMicros`, `details.maxMicros`. */
  TOPUP_OUT_OF_RANGE: 422,
  /** A gateway refused a refund of a top-up; whatever was taken from the balance for it was given back. */
  PAYMENT_REFUND_FAILED: 502,
  /** A bank transfer's receipt that is empty or not a PNG, JPEG, WebP or PDF by its content. */
  RECEIPT_INVALID: 422,
  /** A bank transfer reviewed before its receipt was uploaded. */
  RECEIPT_MISSING: 409,
  /** A payment already approved, rejected or settled: nothing more to do to it. */
  PAYMENT_ALREADY_SETTLED: 409,
  /** The account owes the shop (a chargeback left its balance below zero): no orders until a top-up or the team settles it. `details.owedMicros`. */
  BALANCE_OWED: 402,
  /** A chargeback asked for a payment that is not a completed top-up. */
  PAYMENT_NOT_REVERSIBLE: 409,
  /** A chargeback asked for a payment already reversed. */
  PAYMENT_ALREADY_REVERSED: 409,
  /** A refund to the card asked for a payment that cannot have one: not a completed top-up, reversed, refused before, or its method's gateway cannot refund. `details.reason`. */
  PAYMENT_NOT_REFUNDABLE: 409,
  /** A refund to the card asked for a top-up already refunded. */
  PAYMENT_ALREADY_REFUNDED: 409,
  /** A refund to the card asked while another attempt is asking the gateway. */
  PAYMENT_REFUND_IN_PROGRESS: 409,
  /** A refund to the card the balance cannot pay: the customer spent the top-up. Nothing changed. `details.neededMicros`. */
  PAYMENT_REFUND_BALANCE_SHORT: 409,

  // deposit bonuses and coupons (docs/rules.md#bonuses)
  /** No coupon with this code (or it is switched off). */
  COUPON_NOT_FOUND: 422,
  COUPON_EXPIRED: 422,
  /** A top-up below the coupon's smallest. `details.minMicros`. */
  COUPON_BELOW_MINIMUM: 422,
  /** This customer has used the coupon as often as it allows. */
  COUPON_ALREADY_USED: 409,
  /** The coupon has been used as often as it allows in all. */
  COUPON_USED_UP: 409,
  /** The team gave a new coupon a code another coupon has. */
  COUPON_CODE_TAKEN: 409,

  // content
  DUPLICATE: 409,

  // second factor
  /** A team member in production without a second factor: the admin area waits until one is set up. */
  TWO_FACTOR_REQUIRED: 403,
  /** The code from the authenticator app, or the recovery code, is wrong (or not one). */
  TWO_FACTOR_CODE_INVALID: 422,
  /** The sign-in's code step has ended (too long, too many tries): sign in again with the password. */
  TWO_FACTOR_EXPIRED: 400,
  /** Too many wrong codes for this account: it waits a few minutes. */
  TWO_FACTOR_LOCKED: 429,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  /** A team member asked to remove their own second factor through the team's route: that is done in their account's settings. */
  TWO_FACTOR_RESET_OWN: 403,
  // analytics
  /** A custom period without both days, ending before it begins, or longer than `details.maxDays`. */
  PERIOD_INVALID: 400,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The one error type the server throws on purpose. Anything else is a bug and answers INTERNAL. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Safe, non-personal details the browser may use to build a message (e.g. `{ min, max }`). */
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
  }
}

/** Shape of every error body the API sends. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

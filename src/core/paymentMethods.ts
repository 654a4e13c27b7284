import { usdMicrosToMinor, withFeeMinor } from './money';

/**
 * Ways to top up a balance (docs/rules.md#payment-methods). Each method is one row the team
 * edits (names, currency, bounds, fee, place on the top-up dialog, on or off); its kind names the
 * protocol that takes the money: a card gateway (Epoint, Payriff, PayTR) or a bank transfer with
 * a receipt the team approves. The balance is always credited in USD.
 */
export const PAYMENT_METHOD_KINDS = ['epoint', 'payriff', 'paytr', 'bank'] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHOD_KINDS)[number];

/** Currencies a customer may be charged in, each with two decimals (qəpik, kuruş). */
export const PAYMENT_CURRENCIES = ['AZN', 'TRY'] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/** The currencies each kind can charge in: Epoint and Payriff in manat, PayTR in lira, a bank transfer to either account. */
export const KIND_CURRENCIES: Record<PaymentMethodKind, readonly PaymentCurrency[]> = {
  epoint: ['AZN'],
  payriff: ['AZN'],
  paytr: ['TRY'],
  bank: ['AZN', 'TRY'],
};

/** The setting holding each currency's rate to the dollar (units per USD). */
export const RATE_SETTING = { AZN: 'usd_azn_rate', TRY: 'usd_try_rate' } as const satisfies Record<PaymentCurrency, string>;

/** The largest bank-transfer receipt taken (a phone's photo or a bank's PDF), checked by the server and, before sending, by the dialog. */
export const RECEIPT_MAX_BYTES = 5 * 1024 * 1024;

/** A method's fee: hundredths of a percent added to what the customer pays (0–20 %). */
export const MAX_METHOD_FEE_BP = 2_000;

/**
 * What a customer pays for `amountMicros` of balance through a method: the amount at the rate in
 * force, rounded up to the minor unit, then the method's fee added and rounded up again.
 */
export function quoteTopUp(amountMicros: number, rate: string, feeBp: number): { amountMinor: number; feeMinor: number } {
  const base = usdMicrosToMinor(amountMicros, rate);
  const amountMinor = withFeeMinor(base, feeBp);
  return { amountMinor, feeMinor: amountMinor - base };
}

/** Where a method's gateway posts its notifications: Epoint's one registered address, the others' own. */
export const callbackPath = (kind: PaymentMethodKind): string => (kind === 'epoint' ? '/api/payments/callback' : `/api/payments/callback/${kind}`);

/** Every gateway's notification path (server-to-server: no cookies, exempt from the origin check). */
export const CALLBACK_PATHS = PAYMENT_METHOD_KINDS.filter((k) => k !== 'bank').map(callbackPath);

/** Whether a method of `kind` sends the customer to a gateway's page (a bank transfer does not). */
export const isGatewayKind = (kind: PaymentMethodKind): kind is Exclude<PaymentMethodKind, 'bank'> => kind !== 'bank';

/**
 * Why a card payment failed, in words a customer can act on. Gateways answer with the issuing
 * bank's response code (ISO 8583 style, "05", "051", "51" …) and an English (PayTR: Turkish) text;
 * the code decides where it is known, the text otherwise, and anything else is `other` (its text is shown as is).
 */
export const PAYMENT_FAILURE_REASONS = [
  'declined',
  'insufficient_funds',
  'expired_card',
  'invalid_card',
  'limit_exceeded',
  'authentication_failed',
  'cancelled',
  'other',
] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

const BY_CODE: Record<string, PaymentFailureReason> = {
  '4': 'declined',
  '5': 'declined',
  '7': 'declined',
  '12': 'declined',
  '57': 'declined',
  '62': 'declined',
  '51': 'insufficient_funds',
  '54': 'expired_card',
  '14': 'invalid_card',
  '15': 'invalid_card',
  '56': 'invalid_card',
  '61': 'limit_exceeded',
  '65': 'limit_exceeded',
  '82': 'authentication_failed',
  '55': 'authentication_failed',
};

// English, and Turkish as PayTR words its reasons (its failed_reason_code is its own scale, not the bank's).
const BY_TEXT: [RegExp, PaymentFailureReason][] = [
  [/insufficient|not enough funds|yetersiz/i, 'insufficient_funds'],
  [/expired|süresi dolmuş/i, 'expired_card'],
  [/limit/i, 'limit_exceeded'],
  [/3-?d ?secure|authenticat|\bpin\b|\bcvv\b|\bcvc\b|kimlik doğrulama/i, 'authentication_failed'],
  [/invalid card|card number|unknown card/i, 'invalid_card'],
  [/cancel|vazgeçti/i, 'cancelled'],
  [/declin|do not honou?r|refus|reject|onay verilmedi|işlem yetkisi bulunmamaktadır|taksit yapılamamaktadır/i, 'declined'],
];

export function paymentFailureReason(code: string | null | undefined, message: string | null | undefined): PaymentFailureReason {
  const digits = code?.trim().match(/^\d{1,3}$/) ? String(Number(code)) : null;
  const byCode = digits ? BY_CODE[digits] : undefined;
  if (byCode) return byCode;
  const text = message ?? '';
  for (const [pattern, reason] of BY_TEXT) if (pattern.test(text)) return reason;
  return 'other';
}

import Big from 'big.js';

/**
 * Money is held as integers in minor units: USD cents for balances and charges, AZN qəpik for
 * card charges. Decimal text is parsed digit by digit and multiplied with big.js, never with
 * JavaScript floats. Amounts are written for people by src/web/lib/format.ts.
 */

/** Plain decimal amount: digits, optionally a dot and one or two digits ("10", "10.1", "10.10"). */
const USD_AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;
/** A positive exchange rate written as a plain decimal ("1.7", "1.7025"). */
const RATE = /^\d+(?:\.\d+)?$/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Parses a USD amount typed by a person or read from JSON into cents.
 * Accepts at most two decimals; refuses negatives, exponent forms ("1e3"), NaN, infinities,
 * blank text and amounts beyond the safe integer range. Surrounding whitespace is ignored.
 * A number is read through its shortest decimal text, so 0.1 + 0.2 (0.30000000000000004)
 * is refused rather than silently rounded.
 */
export function parseUsdToCents(input: string | number): number | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = USD_AMOUNT.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  const cents = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return cents > MAX_SAFE ? null : Number(cents);
}

function assertMinorUnits(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

/** Plain decimal text of an amount in minor units: 1010 → "10.10", -5 → "-0.05". No grouping. */
export function minorToDecimal(minor: number): string {
  assertMinorUnits(minor, 'amount');
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * USD cents → AZN qəpik at `rate` AZN per USD: ceil(cents × rate), computed exactly.
 * 1010 cents at "1.7" → 1717 qəpik. Throws RangeError for a negative or non-integer amount and
 * for a rate that is not a positive plain decimal string.
 */
export function usdCentsToAznQepik(cents: number, rate: string): number {
  assertMinorUnits(cents, 'cents');
  if (cents < 0) throw new RangeError(`cents must not be negative, got ${cents}`);
  if (!RATE.test(rate) || Number(rate) === 0) throw new RangeError(`invalid exchange rate: ${rate}`);
  const qepik = new Big(cents).times(rate).round(0, Big.roundUp);
  const result = qepik.toNumber();
  assertMinorUnits(result, 'qəpik');
  return result;
}

/** Qəpik as the decimal string a card gateway expects: 1717 → "17.17", 5 → "0.05". */
export function qepikToAznString(qepik: number): string {
  assertMinorUnits(qepik, 'qəpik');
  if (qepik < 0) throw new RangeError(`qəpik must not be negative, got ${qepik}`);
  return minorToDecimal(qepik);
}

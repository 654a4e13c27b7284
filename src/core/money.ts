/**
 * Money is held as integers (docs/rules.md#money): USD in micro-dollars (1 USD = 1 000 000
 * micros) for balances, the ledger, charges, refunds and fees; AZN in qəpik for card charges.
 * Decimal text is parsed digit by digit and multiplied and divided as BigInt, never with
 * JavaScript floats. Amounts are written for people by src/web/lib/format.ts.
 */

/** Micro-dollars in one dollar. */
export const MICROS_PER_USD = 1_000_000;
/** Micro-dollars in one cent. */
export const MICROS_PER_CENT = 10_000;
/** Decimals of a micro-dollar amount written in dollars. */
const USD_DECIMALS = 6;

/** Plain decimal amount: digits, optionally a dot and at least one digit ("10", "10.1", "0.000001"). */
const AMOUNT = /^(\d+)(?:\.(\d+))?$/;
/** A positive exchange rate written as a plain decimal ("1.7", "1.7025"). */
const RATE = /^\d+(?:\.\d+)?$/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** numerator / denominator of non-negative integers, rounded up or down to an integer, exactly. */
function divide(numerator: bigint, denominator: bigint, round: 'up' | 'down'): number {
  const quotient = round === 'up' ? (numerator + denominator - 1n) / denominator : numerator / denominator;
  if (quotient > MAX_SAFE) throw new RangeError(`result beyond the safe integer range: ${quotient}`);
  return Number(quotient);
}

/**
 * `input` in units of 10^-scale with at most `maxDecimals` decimals; null for anything else.
 * A number is read through its shortest decimal text, so 0.1 + 0.2 (0.30000000000000004) is
 * refused rather than silently rounded.
 */
function parseScaled(input: string | number, scale: number, maxDecimals: number): number | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = AMOUNT.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > maxDecimals) return null;
  const units = BigInt(whole!) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0'));
  return units > MAX_SAFE ? null : Number(units);
}

/**
 * Parses a USD amount typed by a person, read from JSON or from a setting into micro-dollars:
 * "25" → 25 000 000, "0.021272" → 21 272. Accepts at most `maxDecimals` decimals (6, a micro;
 * 2 for amounts people pay, such as a top-up); refuses negatives, exponent forms ("1e3"), NaN,
 * infinities, blank text and amounts beyond the safe integer range. Surrounding whitespace is
 * ignored.
 */
export function parseUsdToMicros(input: string | number, maxDecimals: number = USD_DECIMALS): number | null {
  return parseScaled(input, USD_DECIMALS, Math.min(maxDecimals, USD_DECIMALS));
}

/** Parses an amount in a currency of two decimals (AZN) into its minor unit: "17.17" → 1717. Same refusals as parseUsdToMicros. */
export function parseMinor(input: string | number): number | null {
  return parseScaled(input, 2, 2);
}

function assertInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

/** Plain decimal text of an amount in minor units of two decimals (qəpik): 1010 → "10.10", -5 → "-0.05". No grouping. */
export function minorToDecimal(minor: number): string {
  assertInteger(minor, 'amount');
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Plain decimal text of micro-dollars in dollars: whole cents with two decimals, finer amounts
 * with the decimals they have (at most 6), never rounded. 1 230 000 → "1.23", 21 272 → "0.021272",
 * 0 → "0.00", -50 000 → "-0.05". No grouping.
 */
export function microsToDecimal(micros: number): string {
  assertInteger(micros, 'amount');
  const sign = micros < 0 ? '-' : '';
  const digits = String(Math.abs(micros)).padStart(USD_DECIMALS + 1, '0');
  const fraction = digits.slice(-USD_DECIMALS).replace(/(\d{2}\d*?)0+$/, '$1');
  return `${sign}${digits.slice(0, -USD_DECIMALS)}.${fraction}`;
}

/**
 * USD micro-dollars → the minor unit (a hundredth) of a currency at `rate` units per USD:
 * ceil(micros × rate / 10 000), computed exactly (AZN qəpik, TRY kuruş; a micro is a millionth of
 * a dollar). 25 000 000 micros at "1.7" → 4250 qəpik. Throws RangeError for a negative or
 * non-integer amount and for a rate that is not a positive plain decimal string.
 */
export function usdMicrosToMinor(micros: number, rate: string): number {
  assertInteger(micros, 'micros');
  if (micros < 0) throw new RangeError(`micros must not be negative, got ${micros}`);
  if (!RATE.test(rate) || Number(rate) === 0) throw new RangeError(`invalid exchange rate: ${rate}`);
  const [whole, fraction = ''] = rate.split('.');
  // micros × rate / 10 000, the rate as an integer over 10^(its decimals).
  const rateUnits = BigInt(whole! + fraction);
  return divide(BigInt(micros) * rateUnits, BigInt(MICROS_PER_USD / 100) * 10n ** BigInt(fraction.length), 'up');
}

/** USD micro-dollars → AZN qəpik at `rate` AZN per USD (`usdMicrosToMinor`). */
export const usdMicrosToAznQepik = usdMicrosToMinor;

/**
 * A charge in minor units with a fee of `feeBp` hundredths of a percent added, rounded up to the
 * minor unit: 1000 with 250 (2.5 %) → 1025; 1001 with 250 → 1027 (1026.025 rounded up).
 */
export function withFeeMinor(minor: number, feeBp: number): number {
  assertInteger(minor, 'minor units');
  assertInteger(feeBp, 'fee');
  if (minor < 0 || feeBp < 0) throw new RangeError('amount and fee must not be negative');
  return divide(BigInt(minor) * BigInt(10_000 + feeBp), 10_000n, 'up');
}

/**
 * `bp` hundredths of a percent of an amount in micro-dollars, rounded down to the micro (a bonus
 * never exceeds what its rule promises): 25 000 000 at 1 000 (10 %) → 2 500 000; 333 at 5 000 → 166.
 */
export function shareOfMicros(micros: number, bp: number): number {
  assertInteger(micros, 'micros');
  assertInteger(bp, 'share');
  if (micros < 0 || bp < 0) throw new RangeError('amount and share must not be negative');
  return divide(BigInt(micros) * BigInt(bp), 10_000n, 'down');
}

/** Qəpik as the decimal string a card gateway expects: 1717 → "17.17", 5 → "0.05". */
export function qepikToAznString(qepik: number): string {
  assertInteger(qepik, 'qəpik');
  if (qepik < 0) throw new RangeError(`qəpik must not be negative, got ${qepik}`);
  return minorToDecimal(qepik);
}

import Big from 'big.js';
import { microsToDecimal, minorToDecimal, parseMinor, parseUsdToMicros } from '../../../core/money';
import { ratePer1000Micros, type RatedService } from '../../../core/pricing';

/** Form-value conversions of the admin pages, exact and free of float arithmetic. */

/**
 * Signed amount in dollars, to the micro ("10", "-2.50", "+1", "0.021272") → micro-dollars; null
 * when it is not an amount, has more than 6 decimals or is zero.
 */
export function parseSignedMicros(text: string): number | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const micros = parseUsdToMicros(negative ? trimmed.slice(1) : trimmed.replace(/^\+/, ''));
  if (micros === null || micros === 0) return null;
  return negative ? -micros : micros;
}

/**
 * A price typed in AZN with at most two decimals ("12", "12.5", "12,50") → qəpik. Blank → null
 * (no price); anything else that is not such an amount → undefined (invalid).
 */
export function parseAznToQepik(text: string): number | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  return parseMinor(trimmed) ?? undefined;
}

/** Qəpik as the text of a price field: 1250 → "12.50"; null → "". */
export const qepikToInput = (qepik: number | null) => (qepik === null ? '' : minorToDecimal(qepik));

/**
 * A numeric setting typed in a field (docs/rules.md#settings): text that is not a number becomes 0.
 * Decimals are kept as typed (parsed by big.js, not through float arithmetic on the text).
 */
export function numericSetting(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  try {
    return Number(new Big(trimmed === '' ? '0' : trimmed).toString());
  } catch {
    return 0;
  }
}

/** A position in a list typed in a field: blank → 0, a whole number → itself, anything else → undefined. */
export function parseOrderIndex(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const n = /^-?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Provider price for 1000 units in dollars, from the tier an order of 1000 (or of the orderable
 * quantity nearest it) is charged by, else the first one: the rate without the shop's fees,
 * rounded up to 5 decimals as rates are (src/core/pricing.ts).
 */
export function pricePer1000(service: RatedService): string | null {
  try {
    const micros = ratePer1000Micros(service, { serviceFeePercent: 0, baseFee: 0 });
    return micros === null ? null : microsToDecimal(micros);
  } catch {
    return null;
  }
}

/** Today as YYYY-MM-DD in the browser's time zone, for a new post's date. */
export function today(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** A URL slug from a title: lower-case latin letters, digits and single hyphens. */
export function slugify(title: string): string {
  const map: Record<string, string> = { ə: 'e', ı: 'i', ö: 'o', ü: 'u', ğ: 'g', ş: 's', ç: 'c', İ: 'i' };
  return title
    .replace(/[əıöüğşçİ]/gi, (ch) => map[ch.toLowerCase()] ?? map[ch] ?? ch)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/, '');
}

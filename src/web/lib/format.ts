import { DEFAULT_LANGUAGE, isLanguage, LOCALES, type Language } from '../../core/i18n';
import { microsToDecimal, minorToDecimal } from '../../core/money';

/**
 * The one way the site writes money, numbers and dates, per language:
 *
 * | | az (az-AZ) | tr (tr-TR) | en |
 * |---|---|---|---|
 * | dollars | 1.234,56 $ | $1.234,56 | $1,234.56 |
 * | a fraction of a cent | 0,021272 $ | $0,021272 | $0.021272 |
 * | manat | 1.234,56 AZN | AZN 1.234,56 | AZN 1,234.56 |
 * | numbers | 1.000 | 1.000 | 1,000 |
 * | date | 23.11.2026 | 23.11.2026 | Nov 23, 2026 |
 * | date and time | 23.11.2026 19:08 | 23.11.2026 19:08 | Nov 23, 2026, 7:08 PM |
 *
 * Each is what Intl with full locale data writes for the language. Manat shows its code (AZN),
 * which every font has, rather than ₼. Browsers ship without Azerbaijani data (Chromium writes
 * az-AZ as "$ 14.56", "1,000", "2026-11-23 19:08"), so az is put together from locale-neutral
 * Intl parts in the az-AZ pattern; the server (full ICU) and the browser then write the same
 * text and hydration matches. The unit tests compare az with Node's own az-AZ output. A date
 * with its time is dd.MM.yyyy HH:mm in az, with no comma between them (docs/rules.md#languages).
 *
 * Every function takes the page's language ('az', 'tr', 'en'); a locale tag such as 'az-AZ' is
 * read by its language, anything else falls back to the default language.
 */

export type Currency = 'USD' | 'AZN' | 'TRY';

/** A language from a language or a locale tag: 'az-AZ' → 'az'. */
export function languageOf(lang: string): Language {
  const base = lang.split('-')[0]?.toLowerCase();
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

/** The Intl locale of a language: az-AZ, tr-TR, en-US. */
export const localeOf = (lang: string): string => LOCALES[languageOf(lang)];

// ─── Memoized Intl formatters ─────────────────────────────────────────────────────────────

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let nf = numberFormats.get(key);
  if (!nf) numberFormats.set(key, (nf = new Intl.NumberFormat(locale, options)));
  return nf;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let df = dateFormats.get(key);
  if (!df) dateFormats.set(key, (df = new Intl.DateTimeFormat(locale, options)));
  return df;
}

// ─── Numbers ──────────────────────────────────────────────────────────────────────────────

/** A plain decimal as text: "-12", "0.0042". */
const DECIMAL = /^-?\d+(?:\.(\d+))?$/;
/** Intl's upper bound for fraction digits. */
const MAX_FRACTION = 20;

type Numeric = number | `${number}`;

/** Latin digits written by a locale every Intl has; az gets its separators put in afterwards. */
const NEUTRAL = 'en-US';
const NBSP = '\u00a0';

/** az-AZ writes a dot between thousands and a decimal comma: 1.234,56. */
function azDigits(value: Numeric, options: Intl.NumberFormatOptions): string {
  return numberFormat(NEUTRAL, { ...options, style: 'decimal' })
    .formatToParts(value as number)
    .map((p) => (p.type === 'group' ? '.' : p.type === 'decimal' ? ',' : p.value))
    .join('');
}

function number(value: Numeric, lang: string, options: Intl.NumberFormatOptions): string {
  const language = languageOf(lang);
  return language === 'az' ? azDigits(value, options) : numberFormat(LOCALES[language], options).format(value as number);
}

/**
 * A count or other number: 1000 → "1.000" (az, tr), "1,000" (en). A decimal string keeps exactly
 * the digits it has ("1.7025" → "1,7025", "150.50" → "150,50"), never passing through a float.
 */
export function formatNumber(value: number | string, lang: string): string {
  if (typeof value === 'number') return number(value, lang, { maximumFractionDigits: MAX_FRACTION });
  const match = DECIMAL.exec(value.trim());
  if (!match) return value;
  const fraction = Math.min(MAX_FRACTION, match[1]?.length ?? 0);
  return number(value.trim() as `${number}`, lang, { minimumFractionDigits: fraction, maximumFractionDigits: fraction });
}

// ─── Money ────────────────────────────────────────────────────────────────────────────────

/** The sign shown: $ for dollars, the code for manat. */
const currencyDisplay = (currency: Currency) => (currency === 'AZN' ? 'code' : 'narrowSymbol');

function money(value: `${number}`, currency: Currency, lang: string, digits: Pick<Intl.NumberFormatOptions, 'minimumFractionDigits' | 'maximumFractionDigits' | 'trailingZeroDisplay'>): string {
  const language = languageOf(lang);
  if (language === 'az') {
    // az-AZ: "#,##0.00 ¤", the minus before the digits: -2,50 $
    return `${azDigits(value, digits)}${NBSP}${currency === 'USD' ? '$' : currency}`;
  }
  return numberFormat(LOCALES[language], { style: 'currency', currency, currencyDisplay: currencyDisplay(currency), ...digits }).format(value as unknown as number);
}

/**
 * An amount as the shop holds it — USD in micro-dollars, AZN in qəpik, TRY in kuruş — with its currency sign.
 * Whole cents are written with two decimals: 1 234 560 000 USD micros → "1.234,56 $" (az),
 * "$1.234,56" (tr), "$1,234.56" (en); AZN 1717 qəpik → "17,17 AZN" (az), "AZN 17,17" (tr),
 * "AZN 17.17" (en). A USD amount finer than a cent keeps the decimals it has, never rounded:
 * 21 272 → "$0.021272". `wholeWithoutCents` drops ",00" from whole amounts ("$25").
 */
export function formatMoney(amount: number, currency: Currency, lang: string, options: { wholeWithoutCents?: boolean } = {}): string {
  const text = currency === 'USD' ? microsToDecimal(amount) : minorToDecimal(amount);
  const fraction = text.length - text.indexOf('.') - 1;
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: fraction, ...(options.wholeWithoutCents ? { trailingZeroDisplay: 'stripIfInteger' as const } : {}) };
  return money(text as `${number}`, currency, lang, digits);
}

/**
 * An exact decimal amount such as a provider's unit price: at least two decimals and every
 * further digit it has, no rounding ("0.0042" USD → "0,0042 $" in az, "$0.0042" in en; "1.5" →
 * "$1.50"). Text that is not a plain decimal is returned as it is.
 */
export function formatMoneyDecimal(value: string, currency: Currency, lang: string): string {
  const text = value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return value;
  const fraction = Math.min(MAX_FRACTION, Math.max(2, match[1]?.length ?? 0));
  return money(text as `${number}`, currency, lang, { minimumFractionDigits: 2, maximumFractionDigits: fraction });
}

// ─── Dates ────────────────────────────────────────────────────────────────────────────────

type DateInput = string | number | Date;
const toDate = (value: DateInput) => (value instanceof Date ? value : new Date(value));

const NUMERIC_DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const NUMERIC_TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** Day, month, year, hour and minute as two-digit (year four-digit) parts. */
function azParts(date: Date, timeZone?: string): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  const parts = dateFormat(NEUTRAL, { ...NUMERIC_DATE, ...NUMERIC_TIME, ...(timeZone ? { timeZone } : {}) }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: part('day'), month: part('month'), year: part('year'), hour: part('hour'), minute: part('minute') };
}

/** Intl puts a narrow no-break space before AM/PM in some versions and a plain one in others. */
const plainSpaces = (text: string) => text.replace(/[\u202f\u2009]/g, ' ');

function date(value: DateInput, lang: string, withTime: boolean, timeZone?: string): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '—';
  const language = languageOf(lang);
  if (language === 'az') {
    const p = azParts(d, timeZone);
    const day = `${p.day}.${p.month}.${p.year}`;
    return withTime ? `${day} ${p.hour}:${p.minute}` : day;
  }
  const zone = timeZone ? { timeZone } : {};
  const options: Intl.DateTimeFormatOptions =
    language === 'en'
      ? { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}), ...zone }
      : { ...NUMERIC_DATE, ...(withTime ? NUMERIC_TIME : {}), ...zone };
  return plainSpaces(dateFormat(LOCALES[language], options).format(d));
}

/** A moment's date in the viewer's time zone: "23.11.2026" (az, tr), "Nov 23, 2026" (en). */
export const formatDate = (value: DateInput, lang: string) => date(value, lang, false);

/** A moment's date and time: "23.11.2026 19:08" (az, tr), "Nov 23, 2026, 7:08 PM" (en). */
export const formatDateTime = (value: DateInput, lang: string) => date(value, lang, true);

/** A moment's date and time as formatDateTime writes them, on the clock of `timeZone` (the shop's: src/web/lib/shopTime.ts). */
export const formatDateTimeIn = (value: DateInput, lang: string, timeZone: string) => date(value, lang, true, timeZone);

/** A calendar day (YYYY-MM-DD) written like formatDate, never shifted by a time zone. */
export function formatDay(day: string, lang: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? date(`${day}T00:00:00Z`, lang, false, 'UTC') : day;
}

import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatMoney, formatMoneyDecimal, formatNumber, languageOf, localeOf } from './format';

/** A moment at 19:08 on 23 November 2026 in the time zone the tests run in. */
const EVENING = new Date(2026, 10, 23, 19, 8).toISOString();
const MORNING = new Date(2026, 2, 7, 9, 5).toISOString();

describe('formatting in az (az-AZ)', () => {
  it('writes dollars after the amount with a decimal comma and dots between thousands', () => {
    expect(formatMoney(14_560_000, 'USD', 'az')).toBe('14,56\u00a0$');
    expect(formatMoney(1_234_560_000, 'USD', 'az')).toBe('1.234,56\u00a0$');
    expect(formatMoney(-2_500_000, 'USD', 'az')).toBe('-2,50\u00a0$');
    expect(formatMoney(0, 'USD', 'az')).toBe('0,00\u00a0$');
    expect(formatMoney(25_000_000, 'USD', 'az', { wholeWithoutCents: true })).toBe('25\u00a0$');
    expect(formatMoney(25_500_000, 'USD', 'az', { wholeWithoutCents: true })).toBe('25,50\u00a0$');
  });

  it('writes a fraction of a cent with the decimals it has, whole cents as they are', () => {
    expect(formatMoney(21_272, 'USD', 'az')).toBe('0,021272\u00a0$');
    expect(formatMoney(212_720, 'USD', 'az')).toBe('0,21272\u00a0$');
    expect(formatMoney(1_234_567_891, 'USD', 'az')).toBe('1.234,567891\u00a0$');
    expect(formatMoney(10_000, 'USD', 'az')).toBe('0,01\u00a0$');
    expect(formatMoney(25_500_000, 'USD', 'az', { wholeWithoutCents: true })).toBe('25,50\u00a0$');
    expect(formatMoney(25_000_001, 'USD', 'az', { wholeWithoutCents: true })).toBe('25,000001\u00a0$');
  });

  it('writes manat with its code', () => {
    expect(formatMoney(1717, 'AZN', 'az')).toBe('17,17\u00a0AZN');
    expect(formatMoney(15000000, 'AZN', 'az')).toBe('150.000,00\u00a0AZN');
  });

  it('keeps every decimal of an exact price', () => {
    expect(formatMoneyDecimal('0.0042', 'USD', 'az')).toBe('0,0042\u00a0$');
    expect(formatMoneyDecimal('1234.5', 'USD', 'az')).toBe('1.234,50\u00a0$');
    expect(formatMoneyDecimal('0.00012345', 'USD', 'az')).toBe('0,00012345\u00a0$');
  });

  it('groups numbers with dots', () => {
    expect(formatNumber(1000, 'az')).toBe('1.000');
    expect(formatNumber(1234567, 'az')).toBe('1.234.567');
    expect(formatNumber(999, 'az')).toBe('999');
    expect(formatNumber('1.7025', 'az')).toBe('1,7025');
    expect(formatNumber('150.50', 'az')).toBe('150,50');
    expect(formatNumber('1500', 'az')).toBe('1.500');
  });

  it('writes dates as dd.MM.yyyy and times on the 24-hour clock', () => {
    expect(formatDateTime(EVENING, 'az')).toBe('23.11.2026 19:08');
    expect(formatDateTime(MORNING, 'az')).toBe('07.03.2026 09:05');
    expect(formatDate(EVENING, 'az')).toBe('23.11.2026');
    expect(formatDay('2026-03-07', 'az')).toBe('07.03.2026');
  });

  it('writes what Intl with full az-AZ data writes (Node carries it; browsers do not)', () => {
    const full = (options: Intl.NumberFormatOptions, value: string) => new Intl.NumberFormat('az-AZ', options).format(value as `${number}`);
    for (const minor of [0, 5, 1456, 100000, 123456, -250, 987654321]) {
      const decimal = (minor / 100).toFixed(2);
      expect(formatMoney(minor * 10_000, 'USD', 'az')).toBe(full({ style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' }, decimal));
      expect(formatMoney(minor, 'AZN', 'az')).toBe(full({ style: 'currency', currency: 'AZN', currencyDisplay: 'code' }, decimal));
    }
    for (const [micros, decimal] of [[21_272, '0.021272'], [1, '0.000001'], [-1_500_001, '-1.500001']] as const) {
      expect(formatMoney(micros, 'USD', 'az')).toBe(full({ style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 6 }, decimal));
    }
    for (const n of [0, 7, 1000, 12345, 1234567]) expect(formatNumber(n, 'az')).toBe(new Intl.NumberFormat('az-AZ').format(n));
    const full24 = new Intl.DateTimeFormat('az-AZ', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // The same digits, without the comma ICU puts between date and time (dd.MM.yyyy HH:mm).
    for (const iso of [EVENING, MORNING]) expect(formatDateTime(iso, 'az')).toBe(full24.format(new Date(iso)).replace(', ', ' '));
  });
});

describe('formatting in tr (tr-TR)', () => {
  it('writes dollars before the amount with a decimal comma', () => {
    expect(formatMoney(14_560_000, 'USD', 'tr')).toBe('$14,56');
    expect(formatMoney(1_234_560_000, 'USD', 'tr')).toBe('$1.234,56');
    expect(formatMoney(-2_500_000, 'USD', 'tr')).toBe('-$2,50');
    expect(formatMoney(21_272, 'USD', 'tr')).toBe('$0,021272');
    expect(formatMoney(25_000_000, 'USD', 'tr', { wholeWithoutCents: true })).toBe('$25');
    expect(formatMoney(1717, 'AZN', 'tr')).toBe('AZN\u00a017,17');
    expect(formatMoneyDecimal('0.0042', 'USD', 'tr')).toBe('$0,0042');
  });

  it('groups numbers with dots and writes numeric dates', () => {
    expect(formatNumber(1000, 'tr')).toBe('1.000');
    expect(formatNumber('1.7', 'tr')).toBe('1,7');
    expect(formatDateTime(EVENING, 'tr')).toBe('23.11.2026 19:08');
    expect(formatDate(EVENING, 'tr')).toBe('23.11.2026');
    expect(formatDay('2026-03-07', 'tr')).toBe('07.03.2026');
  });
});

describe('formatting in en', () => {
  it('writes dollars before the amount with a decimal point and commas between thousands', () => {
    expect(formatMoney(14_560_000, 'USD', 'en')).toBe('$14.56');
    expect(formatMoney(1_234_560_000, 'USD', 'en')).toBe('$1,234.56');
    expect(formatMoney(-2_500_000, 'USD', 'en')).toBe('-$2.50');
    expect(formatMoney(21_272, 'USD', 'en')).toBe('$0.021272');
    expect(formatMoney(100_842_920, 'USD', 'en')).toBe('$100.84292');
    expect(formatMoney(25_000_000, 'USD', 'en', { wholeWithoutCents: true })).toBe('$25');
    expect(formatMoney(1717, 'AZN', 'en')).toBe('AZN\u00a017.17');
    expect(formatMoneyDecimal('0.0042', 'USD', 'en')).toBe('$0.0042');
    expect(formatMoneyDecimal('0.5', 'USD', 'en')).toBe('$0.50');
  });

  it('groups numbers with commas and names the month', () => {
    expect(formatNumber(1000, 'en')).toBe('1,000');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatDateTime(EVENING, 'en')).toBe('Nov 23, 2026, 7:08 PM');
    expect(formatDate(EVENING, 'en')).toBe('Nov 23, 2026');
    expect(formatDay('2026-03-07', 'en')).toBe('Mar 7, 2026');
  });
});

describe('formatting inputs', () => {
  it('reads a language from a locale tag and falls back to the default one', () => {
    expect(languageOf('az-AZ')).toBe('az');
    expect(languageOf('tr')).toBe('tr');
    expect(languageOf('de')).toBe('en');
    expect(localeOf('az')).toBe('az-AZ');
    expect(formatMoney(14_560_000, 'USD', 'az-AZ')).toBe('14,56\u00a0$');
  });

  it('never rounds an exact decimal through a float and leaves other text alone', () => {
    expect(formatMoneyDecimal('12345678901234.0042', 'USD', 'en')).toBe('$12,345,678,901,234.0042');
    expect(formatNumber('90071992547409.91', 'en')).toBe('90,071,992,547,409.91');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD', 'en')).toBe('$9,007,199,254.740991');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'AZN', 'en')).toBe('AZN\u00a090,071,992,547,409.91');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD', 'az')).toBe('9.007.199.254,740991\u00a0$');
    expect(formatMoneyDecimal('n/a', 'USD', 'en')).toBe('n/a');
    expect(formatDateTime('not a date', 'en')).toBe('—');
  });

  it('keeps a calendar day on its date in every time zone', () => {
    expect(formatDay('2026-01-01', 'az')).toBe('01.01.2026');
    expect(formatDay('2026-12-31', 'en')).toBe('Dec 31, 2026');
  });
});

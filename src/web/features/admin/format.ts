import type { TFunction } from '../../i18n';
import { toast } from 'sonner';
import { minorToDecimal } from '../../../core/money';
import { DEFAULT_LANGUAGE, isLanguage, LOCALES, type Language } from '../../../core/i18n';
import { ACTIVE_STATUSES, type OrderStatus, type StatusGroup } from '../../../core/orderStatus';
import type { BadgeTone } from '../../components/ui/Badge';
import { ApiError } from '../auth/api';

/** Locale for dates and numbers in the admin area: az-AZ for az (spec 02 §9). */
export const localeOf = (lang: string) => LOCALES[isLanguage(lang) ? (lang as Language) : DEFAULT_LANGUAGE];

/*
 * Browsers ship without Azerbaijani locale data (Chromium formats az-AZ dates as "2026 M11 22"),
 * so az-AZ conventions are written out here: dd.MM.yyyy HH:mm, "1.234,50". Turkish and English
 * go through Intl.
 */
const pad = (n: number) => String(n).padStart(2, '0');
const azDate = (d: Date) => `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;

export const formatDateTime = (iso: string, lang: string) => {
  const d = new Date(iso);
  if (lang === 'az') return `${azDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
};

export const formatDate = (iso: string, lang: string) => {
  const d = new Date(iso);
  return lang === 'az' ? azDate(d) : new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium' }).format(d);
};

/** A calendar day (YYYY-MM-DD) shown in the locale, without shifting it through a time zone. */
export const formatDay = (day: string, lang: string) => {
  const [y, m, d] = day.split('-');
  if (lang === 'az') return `${d}.${m}.${y}`;
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
};

/** Groups the whole part with dots and uses a decimal comma, as az-AZ does: 123456 → "1.234,56". */
function azDecimal(minor: number): string {
  const [whole = '0', fraction = '00'] = minorToDecimal(minor).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${digits},${fraction}`;
}

/** Dollars with the $ sign; manat with its code (AZN), which every font can show, unlike ₼. */
function money(minor: number, currency: 'USD' | 'AZN', lang: string): string {
  if (lang === 'az') return `${azDecimal(minor)} ${currency === 'USD' ? '$' : 'AZN'}`;
  const currencyDisplay = currency === 'USD' ? 'narrowSymbol' : 'code';
  return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency, currencyDisplay, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    minorToDecimal(minor) as `${number}`,
  );
}

export const usd = (cents: number, lang: string) => money(cents, 'USD', lang);
export const azn = (qepik: number, lang: string) => money(qepik, 'AZN', lang);
export const count = (n: number, lang: string) => (lang === 'az' ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.') : new Intl.NumberFormat(localeOf(lang)).format(n));

/** Dollars with up to four decimals (provider prices per 1000): "0.0035" → "0,0035 $" in az. */
export function usdDecimal(value: string, lang: string): string {
  if (lang === 'az') {
    const [whole = '0', fraction = ''] = value.split('.');
    return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}${fraction ? `,${fraction}` : ''} $`;
  }
  return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value as `${number}`);
}

/**
 * The dashboard's three-way status label (spec 02 §2): completed, pending, or error for the rest.
 * "Pending" covers every status still on its way (processing, in progress, awaiting
 * reconciliation), the same set the pending-orders card counts.
 */
const STILL_PENDING: readonly OrderStatus[] = [...ACTIVE_STATUSES, 'unknown'];
export function dashboardStatus(status: OrderStatus): { key: 'completed' | 'pending' | 'error'; tone: BadgeTone } {
  if (status === 'completed') return { key: 'completed', tone: 'success' };
  if (STILL_PENDING.includes(status)) return { key: 'pending', tone: 'warning' };
  return { key: 'error', tone: 'danger' };
}

export const STATUS_TONE: Record<StatusGroup, BadgeTone> = {
  active: 'brand',
  completed: 'success',
  partial: 'warning',
  error: 'danger',
  unknown: 'neutral',
};

/** Admin notices last 4 s (spec 02 §9). */
const DURATION = 4000;
export const notify = {
  success: (title: string, description?: string) => toast.success(title, { description, duration: DURATION }),
  info: (title: string, description?: string) => toast.info(title, { description, duration: DURATION }),
  error: (title: string, description?: string) => toast.error(title, { description, duration: DURATION }),
};

/** The server's reason for a refusal in the admin's language; undefined when it has none to add. */
export function reasonOf(t: TFunction, err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return t('admin:errors.INTERNAL');
  return t(`admin:errors.${err.code}`, { defaultValue: t('admin:errors.INTERNAL'), ...(err.details ?? {}) });
}

/** Shows a failure notice: the situation's title and the translated server reason. */
export function notifyError(t: TFunction, titleKey: string, err: unknown) {
  notify.error(t(titleKey), reasonOf(t, err));
}

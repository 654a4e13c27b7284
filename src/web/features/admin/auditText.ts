import type { TFunction } from '../../i18n';
import { minorToDecimal } from '../../../core/money';
import { formatDateTime, formatMoney, formatMoneyDecimal, formatNumber, type Currency } from '../../lib/format';
import type { AuditEntry } from './api';

/**
 * The audit log in words (docs/rules.md#admin): each entry as a sentence in the reader's
 * language from `audit.sentences.<action>` with the entry's values put in — amounts as money,
 * roles and statuses in words, the target by its name — and, for an action without a sentence,
 * its label (`audit.actions.<action>`) followed by its details as `label: value` pairs, each key
 * named by `audit.keys.<key>` (or the settings' own field names), so a new action reads well
 * before it has words of its own.
 */

type Entry = Pick<AuditEntry, 'action' | 'targetType' | 'targetId' | 'details' | 'target'>;

/** The i18n key of an action or target type: `.` and `-` become `_`. */
export const auditKey = (name: string) => name.replace(/[.-]/g, '_');

/**
 * Amounts in details, by the key's ending: `…Micros` USD micro-dollars, `…Qepik` AZN qəpik, and
 * `…Cents` USD cents, which entries written before amounts were held in micro-dollars may still
 * carry (migration 0019 rewrote only numbers of balance adjustments and refunds).
 */
const MONEY_KEY = /(Micros|Qepik|Cents)$/;

/** A details value as an amount in the shop's unit (USD micros or AZN qəpik), or null when it is none. */
export function amountOf(key: string, value: unknown): { amount: number; currency: Currency } | null {
  const unit = MONEY_KEY.exec(key)?.[1];
  if (!unit) return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n)) return null;
  if (unit === 'Qepik') return { amount: n, currency: 'AZN' };
  return { amount: unit === 'Cents' ? n * 10_000 : n, currency: 'USD' };
}

/** "callsPerSecond" → "Calls per second", "refundMicros" → "Refund", "service_fee" → "Service fee". */
export function humanize(name: string): string {
  const words = name
    .replace(MONEY_KEY, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** A details key in words: the audit log's own name for it, a setting's field name, or the key itself made readable. */
export function keyLabel(t: TFunction, key: string): string {
  const plain = key.replace(MONEY_KEY, '');
  const fallback = humanize(key);
  return t(`audit.keys.${key}`, { defaultValue: t(`audit.keys.${plain}`, { defaultValue: t(`settings.fields.${key}`, { defaultValue: fallback }) }) });
}

const MAX_LIST = 5;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** One details value in words, in the reader's language. */
export function valueText(t: TFunction, lang: string, key: string, value: unknown): string {
  const money = amountOf(key, value);
  if (money) return formatMoney(money.amount, money.currency, lang);
  if (value === null || value === undefined || value === '') return '—';
  // A share in hundredths of a percent (`…Bp`: a fee, a bonus) and a moment (`…At`, ISO text).
  if (/Bp$/.test(key) && typeof value === 'number' && Number.isSafeInteger(value)) return `${formatNumber(Number(minorToDecimal(value)), lang)} %`;
  if (/At$/.test(key) && typeof value === 'string' && ISO_MOMENT.test(value)) return formatDateTime(value, lang);
  if (typeof value === 'boolean') return t(value ? 'audit.values.yes' : 'audit.values.no');
  if (typeof value === 'string') {
    if (key === 'role') return t(`roles.${value}`, { defaultValue: value });
    if (/^(status|from|to)$/.test(key)) return t(`audit.values.${value}`, { defaultValue: t(`status.${value}`, { defaultValue: value }) });
    return value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_LIST).map((v) => valueText(t, lang, key, v));
    return value.length > MAX_LIST ? `${shown.join(', ')} … (${value.length})` : shown.join(', ');
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('from' in o && 'to' in o && Object.keys(o).length === 2) return `${valueText(t, lang, key, o.from)} → ${valueText(t, lang, key, o.to)}`;
    if (key === 'markup' && typeof o.percent === 'string') {
      const fixed = typeof o.fixedPer1000 === 'string' && Number(o.fixedPer1000) !== 0 ? ` + ${t('audit.values.perThousand', { amount: formatMoneyDecimal(o.fixedPer1000, 'USD', lang) })}` : '';
      return `${o.percent} %${fixed}`;
    }
    return pairs(t, lang, o, ', ');
  }
  return String(value);
}

/** Details as `label: value` pairs. */
export function pairs(t: TFunction, lang: string, details: Record<string, unknown>, separator = ' · '): string {
  return Object.entries(details)
    .map(([k, v]) => `${keyLabel(t, k)}: ${valueText(t, lang, k, v)}`)
    .join(separator);
}

/** What the entry was done to, in words: its name as resolved now, else the name it had (kept in details), else a short id. */
export function targetName(t: TFunction, e: Entry): string {
  if (e.target.label) return e.target.label;
  for (const key of ['name', 'number', 'subject', 'slug', 'email']) {
    const v = e.details[key];
    if (typeof v === 'string' && v) return v;
  }
  if (e.targetId) return e.targetId.length > 14 ? `${e.targetId.slice(0, 8)}…` : e.targetId;
  return t(`audit.targets.${auditKey(e.targetType)}`, { defaultValue: humanize(e.targetType) });
}

/** Option names the translator reads itself, never taken from details. */
const RESERVED = new Set(['count', 'defaultValue', 'returnObjects']);

/** The entry's action as a label: "Balance adjusted", or the action made readable. */
export const actionLabel = (t: TFunction, action: string) => t(`audit.actions.${auditKey(action)}`, { defaultValue: humanize(action) });

/** The entry in words: its sentence when the action has one and the entry carries every value it names, else the label and the details. */
export function auditSentence(t: TFunction, lang: string, e: Entry): string {
  const details = e.details ?? {};
  const values: Record<string, string> = { target: targetName(t, e), details: pairs(t, lang, details), changes: pairs(t, lang, (details.changes ?? details) as Record<string, unknown>, '; ') };
  for (const [k, v] of Object.entries(details)) {
    if (RESERVED.has(k)) continue;
    values[k] = valueText(t, lang, k, v);
    const money = amountOf(k, v);
    if (!money) continue;
    values[`${k}Signed`] = `${money.amount > 0 ? '+' : ''}${values[k]}`;
    // An amount in cents reads as its micro-dollars do, so older entries keep their sentence.
    const micros = k.replace(/Cents$/, 'Micros');
    if (micros !== k && !(micros in details)) {
      values[micros] = values[k];
      values[`${micros}Signed`] = values[`${k}Signed`];
    }
  }
  const key = `audit.sentences.${auditKey(e.action)}`;
  const sentence = t(key, { ...values, defaultValue: '' });
  if (sentence && !sentence.includes('{{')) return sentence;
  const label = actionLabel(t, e.action);
  const rest = pairs(t, lang, details);
  return rest ? `${label} — ${rest}` : label;
}

/**
 * The admin page of an entry's target, relative to the admin area, where there is one: a user or
 * payment found by e-mail, an order by its number, a ticket opened; null when the target is gone.
 */
export function targetLink(e: Entry): string | null {
  const label = e.target.label;
  const q = (v: string) => encodeURIComponent(v);
  switch (e.targetType) {
    case 'user':
      return label ? `/users?q=${q(label)}` : null;
    case 'order':
      return label ? `/orders?q=${q(label)}` : null;
    case 'payment':
      return label ? `/payments?q=${q(label)}` : null;
    case 'support_ticket':
      return label && e.targetId ? `/support?ticket=${q(e.targetId)}` : null;
    case 'service':
      return label ? (e.action === 'service.sources' ? '/services?tab=api' : '/services') : null;
    case 'provider':
    case 'provider-service-change':
      return label ? '/providers' : null;
    case 'consultation':
      return label ? '/consultations' : null;
    case 'contact_message':
      return label ? '/contact-messages' : null;
    case 'blog':
      return label ? '/blog' : null;
    case 'faq':
      return label ? '/faq' : null;
    case 'service-name':
      return '/service-names';
    case 'param-text':
      return '/services?tab=params';
    case 'catalog':
      return '/services?tab=api';
    case 'settings':
      return '/settings';
    default:
      return null;
  }
}

/**
 * The shop's time zone in the team's dialogs (docs/rules.md#bonuses): a bonus rule's start and end
 * and a coupon's expiry are typed, shown and read back as the shop's wall-clock time
 * (SHOP_TIME_ZONE, Asia/Baku), whatever zone the browser is in, and labelled with it.
 */
import { SHOP_TIME_ZONE } from '../../core/analytics';
import { formatDateTimeIn } from './format';

export { SHOP_TIME_ZONE };

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The shop's wall-clock fields of a moment, as numbers. */
function wallOf(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** How far the zone's clock is ahead of UTC at a moment, in milliseconds. */
function offsetMs(ms: number, timeZone: string): number {
  const w = wallOf(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** A stored moment as a `datetime-local` field's value in the shop's time zone ("2026-11-23T19:08"); "" for none. */
export function toShopInput(iso: string | null, timeZone = SHOP_TIME_ZONE): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const w = wallOf(ms, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}`;
}

/**
 * A `datetime-local` value read as the shop's wall-clock time, as ISO text; null for blank,
 * undefined when it is no moment (or a wall time the zone skips).
 */
export function fromShopInput(text: string, timeZone = SHOP_TIME_ZONE): string | null | undefined {
  if (!text.trim()) return null;
  const m = WALL.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCMonth() !== month - 1 || new Date(asUtc).getUTCDate() !== day || hour > 23 || minute > 59) return undefined;
  // The wall time less the zone's offset, the offset taken again at the result (it may change in between).
  let ms = asUtc - offsetMs(asUtc, timeZone);
  ms = asUtc - offsetMs(ms, timeZone);
  return toShopInput(new Date(ms).toISOString(), timeZone) === text.trim() ? new Date(ms).toISOString() : undefined;
}

/** A moment's date and time on the shop's clock, written as formatDateTime writes them. */
export const formatShopDateTime = (value: string | number | Date, lang: string, timeZone = SHOP_TIME_ZONE) => formatDateTimeIn(value, lang, timeZone);

/** The zone's offset from UTC at a moment, as "UTC+4" (the label beside the fields and dates). */
export function shopZoneOffset(at: number = Date.now(), timeZone = SHOP_TIME_ZONE): string {
  const minutes = Math.round(offsetMs(at, timeZone) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}

import type { TFunction } from '../../i18n';
import { formatNumber } from '../../lib/format';

/** A duration in whole minutes as people read it: "45 min", "2 h 5 min", "3 d 4 h". */
export function durationText(t: TFunction, minutes: number, locale: string): string {
  const n = (x: number) => formatNumber(x, locale);
  if (minutes < 60) return t('catalog:duration.minutes', { m: n(minutes) });
  if (minutes < 24 * 60) return t('catalog:duration.hours', { h: n(Math.floor(minutes / 60)), m: n(minutes % 60) });
  const hours = Math.round(minutes / 60);
  return t('catalog:duration.days', { d: n(Math.floor(hours / 24)), h: n(hours % 24) });
}

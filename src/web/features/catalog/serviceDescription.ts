import type { PublicService } from '../../../core/contracts/catalog';
import { DEFAULT_REFILL_DAYS, LIFETIME_REFILL_DAYS } from '../../../core/refill';
import type { TFunction } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { durationText } from './figures';

/** What a service delivers, in its name's words: the name without its qualifiers ("[HQ, 30 gün bərpa]", "| Fast", "- Real"). */
export const deliveredOf = (name: string): string => name.replace(/\s*[[(|–—]\s*.*$|\s+-\s+.*$/u, '').trim() || name;

/**
 * A short description of a service that has none of its own, from its facts, in the page's
 * language: what it delivers (its name in that language), how many may be ordered, how it
 * usually starts and completes once enough orders tell it (docs/rules.md#service-figures), and its
 * refill period (docs/rules.md#refill). One sentence a line.
 */
export function generatedDescription(t: TFunction, service: PublicService, locale: string): string {
  const n = (x: number) => formatNumber(x, locale);
  const lines = [t('catalog:about.delivered', { what: deliveredOf(service.name) }), t('catalog:about.bounds', { min: n(service.min), max: n(service.max) })];
  const f = service.figures;
  if (f?.startMinutes != null) lines.push(t('catalog:about.start', { time: durationText(t, f.startMinutes, locale) }));
  if (f?.completeMinutes != null) lines.push(t('catalog:about.complete', { time: durationText(t, f.completeMinutes, locale) }));
  const days = service.refillDays ?? DEFAULT_REFILL_DAYS;
  lines.push(
    !service.refill
      ? t('catalog:about.refillNo')
      : days >= LIFETIME_REFILL_DAYS
        ? t('catalog:about.refillLifetime')
        : t('catalog:about.refillDays', { count: days, days: n(days) }),
  );
  return lines.join('\n');
}

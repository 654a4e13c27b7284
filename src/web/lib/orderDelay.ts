import type { OrderView } from '../../core/contracts/orders';
import type { TFunction } from '../i18n';
import { formatNumber } from './format';

/**
 * A delayed order's line in the reader's language (docs/rules.md#delayed-orders): that it is late
 * and how soon its service usually starts, from `orderDelay` in `common`. Empty when it is not.
 */
export function orderDelayText(t: TFunction, delay: OrderView['delay'], locale: string): string {
  if (!delay) return '';
  return t('common:orderDelay.delayed', { count: delay.usualMinutes, minutes: formatNumber(delay.usualMinutes, locale) });
}

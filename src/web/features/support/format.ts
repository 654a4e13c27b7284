import type { TicketPriority, TicketStatus } from '../../../core/contracts/supportConstants';
import type { BadgeTone } from '../../components/ui/Badge';
import { SupportApiError } from './http';

/** The description preview in the ticket list: at most 100 characters (docs/rules.md#support). */
export function preview(text: string, max = 100): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

export const PRIORITY_TONE: Record<TicketPriority, BadgeTone> = { low: 'neutral', normal: 'brand', high: 'warning', urgent: 'danger' };
export const STATUS_TONE: Record<TicketStatus, BadgeTone> = { open: 'brand', in_progress: 'warning', resolved: 'success', closed: 'neutral' };

/** A translated reason for a refused request (keys under `errors.` of the support namespace). */
export function errorText(t: (key: string, opts?: Record<string, unknown>) => string, err: unknown): string {
  if (err instanceof SupportApiError) {
    if (err.code === 'RATE_LIMITED') {
      const seconds = Number(err.details?.retryAfterSeconds ?? 60);
      return t('support:errors.RATE_LIMITED', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
    }
    if (err.code === 'NETWORK' || err.code === 'UNAUTHENTICATED' || err.code === 'NOT_FOUND' || err.code === 'VALIDATION_FAILED') return t(`support:errors.${err.code}`);
  }
  return t('support:errors.generic');
}

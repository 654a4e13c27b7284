import type { OrderStatus } from './orderStatus';
import type { Settings } from './settings';

/**
 * Delayed orders (docs/rules.md#delayed-orders): what counts as a service's usual start and when
 * an order is shown as delayed. The scheduled check that flags orders, and the cancel past the
 * team's limit, are in src/server/orders/stuck.ts.
 */

/** Statuses of an order the provider holds but has not started: any other active status is progress. */
export const NO_PROGRESS_STATUSES = ['pending', 'processing'] as const satisfies readonly OrderStatus[];

/**
 * How long, in minutes, an order of a service may wait at the provider with no progress before it
 * is delayed: the service's 90th percentile of start (`p90`, null without enough finished orders,
 * then the `stuck_default_minutes` setting), never below the `stuck_floor_minutes` setting.
 */
export function delayThresholdMinutes(p90: number | null | undefined, settings: Pick<Settings, 'stuck_floor_minutes' | 'stuck_default_minutes'>): number {
  return Math.max(p90 ?? settings.stuck_default_minutes, settings.stuck_floor_minutes);
}

interface Flagged {
  status: OrderStatus;
  delayedAt: Date | null;
  delayMinutes: number | null;
  startedAt: Date | null;
}

/** An order's delay as its pages show it: flagged, and still neither started nor ended; else null. */
export function delayOf(o: Flagged): { since: string; usualMinutes: number } | null {
  if (!o.delayedAt || o.delayMinutes === null || o.startedAt) return null;
  if (!(NO_PROGRESS_STATUSES as readonly string[]).includes(o.status)) return null;
  return { since: o.delayedAt.toISOString(), usualMinutes: o.delayMinutes };
}

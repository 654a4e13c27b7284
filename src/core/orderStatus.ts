/**
 * The order statuses (docs/rules.md#statuses) plus `unknown`: an order whose submission got
 * no answer from the provider and waits for reconciliation. Nothing is refunded or re-sent for
 * it until the provider's own records settle it.
 */
export const ORDER_STATUSES = [
  'pending',
  'processing',
  'in_progress',
  'active',
  'running',
  'completed',
  'partial',
  'error',
  'stopped',
  'refunded',
  'cancelled',
  'unknown',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ACTIVE_STATUSES = ['pending', 'processing', 'in_progress', 'active', 'running'] as const;
export const ERROR_STATUSES = ['error', 'stopped', 'refunded', 'cancelled'] as const;

export type StatusGroup = 'active' | 'completed' | 'error' | 'partial' | 'unknown';

export function statusGroup(status: OrderStatus): StatusGroup {
  if ((ACTIVE_STATUSES as readonly string[]).includes(status)) return 'active';
  if ((ERROR_STATUSES as readonly string[]).includes(status)) return 'error';
  if (status === 'completed') return 'completed';
  if (status === 'partial') return 'partial';
  return 'unknown';
}

/** Statuses after which the provider will not change the order any more. */
export const FINAL_STATUSES = ['completed', 'partial', 'error', 'stopped', 'refunded', 'cancelled'] as const;
export const isFinalStatus = (s: OrderStatus) => (FINAL_STATUSES as readonly string[]).includes(s);

/**
 * Which customer counter each status feeds. `partial` is its own: delivered in part and refunded
 * for the rest, it is neither a full success nor a failure. `unknown` counts as active: the order
 * was charged and sent, and the provider's records will still settle it either way.
 */
export const ORDER_COUNTERS = ['active', 'completed', 'partial', 'error'] as const;
export type OrderCounter = (typeof ORDER_COUNTERS)[number];

export const COUNTER_OF: Record<OrderStatus, OrderCounter> = {
  pending: 'active',
  processing: 'active',
  in_progress: 'active',
  active: 'active',
  running: 'active',
  unknown: 'active',
  completed: 'completed',
  partial: 'partial',
  error: 'error',
  stopped: 'error',
  refunded: 'error',
  cancelled: 'error',
};

/** The statuses a counter counts, for queries. */
export const statusesOfCounter = (counter: OrderCounter): OrderStatus[] => ORDER_STATUSES.filter((s) => COUNTER_OF[s] === counter);

/** Statuses that count as active: charged and not settled yet (`unknown` included). */
export const UNSETTLED_STATUSES = ORDER_STATUSES.filter((s) => COUNTER_OF[s] === 'active');

/**
 * The order history's tabs (docs/rules.md#statuses): every order, or one customer counter each —
 * active (on its way, `unknown` included), completed, partial, and failed (the `error` counter:
 * error, stopped, refunded, cancelled).
 */
export const HISTORY_TABS = ['all', 'active', 'completed', 'partial', 'failed'] as const;
export type HistoryTab = (typeof HISTORY_TABS)[number];
/** Longest search of the order history. */
export const HISTORY_SEARCH_MAX = 200;
const COUNTER_OF_TAB: Record<Exclude<HistoryTab, 'all'>, OrderCounter> = { active: 'active', completed: 'completed', partial: 'partial', failed: 'error' };

/** The statuses a history tab lists; null for every order. */
export const statusesOfHistoryTab = (tab: HistoryTab): OrderStatus[] | null => (tab === 'all' ? null : statusesOfCounter(COUNTER_OF_TAB[tab]));

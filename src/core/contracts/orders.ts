import { z } from 'zod';
import { orderNoteSchema } from '../orderNotes';
import { HISTORY_SEARCH_MAX, HISTORY_TABS, ORDER_STATUSES } from '../orderStatus';

/** An order's id in an address. */
export const orderIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/** An order waiting at the provider with no progress past its service's usual start (src/core/orderDelay.ts). */
export const orderDelaySchema = z.object({ since: z.string(), usualMinutes: z.number().int() });

/** An order as its owner sees it. */
export const orderViewSchema = z.object({
  id: z.string(),
  number: z.string(),
  serviceId: z.string(),
  serviceName: z.string(),
  platform: z.string(),
  serviceType: z.string(),
  link: z.string(),
  quantity: z.number().int(),
  chargeMicros: z.number().int(),
  refundedMicros: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  startCount: z.number().int().nullable(),
  currentCount: z.number().int().nullable(),
  remains: z.number().int().nullable(),
  /** Why the order failed or waits: a code the page words, and the provider's message (docs/rules.md#statuses). */
  note: orderNoteSchema.nullable(),
  createdAt: z.string(),
  /** Delayed (docs/rules.md#delayed-orders): no progress past the service's usual start, in minutes; null otherwise. */
  delay: orderDelaySchema.nullable().optional(),
  /** The drip-feed this order is one run of. */
  parentId: z.string().nullable().optional(),
  /** A drip-feed parent: its runs, how many of them were written so far, the interval in minutes. */
  drip: z
    .object({ runs: z.number().int(), runsSent: z.number().int(), intervalMinutes: z.number().int(), quantityPerRun: z.number().int() })
    .nullable()
    .optional(),
});
export type OrderView = z.infer<typeof orderViewSchema>;

/**
 * The order history's page (docs/rules.md#screens), as the dashboard's address carries it: a tab
 * (`status`), a search (`q`: words of the order number, the link or the service; a run's number
 * finds its drip-feed) and the page, 20 orders a page.
 */
export const historyQuerySchema = z.strictObject({
  status: z.enum(HISTORY_TABS).default('all'),
  q: z.string().trim().max(HISTORY_SEARCH_MAX).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/** One page of the history: the orders placed (a drip-feed once), each drip-feed's runs beside them in `runs`. */
export const historyPageSchema = z.object({
  orders: z.array(orderViewSchema),
  runs: z.array(orderViewSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const orderStatsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  partial: z.number().int(),
  error: z.number().int(),
});
export type OrderStats = z.infer<typeof orderStatsSchema>;

/** The dashboard's first data in one answer (GET /api/orders/overview): the counters and the orders still active. */
export const orderOverviewSchema = z.object({ stats: orderStatsSchema, active: z.array(orderViewSchema) });
export type OrderOverview = z.infer<typeof orderOverviewSchema>;

/** Public tracking (docs/rules.md#tracking): no personal data, only what the order number already implies. */
export const trackResultSchema = z.object({
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  serviceName: z.string(),
  link: z.string(),
  quantity: z.number().int(),
  startCount: z.number().int().nullable(),
  currentCount: z.number().int().nullable(),
  delivered: z.number().int().nullable(),
  totalMicros: z.number().int(),
  createdAt: z.string(),
  delay: orderDelaySchema.nullable().optional(),
});
export type TrackResult = z.infer<typeof trackResultSchema>;

/** Order numbers customers see: "AR-" and 10 characters from an alphabet without look-alikes. */
export const ORDER_NUMBER_PATTERN = /^AR-[0-9A-HJKMNP-TV-Z]{10}$/;
export const orderNumberSchema = z.string().trim().toUpperCase().regex(ORDER_NUMBER_PATTERN);

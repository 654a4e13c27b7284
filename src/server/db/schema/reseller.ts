import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { OPEN_REFILL_STATUSES, REFILL_STATUSES, type RefillStatus } from '../../../core/refill';
import { sqlList } from '../sqlList';
import { users } from './auth';
import { orders } from './orders';
import { providers } from './providers';

/**
 * Keys of the reseller API (`/api/v2`). Only the SHA-256 of a key is stored: the key itself is
 * shown once, when it is created. `prefix` (its first characters) lets the owner tell keys apart.
 * A revoked key stays as a row (its last use remains visible) but never authenticates again.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_hash_unique').on(t.keyHash), index('api_keys_user_idx').on(t.userId, t.createdAt)],
);

/** Customers whose API access an admin turned off: their keys are refused while a row exists. */
export const apiAccessBlocks = pgTable('api_access_blocks', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  blockedBy: text('blocked_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});


/**
 * Refill requests of delivered orders, sent to the provider. `id` is the number the reseller API
 * answers with (`refill`), so it is a plain integer as the protocol's clients expect.
 */
export const orderRefills = pgTable(
  'order_refills',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ startWith: 5001 }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    status: text('status', { enum: REFILL_STATUSES }).$type<RefillStatus>().notNull().default('pending'),
    providerRefillId: text('provider_refill_id'),
    /** The provider asked for it: the one that holds the order (null: the default provider, docs/decisions/0016). */
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'restrict' }),
    /** The provider's own wording of the status, or why it refused. */
    providerStatus: text('provider_status'),
    /** Who asked: the customer on the site, through the API, or an admin. */
    source: text('source', { enum: ['site', 'api', 'admin'] }).notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_refills_order_idx').on(t.orderId, t.createdAt),
    index('order_refills_user_idx').on(t.userId),
    // One open refill per order: a second request waits until the first is settled.
    uniqueIndex('order_refills_one_open').on(t.orderId).where(sql`status in (${sqlList(OPEN_REFILL_STATUSES)})`),
  ],
);

/**
 * What an `order_cancels` row says (`result`): the cancel waits for the order's send to finish
 * (`waiting`), is on its way to the provider (`sending`), was accepted by it, or was carried out
 * here (before the order was sent, or a drip-feed's schedule stopped). Any other text says why it
 * did not go through (the provider's error, no answer, the order ended first): a new cancel of
 * the order may then be asked for.
 */
export const CANCEL_RESULT = {
  waiting: 'waiting',
  sending: 'sending',
  accepted: 'accepted',
  beforeSending: 'cancelled before sending',
  dripStopped: 'drip-feed stopped',
} as const;
/** The results of a cancel that was asked for and not refused: another request is refused. */
export const CANCEL_REQUESTED: string[] = Object.values(CANCEL_RESULT);

/** Cancel requests (one row per order: the latest request, `attempts` counting them). */
export const orderCancels = pgTable(
  'order_cancels',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['site', 'api', 'admin'] }).notNull(),
    /** See CANCEL_RESULT. */
    result: text('result').notNull(),
    /**
     * The provider last asked to cancel it (the one holding the order when it was asked; null: not
     * asked of any provider yet, or the default provider of docs/decisions/0016).
     */
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'restrict' }),
    attempts: integer('attempts').notNull().default(1),
    /** When the latest request was made, or the waiting cancel handed to the provider. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
);

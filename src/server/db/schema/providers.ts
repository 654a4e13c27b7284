import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const PROVIDER_PROTOCOLS = ['qqtube', 'smm-v2'] as const;

/**
 * The SMM providers the shop buys from (docs/decisions/0016-provider-registry.md). The API key is
 * kept encrypted (AES-256-GCM, src/server/providers/secrets.ts); `key_hint` is its last four
 * characters, all the admin ever sees of it again. The row `from_env` is the one the environment's
 * PROVIDER* variables created on a fresh shop (at most one).
 */
export const providers = pgTable(
  'providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    protocol: text('protocol', { enum: PROVIDER_PROTOCOLS }).notNull(),
    url: text('url').notNull(),
    keyEncrypted: text('key_encrypted').notNull(),
    keyHint: text('key_hint').notNull(),
    /** Calls per second the shop makes to it (0: as fast as the work comes, slowing down on its 429s). */
    callsPerSecond: integer('calls_per_second').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    fromEnv: boolean('from_env').notNull().default(false),
    /**
     * A further provider this process's start-up describes, by name (e.g. the sandbox's second
     * provider, `sandbox-2`): like the `from_env` row, created once, brought up to date at each
     * start and called as the process says; null for the providers the team added.
     */
    envSlot: text('env_slot'),
    /** The balance it last reported, as it wrote it (a decimal text), and its currency. */
    balance: text('balance'),
    balanceCurrency: text('balance_currency'),
    balanceAt: timestamp('balance_at', { withTimezone: true }),
    /**
     * An episode of the shop's money there running out (docs/rules.md#provider-funds): since when
     * it refused orders for want of funds (null: it has money, as far as the shop knows), and when
     * the team was told of this episode (once per episode).
     */
    fundsShortSince: timestamp('funds_short_since', { withTimezone: true }),
    fundsAlertedAt: timestamp('funds_alerted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('providers_from_env_idx').on(t.fromEnv).where(sql`${t.fromEnv}`),
    uniqueIndex('providers_env_slot_idx').on(t.envSlot).where(sql`${t.envSlot} is not null`),
    check('providers_calls_per_second_check', sql`${t.callsPerSecond} >= 0`),
  ],
);

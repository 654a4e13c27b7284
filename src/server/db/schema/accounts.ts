import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window counters for rate limits, shared by every instance through the database.
 * `key` names the rule and the subject (e.g. `sign-in:ip:203.0.113.5`).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);

/** Outgoing mail kept for reading at /dev/mailbox when no SMTP server is configured. */
export const devMailbox = pgTable(
  'dev_mailbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dev_mailbox_created_idx').on(t.createdAt)],
);

import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Who did what, when, to what: settings, roles, refunds, balance adjustments, deletions. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The team's filters (src/server/admin/audit.ts): one actor's or one action's entries, newest first.
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_actor_idx').on(t.actorId, t.createdAt), index('audit_log_action_idx').on(t.action, t.createdAt)],
);

/** Text in the three languages. */
export type Localized = { az: string; tr: string; en: string };
const EMPTY_LOCALIZED: Localized = { az: '', tr: '', en: '' };

/**
 * The agency's own marketing services (docs/rules.md#catalogue); price in AZN qəpik. Texts in
 * the three languages; `benefits` holds one benefit a line.
 */
export const localServices = pgTable(
  'services',
  {
    id: serial('id').primaryKey(),
    name: jsonb('name').$type<Localized>().notNull(),
    description: jsonb('description').$type<Localized>().notNull().default(EMPTY_LOCALIZED),
    details: jsonb('details').$type<Localized>().notNull().default(EMPTY_LOCALIZED),
    benefits: jsonb('benefits').$type<Localized>().notNull().default(EMPTY_LOCALIZED),
    priceQepik: bigint('price_qepik', { mode: 'number' }),
    category: text('category', { enum: ['standard', 'social_media'] }).notNull().default('social_media'),
    platform: text('platform'),
    icon: text('icon'),
    active: boolean('active').notNull().default(true),
    orderIndex: integer('order_index').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('services_price_non_negative', sql`${t.priceQepik} is null or ${t.priceQepik} >= 0`)],
);

export const blogPosts = pgTable('blog_posts', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: jsonb('title').$type<Localized>().notNull(),
  excerpt: jsonb('excerpt').$type<Localized>().notNull(),
  body: jsonb('body').$type<Localized>().notNull(),
  published: boolean('published').notNull().default(false),
  publishedOn: date('published_on', { mode: 'string' }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const faqItems = pgTable('faq_items', {
  id: serial('id').primaryKey(),
  question: jsonb('question').$type<Localized>().notNull(),
  answer: jsonb('answer').$type<Localized>().notNull(),
  orderIndex: integer('order_index').notNull().default(0),
  published: boolean('published').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

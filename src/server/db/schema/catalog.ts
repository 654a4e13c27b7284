import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { PriceTier, ServiceParam } from '../../../core/catalog';

/**
 * The provider's catalogue, copied into the database so pages never wait on the provider and
 * prices are computed from the server's own copy. `active` is false for services the provider no
 * longer lists (kept so old orders still show their service).
 */
export const catalogServices = pgTable('catalog_services', {
  id: text('id').primaryKey(),
  platform: text('platform').notNull(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  description: text('description'),
  example: text('example'),
  amountMinimum: integer('amount_minimum').notNull(),
  amountIncrement: integer('amount_increment').notNull(),
  tiers: jsonb('tiers').$type<PriceTier[]>().notNull(),
  params: jsonb('params').$type<ServiceParam[]>().notNull(),
  refill: boolean('refill').notNull().default(false),
  /** Days after the order in which a refill may be asked for; null: the provider names no period. */
  refillDays: integer('refill_days'),
  cancel: boolean('cancel').notNull().default(false),
  /** The service may be ordered as a drip-feed: runs of the same quantity sent at an interval. */
  dripfeed: boolean('dripfeed').notNull().default(false),
  active: boolean('active').notNull().default(true),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per-language display names (docs/rules.md#catalogue): words of provider names (the keyword) → their az or
 * tr wording, applied by src/core/serviceNames.ts; `service_id` limits a name to one service.
 */
export const serviceCustomNames = pgTable(
  'service_custom_names',
  {
    id: serial('id').primaryKey(),
    apiServiceName: text('api_service_name').notNull(),
    languageCode: text('language_code', { enum: ['az', 'tr'] }).notNull(),
    customName: text('custom_name').notNull(),
    serviceId: text('service_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('service_custom_names_unique').on(t.apiServiceName, t.languageCode),
    check('service_custom_names_lang', sql`${t.languageCode} in ('az', 'tr')`),
  ],
);

/**
 * An admin's wording of a provider param kind in one language (src/core/paramTexts.ts): null
 * columns keep the storefront's own text. `kind` is a known kind or an unknown field name's key.
 */
export const paramTextOverrides = pgTable(
  'param_text_overrides',
  {
    kind: text('kind').notNull(),
    lang: text('lang', { enum: ['az', 'tr', 'en'] }).notNull(),
    label: text('label'),
    hint: text('hint'),
    placeholder: text('placeholder'),
    required: text('required_message'),
    invalid: text('invalid_message'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.lang] }), check('param_text_overrides_lang', sql`${t.lang} in ('az', 'tr', 'en')`)],
);

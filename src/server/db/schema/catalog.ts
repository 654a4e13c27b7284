import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PROVIDER_SERVICE_CHANGE_KINDS, type PriceTier, type ProviderServiceChangeKind, type ProviderServiceTerms, type ServiceParam } from '../../../core/catalog';
import { providers } from './providers';

/**
 * The shop's own services (docs/decisions/0017): what customers and resellers order, by the
 * shop's stable id. A service is bought from the provider services listed for it in
 * `service_sources` (primary first); its `tiers` are the selling price before the site's fees:
 * the primary source's price with the service's markup (`markup_percent`, and
 * `markup_fixed_micros` USD micro-dollars per 1000 units). Services from before keep their ids
 * (the default provider's ids) and a markup of 0. `active` is false for a paused service: none of
 * its provider services is listed any more, or the team paused it; it is never deleted, so old
 * orders still show it and open ones are still followed.
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
  markupPercent: numeric('markup_percent', { precision: 10, scale: 4 }).notNull().default('0'),
  markupFixedMicros: bigint('markup_fixed_micros', { mode: 'number' }).notNull().default(0),
});

/**
 * Each provider's catalogue as the shop last read it (docs/decisions/0017): the provider's own
 * service ids and terms, its price being what an order costs the shop. Never deleted: a service
 * the provider stopped listing has `present` false (and is routed to no more).
 */
export const providerServices = pgTable(
  'provider_services',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'restrict' }),
    serviceId: text('service_id').notNull(),
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
    refillDays: integer('refill_days'),
    cancel: boolean('cancel').notNull().default(false),
    dripfeed: boolean('dripfeed').notNull().default(false),
    present: boolean('present').notNull().default(true),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.serviceId] })],
);

/**
 * Where a service is bought: its provider services in the order they are tried (position 0 is
 * the primary). One provider at most once per service, so moving on always means another
 * provider. A service without rows is bought from the default provider under its own id (the
 * services of a shop before several providers, until the first catalogue read adopts them).
 */
export const serviceSources = pgTable(
  'service_sources',
  {
    serviceId: text('service_id')
      .notNull()
      .references(() => catalogServices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'restrict' }),
    providerServiceId: text('provider_service_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.position] }),
    unique('service_sources_one_per_provider').on(t.serviceId, t.providerId),
    index('service_sources_provider_idx').on(t.providerId, t.providerServiceId),
    check('service_sources_position', sql`${t.position} >= 0`),
  ],
);

/**
 * What a catalogue read found changed at a provider (new, removed, price, min/max), kept for the
 * team to approve or dismiss. `before`/`after` are the provider service's terms. One open change
 * per provider service and kind: a later read updates its `after`.
 */
export const providerServiceChanges = pgTable(
  'provider_service_changes',
  {
    id: serial('id').primaryKey(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'restrict' }),
    serviceId: text('service_id').notNull(),
    kind: text('kind', { enum: PROVIDER_SERVICE_CHANGE_KINDS }).$type<ProviderServiceChangeKind>().notNull(),
    before: jsonb('before').$type<ProviderServiceTerms>(),
    after: jsonb('after').$type<ProviderServiceTerms>(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decision: text('decision', { enum: ['applied', 'dismissed'] }),
    decidedBy: text('decided_by'),
  },
  (t) => [
    uniqueIndex('provider_service_changes_open').on(t.providerId, t.serviceId, t.kind).where(sql`${t.decidedAt} is null`),
    check('provider_service_changes_kind', sql`${t.kind} in ('new', 'removed', 'price', 'limits')`),
  ],
);

/**
 * Per-language display names (docs/rules.md#catalogue): words of provider names (the keyword) → their az or
 * tr wording, applied by src/core/serviceNames.ts; `service_id` limits a name to one service. Keywords
 * match in any letter case, so one keyword has one wording per language whatever its case.
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
    uniqueIndex('service_custom_names_keyword_unique').on(sql`lower(${t.apiServiceName})`, t.languageCode),
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

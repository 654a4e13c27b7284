import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  CONSULTATION_SERVICES,
  CONSULTATION_STATUSES,
  SUPPORT_LIMITS as L,
  TICKET_PRIORITIES,
  TICKET_REQUESTS,
  TICKET_STATUSES,
  type ConsultationService,
  type ConsultationStatus,
  type TicketOrderOutcome,
  type TicketPriority,
  type TicketRequest,
  type TicketStatus,
} from '../../../core/contracts/support';
import { users } from './auth';
import { orders } from './orders';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Support tickets (docs/rules.md#support): a customer's question and its conversation with the team.
 * `updated_at` moves with every message and status change, so the inbox sorts by activity.
 */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    priority: text('priority', { enum: TICKET_PRIORITIES }).$type<TicketPriority>().notNull().default('normal'),
    status: text('status', { enum: TICKET_STATUSES }).$type<TicketStatus>().notNull().default('open'),
    /** The customer's site language when the ticket was opened: the team's reply mail uses it. */
    language: text('language').notNull().default('en'),
    /** A ticket about orders: what it asks for (its orders in `support_ticket_orders`); null otherwise. */
    request: text('request', { enum: TICKET_REQUESTS }).$type<TicketRequest>(),
    /** The customer's key of the submission: the same key again answers this ticket, never a second one. */
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_tickets_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('support_tickets_user_key_unique').on(t.userId, t.idempotencyKey),
    check('support_tickets_request_valid', sql`${t.request} is null or ${t.request} in (${list(TICKET_REQUESTS)})`),
    index('support_tickets_updated_idx').on(t.updatedAt),
    check('support_tickets_priority_valid', sql`${t.priority} in (${list(TICKET_PRIORITIES)})`),
    check('support_tickets_status_valid', sql`${t.status} in (${list(TICKET_STATUSES)})`),
    check('support_tickets_title_length', sql`char_length(${t.title}) between 1 and ${sql.raw(String(L.ticketTitle))}`),
    check('support_tickets_description_length', sql`char_length(${t.description}) between 1 and ${sql.raw(String(L.ticketDescription))}`),
  ],
);

/** Messages of a ticket; `is_admin` marks the team's replies (shown on the left). */
export const supportTicketMessages = pgTable(
  'support_ticket_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * The shop's own answer to a refill or cancel request (written with `is_admin`): each order's
     * outcome as codes, worded in the reader's language; `message` holds the same in English.
     */
    outcomes: jsonb('outcomes').$type<TicketOrderOutcome[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_ticket_messages_ticket_idx').on(t.ticketId, t.createdAt),
    check('support_ticket_messages_length', sql`char_length(${t.message}) between 1 and ${sql.raw(String(L.message))}`),
  ],
);

/** The orders a ticket is about (the customer's own, checked when it was opened), in the order named. */
export const supportTicketOrders = pgTable(
  'support_ticket_orders',
  {
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.orderId] }), index('support_ticket_orders_order_idx').on(t.orderId)],
);

/** Consultation requests from the services pages (signed-in customers only). */
export const consultations = pgTable(
  'consultations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    service: text('service', { enum: CONSULTATION_SERVICES }).$type<ConsultationService>().notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: CONSULTATION_STATUSES }).$type<ConsultationStatus>().notNull().default('new'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('consultations_created_idx').on(t.createdAt),
    check('consultations_status_valid', sql`${t.status} in (${list(CONSULTATION_STATUSES)})`),
    check('consultations_service_valid', sql`${t.service} in (${list(CONSULTATION_SERVICES)})`),
    check('consultations_name_length', sql`char_length(${t.name}) between 2 and ${sql.raw(String(L.name))}`),
    check('consultations_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(L.email))}`),
    check('consultations_phone_length', sql`char_length(${t.phone}) between ${sql.raw(String(L.phoneMin))} and ${sql.raw(String(L.phoneMax))}`),
    check('consultations_message_length', sql`char_length(${t.message}) between ${sql.raw(String(L.consultationMessageMin))} and ${sql.raw(String(L.message))}`),
  ],
);

/**
 * Messages from the public contact form (docs/rules.md#support). The API only ever writes the three known
 * statuses; the column has no CHECK so that rows imported from elsewhere keep their value, which
 * the admin page shows as unknown (docs/rules.md#support).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status').notNull().default('new'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contact_messages_created_idx').on(t.createdAt),
    check('contact_messages_name_length', sql`char_length(${t.name}) between 1 and ${sql.raw(String(L.name))}`),
    check('contact_messages_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(L.email))}`),
    check('contact_messages_subject_length', sql`char_length(${t.subject}) between 1 and ${sql.raw(String(L.subject))}`),
    check('contact_messages_message_length', sql`char_length(${t.message}) between 1 and ${sql.raw(String(L.contactMessage))}`),
  ],
);


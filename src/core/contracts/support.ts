import { z } from 'zod';

/**
 * Support tickets, consultation requests and contact messages (docs/rules.md#support).
 * One schema per form, used by the browser form and by the server route alike. Validation
 * messages are keys in the `support` locale namespace (`validation.<key>`), so each form shows
 * the fixed wording in the visitor's language.
 */

export * from './supportConstants';
import {
  CONSULTATION_SERVICES,
  CONSULTATION_STATUSES,
  SUPPORT_LIMITS,
  TICKET_PRIORITIES,
  TICKET_REQUESTS,
  TICKET_STATUSES,
  type ConsultationService,
  type ConsultationStatus,
  type TicketPriority,
  type TicketRequest,
  type TicketStatus,
} from './supportConstants';
import type { ErrorCode } from '../errors';
import type { OrderStatus } from '../orderStatus';
import { customerIdempotencyKeySchema } from './orderInput';
import { orderNumberSchema } from './orders';

const L = SUPPORT_LIMITS;
const required = (max: number, key: string) => z.string().trim().min(1, `${key}Required`).max(max, 'tooLong');
const email = z.string().trim().max(L.email, 'tooLong').pipe(z.email('emailInvalid'));

// ─── Tickets ──────────────────────────────────────────────────────────────────────────────

/**
 * A ticket; one about orders names the request and one or more of the customer's order numbers
 * (each once, at most `SUPPORT_LIMITS.ticketOrders`). `key` makes a repeated submission (a double
 * click, a retry) answer the first ticket instead of opening another; the form sends one.
 */
export const createTicketSchema = z
  .strictObject({
    title: required(L.ticketTitle, 'title'),
    description: required(L.ticketDescription, 'description'),
    priority: z.enum(TICKET_PRIORITIES).default('normal'),
    request: z.enum(TICKET_REQUESTS, 'requestInvalid').optional(),
    orders: z
      .array(orderNumberSchema.pipe(z.string()), 'ordersInvalid')
      .max(L.ticketOrders, 'ordersTooMany')
      .transform((numbers) => [...new Set(numbers)])
      .optional(),
    key: customerIdempotencyKeySchema.optional(),
  })
  .superRefine((t, ctx) => {
    if (t.request && !t.orders?.length) ctx.addIssue({ code: 'custom', path: ['orders'], message: 'ordersRequired' });
    if (!t.request && t.orders?.length) ctx.addIssue({ code: 'custom', path: ['request'], message: 'requestRequired' });
  });
export type CreateTicketInput = z.input<typeof createTicketSchema>;

export const ticketMessageSchema = z.strictObject({ message: required(L.message, 'message') });
export type TicketMessageInput = z.input<typeof ticketMessageSchema>;

export const ticketStatusSchema = z.strictObject({ status: z.enum(TICKET_STATUSES) });

/** Query of the team's inbox: optional filters and a search over title, description and e-mail. */
export const ticketListQuerySchema = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  q: z.string().trim().max(L.search).optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

export interface TicketView {
  id: string;
  title: string;
  description: string;
  priority: TicketPriority;
  status: TicketStatus;
  /** What a ticket about orders asks for; null for any other ticket. */
  request: TicketRequest | null;
  /** The numbers of the orders it is about, as the customer named them. */
  orders: string[];
  /**
   * The team (or the shop's own answer) wrote last on a ticket still open or in progress: screens
   * show it as answered (docs/rules.md#support).
   */
  answered: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What became of one order of a refill or cancel request, answered in the thread. */
export interface TicketOrderOutcome {
  number: string;
  action: 'refill' | 'cancel';
  result: 'done' | 'refused';
  /** After a cancel: the order's status then (cancelled at once, or still on its way while the provider settles it). */
  status?: OrderStatus;
  /** A refusal: its error code, its reason code (worded by the site) and the provider's words. */
  code?: ErrorCode;
  reason?: string;
  message?: string;
  hours?: number;
}

/** An order a ticket is about, as the team sees it beside the thread. */
export interface TicketOrderView {
  id: string;
  number: string;
  status: OrderStatus;
  serviceId: string;
  serviceName: string;
  link: string;
  quantity: number;
  startCount: number | null;
  remains: number | null;
  providerOrderId: string | null;
  chargeMicros: number;
  refundedMicros: number;
  createdAt: string;
}

/** A ticket in the team's inbox: who opened it and how the conversation stands. */
export interface AdminTicketView extends TicketView {
  userId: string;
  userEmail: string;
  userName: string;
  messageCount: number;
  lastMessageAt: string | null;
}

export interface TicketMessageView {
  id: string;
  ticketId: string;
  message: string;
  isAdmin: boolean;
  /** The shop's own answer to a refill or cancel request: each order's outcome, worded by the reader's screen. */
  outcomes: TicketOrderOutcome[] | null;
  createdAt: string;
}

// ─── Consultations ────────────────────────────────────────────────────────────────────────

export const consultationSchema = z.strictObject({
  name: z.string().trim().min(2, 'nameMin').max(L.name, 'tooLong'),
  email,
  phone: z.string().trim().min(L.phoneMin, 'phoneMin').max(L.phoneMax, 'tooLong'),
  service: z.enum(CONSULTATION_SERVICES, 'serviceRequired'),
  message: z.string().trim().min(L.consultationMessageMin, 'consultationMessageMin').max(L.message, 'tooLong'),
});
export type ConsultationInput = z.input<typeof consultationSchema>;

export const consultationStatusSchema = z.strictObject({ status: z.enum(CONSULTATION_STATUSES) });

export interface ConsultationView {
  id: string;
  userId: string;
  name: string;
  email: string;
  phone: string;
  service: ConsultationService;
  message: string;
  status: ConsultationStatus;
  createdAt: string;
}

// ─── Contact messages ─────────────────────────────────────────────────────────────────────

/**
 * The public contact form. `website` is a honeypot: the field is hidden from people, so only a
 * bot fills it; the server then answers as if accepted and stores nothing.
 */
export const contactMessageSchema = z.strictObject({
  name: required(L.name, 'name'),
  email: z.string().trim().min(1, 'emailRequired').max(L.email, 'tooLong').pipe(z.email('emailInvalid')),
  subject: required(L.subject, 'subject'),
  message: required(L.contactMessage, 'message'),
  website: z.string().max(500).optional(),
});
export type ContactMessageInput = z.input<typeof contactMessageSchema>;

export interface ContactMessageView {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  /** One of CONTACT_STATUSES; anything else stored is shown as unknown (docs/rules.md#support). */
  status: string;
  createdAt: string;
}

export interface ContactCounts {
  total: number;
  new: number;
  read: number;
  replied: number;
}

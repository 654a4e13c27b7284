import type { z } from 'zod';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  SUPPORT_LIMITS,
  consultationSchema,
  contactMessageSchema,
  createTicketSchema,
  ticketMessageSchema,
  type AdminTicketView,
  type ConsultationStatus,
  type ConsultationView,
  type ContactCounts,
  type ContactMessageView,
  isCarriedOut,
  type TicketListQuery,
  type TicketMessageInput,
  type TicketMessageView,
  type TicketOrderOutcome,
  type TicketOrderView,
  type TicketStatus,
  type TicketView,
} from '../../core/contracts/support';
import { AppError } from '../../core/errors';
import { rolesWith } from '../../core/permissions';
import { isLanguage, type Language } from '../../core/i18n';
import { audit, type Actor } from '../admin';
import type { Db } from '../db/client';
import { consultations, contactMessages, orders, supportTicketMessages, supportTicketOrders, supportTickets, userRoles, users } from '../db/schema';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { RealtimeHub } from '../realtime';
import { getSettings } from '../settings';
import { cancelOrders, type OrderRow, type OrdersDeps } from '../orders';
import { refillAndTell } from '../reseller';
import { teamNoticeMail, ticketReplyMail } from './mail';

export interface SupportDeps {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  realtime?: RealtimeHub;
  publicUrl: string;
  /** The order rules' dependencies (providers), for refill and cancel requests; absent without a provider. */
  orders?: OrdersDeps;
}

/** The admin doing something that the audit log keeps (replies, status changes and deletions). */
export type { Actor };

type TicketRow = typeof supportTickets.$inferSelect;
type MessageRow = typeof supportTicketMessages.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id from the path: anything that is not a uuid cannot name a row, so it is simply not found. */
const idOrNotFound = (id: string, what = 'ticket'): string => {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', `No such ${what}.`);
  return id.toLowerCase();
};

/**
 * What a ticket's views read beside its row: the numbers of its orders in the order named, and
 * whether the team (or the shop's own answer) wrote last.
 */
// Written with their own aliases: a select from the tickets table alone names its columns unqualified.
const ticketExtras = {
  orderNumbers: sql<string[] | null>`(select json_agg(o.number order by sto.position) from support_ticket_orders sto join orders o on o.id = sto.order_id where sto.ticket_id = "support_tickets"."id")`,
  lastFromTeam: sql<boolean | null>`(select m.is_admin from support_ticket_messages m where m.ticket_id = "support_tickets"."id" order by m.created_at desc, m.id desc limit 1)`,
};
type Extras = { orderNumbers: unknown; lastFromTeam: unknown };

const jsonOf = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** Answered: the team wrote last on a ticket still open or in progress (docs/rules.md#support). */
export const toTicketView = (t: TicketRow, extras: Extras = { orderNumbers: null, lastFromTeam: null }): TicketView => ({
  id: t.id,
  title: t.title,
  description: t.description,
  priority: t.priority,
  status: t.status,
  request: t.request ?? null,
  orders: jsonOf<string[] | null>(extras.orderNumbers) ?? [],
  answered: extras.lastFromTeam === true && (t.status === 'open' || t.status === 'in_progress'),
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

export const toMessageView = (m: MessageRow): TicketMessageView => ({
  id: m.id,
  ticketId: m.ticketId,
  message: m.message,
  isAdmin: m.isAdmin,
  outcomes: m.outcomes ?? null,
  createdAt: m.createdAt.toISOString(),
});

/** Live notices for the team's open inboxes: one event per member whose role answers tickets, never a broadcast to customers. */
async function notifyTeam(deps: SupportDeps, ticketId: string): Promise<void> {
  if (!deps.realtime) return;
  const team = await deps.db.selectDistinct({ id: userRoles.userId }).from(userRoles).where(inArray(userRoles.role, rolesWith('support:answer')));
  await Promise.all(team.map((a) => deps.realtime!.publish(a.id, { type: 'admin_ticket', ticketId }))).catch((err) =>
    deps.logger.warn({ err }, 'support: team notice not published'),
  );
}

async function notifyCustomer(deps: SupportDeps, userId: string, ticketId: string): Promise<void> {
  await deps.realtime?.publish(userId, { type: 'ticket', ticketId }).catch((err) => deps.logger.warn({ err }, 'support: customer notice not published'));
}

// ─── The customer's side ──────────────────────────────────────────────────────────────────

export async function listOwnTickets(db: Db, userId: string): Promise<TicketView[]> {
  const rows = await db
    .select({ ticket: supportTickets, ...ticketExtras })
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt));
  return rows.map((r) => toTicketView(r.ticket, r));
}

/**
 * The customer's orders of these numbers, in the order named. An order that is not theirs is not
 * told apart from one that does not exist: both are named back as not found.
 */
async function ownOrdersByNumber(db: Db, userId: string, numbers: string[]): Promise<OrderRow[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.number, numbers)));
  const byNumber = new Map(rows.map((o) => [o.number, o]));
  const missing = numbers.filter((n) => !byNumber.has(n));
  if (missing.length) throw new AppError('ORDER_NOT_FOUND', `No such order: ${missing.join(', ')}.`, { numbers: missing.join(', '), count: missing.length });
  return numbers.map((n) => byNumber.get(n)!);
}

/**
 * A new ticket (docs/rules.md#support). One about orders is written with its orders (the
 * customer's own), and a refill or cancel request is then carried out by the order rules, outside
 * the ticket's transaction, and answered in the thread. The same `key` again answers the first
 * ticket and does nothing more, however close together the two arrive.
 */
export async function createTicket(deps: SupportDeps, userId: string, input: z.input<typeof createTicketSchema>, language: Language): Promise<TicketView> {
  const data = createTicketSchema.parse(input);
  const linked = data.request && data.orders?.length ? await ownOrdersByNumber(deps.db, userId, data.orders) : [];
  const created = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(supportTickets)
      .values({ userId, title: data.title, description: data.description, priority: data.priority, language, request: data.request ?? null, idempotencyKey: data.key ?? null })
      .onConflictDoNothing({ target: [supportTickets.userId, supportTickets.idempotencyKey] })
      .returning();
    if (row && linked.length) await tx.insert(supportTicketOrders).values(linked.map((o, position) => ({ ticketId: row.id, orderId: o.id, position })));
    return row;
  });
  if (!created) return ownTicketView(deps.db, userId, and(eq(supportTickets.userId, userId), eq(supportTickets.idempotencyKey, data.key!))!);
  await notifyTeam(deps, created.id);
  if (isCarriedOut(created.request)) await carryOut(deps, created, linked, created.request);
  return ownTicketView(deps.db, userId, eq(supportTickets.id, created.id));
}

async function ownTicketView(db: Db, userId: string, where: SQL): Promise<TicketView> {
  const [r] = await db
    .select({ ticket: supportTickets, ...ticketExtras })
    .from(supportTickets)
    .where(and(eq(supportTickets.userId, userId), where))
    .limit(1);
  if (!r) throw new AppError('NOT_FOUND', 'No such ticket.');
  return toTicketView(r.ticket, r);
}

/** At most `limit` of `work` at a time, results in the order of `items`. */
async function eachLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** An outcome refused with the error's code, reason code and the provider's words. */
function refusedOutcome(deps: SupportDeps, o: OrderRow, action: TicketOrderOutcome['action'], err: unknown): TicketOrderOutcome {
  if (!(err instanceof AppError)) {
    deps.logger.error({ err, order: o.id }, `support: ${action} request failed`);
    return { number: o.number, action, result: 'refused', code: 'INTERNAL' };
  }
  const d = (err.details ?? {}) as { reason?: unknown; message?: unknown; hours?: unknown };
  return {
    number: o.number,
    action,
    result: 'refused',
    code: err.code,
    ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
    ...(typeof d.message === 'string' ? { message: d.message.slice(0, 300) } : {}),
    ...(typeof d.hours === 'number' ? { hours: d.hours } : {}),
  };
}

/** The English wording of the outcomes, kept as the message's text (screens word the codes themselves). */
function outcomesText(outcomes: TicketOrderOutcome[]): string {
  const line = (x: TicketOrderOutcome) =>
    x.result === 'done'
      ? `${x.number}: ${x.action === 'refill' ? 'refill requested' : `cancel accepted (${x.status ?? 'pending'})`}`
      : `${x.number}: ${x.action} refused${x.message ? ` (${x.message})` : x.reason ? ` (${x.reason})` : x.code ? ` (${x.code})` : ''}`;
  return outcomes.map(line).join('\n').slice(0, SUPPORT_LIMITS.message);
}

/**
 * Carries out a refill or cancel request through the rules of the order history's buttons
 * (`refillAndTell`: src/server/reseller/actions.ts; `cancelOrders`: src/server/orders/cancels.ts),
 * each asking the provider outside any transaction, then answers each order's outcome in the
 * thread as the shop's message, which marks the ticket answered (in progress).
 */
async function carryOut(deps: SupportDeps, ticket: TicketRow, rows: OrderRow[], request: 'refill' | 'cancel'): Promise<void> {
  const od = deps.orders;
  let outcomes: TicketOrderOutcome[];
  if (!od) {
    outcomes = rows.map((o) => ({ number: o.number, action: request, result: 'refused', code: 'PROVIDER_NO_ANSWER' }));
  } else if (request === 'refill') {
    outcomes = await eachLimited(rows, 4, async (o): Promise<TicketOrderOutcome> => {
      try {
        await refillAndTell(od, o, 'site');
        return { number: o.number, action: 'refill', result: 'done' };
      } catch (err) {
        return refusedOutcome(deps, o, 'refill', err);
      }
    });
  } else {
    let results: Awaited<ReturnType<typeof cancelOrders>>;
    try {
      results = await cancelOrders(od, rows, 'site');
    } catch (err) {
      results = new Map(rows.map((o) => [o.id, { refused: err as AppError }]));
    }
    outcomes = rows.map((o): TicketOrderOutcome => {
      const r = results.get(o.id);
      if (!r || 'refused' in r) return refusedOutcome(deps, o, 'cancel', r?.refused);
      return { number: o.number, action: 'cancel', result: 'done', status: r.order.status };
    });
    // Told to the owner's open pages, as a cancel from the history is.
    for (const o of rows) {
      const r = results.get(o.id);
      if (r && 'order' in r) await od.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: r.order.status }).catch(() => {});
    }
  }
  await deps.db.transaction(async (tx) => {
    await tx.insert(supportTicketMessages).values({ ticketId: ticket.id, userId: ticket.userId, message: outcomesText(outcomes), isAdmin: true, outcomes });
    await tx
      .update(supportTickets)
      .set({ updatedAt: sql`now()`, status: sql`case when ${supportTickets.status} = 'open' then 'in_progress' else ${supportTickets.status} end` })
      .where(eq(supportTickets.id, ticket.id));
  });
  await notifyCustomer(deps, ticket.userId, ticket.id);
  await notifyTeam(deps, ticket.id);
}

/** The ticket when it belongs to this customer; NOT_FOUND otherwise, so another's ticket stays unseen. */
async function ownTicket(db: Db, userId: string, ticketId: string): Promise<TicketRow> {
  const id = idOrNotFound(ticketId);
  const [row] = await db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.id, id), eq(supportTickets.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'No such ticket.');
  return row;
}

const messagesOf = async (db: Db, ticketId: string) =>
  (
    await db
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, ticketId))
      .orderBy(asc(supportTicketMessages.createdAt), asc(supportTicketMessages.id))
  ).map(toMessageView);

/** A customer's own ticket and its messages, oldest first. */
export async function ownThread(db: Db, userId: string, ticketId: string): Promise<{ ticket: TicketView; messages: TicketMessageView[] }> {
  const ticket = await ownTicket(db, userId, ticketId);
  return { ticket: await ownTicketView(db, userId, eq(supportTickets.id, ticket.id)), messages: await messagesOf(db, ticket.id) };
}

/**
 * A customer's message on their own ticket opens it again (in progress, resolved or closed), so
 * the team sees that the conversation goes on and it waits for them.
 */
export async function postOwnMessage(deps: SupportDeps, userId: string, ticketId: string, input: z.input<typeof ticketMessageSchema>): Promise<TicketMessageView> {
  const ticket = await ownTicket(deps.db, userId, ticketId);
  const { message } = ticketMessageSchema.parse(input);
  const row = await deps.db.transaction(async (tx) => {
    const [m] = await tx.insert(supportTicketMessages).values({ ticketId: ticket.id, userId, message, isAdmin: false }).returning();
    await tx
      .update(supportTickets)
      .set({
        updatedAt: sql`now()`,
        status: 'open',
      })
      .where(eq(supportTickets.id, ticket.id));
    return m!;
  });
  await notifyTeam(deps, ticket.id);
  return toMessageView(row);
}

// ─── The team's side ──────────────────────────────────────────────────────────────────────

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const messageCount = sql<number>`(select count(*)::int from ${supportTicketMessages} where ${supportTicketMessages.ticketId} = ${supportTickets.id})`;
const lastMessageAt = sql<string | null>`(select max(${supportTicketMessages.createdAt}) from ${supportTicketMessages} where ${supportTicketMessages.ticketId} = ${supportTickets.id})`;

const adminColumns = {
  ticket: supportTickets,
  ...ticketExtras,
  userEmail: users.email,
  userName: users.name,
  messageCount,
  lastMessageAt,
};

const toAdminView = (r: { ticket: TicketRow; userEmail: string; userName: string; messageCount: number; lastMessageAt: unknown } & Extras): AdminTicketView => ({
  ...toTicketView(r.ticket, r),
  userId: r.ticket.userId,
  userEmail: r.userEmail,
  userName: r.userName,
  messageCount: Number(r.messageCount),
  lastMessageAt: r.lastMessageAt ? new Date(r.lastMessageAt as string).toISOString() : null,
});

/** The inbox: every ticket, most recently active first, filtered and searched (title, description, e-mail). */
export async function listAllTickets(db: Db, q: TicketListQuery): Promise<AdminTicketView[]> {
  const where: SQL[] = [];
  if (q.status) where.push(eq(supportTickets.status, q.status));
  if (q.priority) where.push(eq(supportTickets.priority, q.priority));
  if (q.q) {
    const pattern = `%${escapeLike(q.q)}%`;
    where.push(or(ilike(supportTickets.title, pattern), ilike(supportTickets.description, pattern), ilike(users.email, pattern))!);
  }
  const rows = await db
    .select(adminColumns)
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(supportTickets.updatedAt))
    .limit(500);
  return rows.map(toAdminView);
}

async function adminTicket(db: Db, ticketId: string): Promise<AdminTicketView> {
  const id = idOrNotFound(ticketId);
  const [row] = await db.select(adminColumns).from(supportTickets).innerJoin(users, eq(users.id, supportTickets.userId)).where(eq(supportTickets.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'No such ticket.');
  return toAdminView(row);
}

/** The orders a ticket is about, as they are now, in the order named. */
async function ticketOrders(db: Db, ticketId: string): Promise<TicketOrderView[]> {
  const rows = await db
    .select({ o: orders })
    .from(supportTicketOrders)
    .innerJoin(orders, eq(orders.id, supportTicketOrders.orderId))
    .where(eq(supportTicketOrders.ticketId, ticketId))
    .orderBy(asc(supportTicketOrders.position));
  return rows.map(({ o }) => ({
    id: o.id,
    number: o.number,
    status: o.status,
    serviceId: o.serviceId,
    serviceName: o.serviceName,
    link: o.link,
    quantity: o.quantity,
    startCount: o.startCount,
    remains: o.remains,
    providerOrderId: o.providerOrderId,
    chargeMicros: o.chargeMicros,
    refundedMicros: o.refundedMicros,
    createdAt: o.createdAt.toISOString(),
  }));
}

/** A ticket for the team: the conversation, and the orders it is about as they are now. */
export async function adminThread(db: Db, ticketId: string): Promise<{ ticket: AdminTicketView; messages: TicketMessageView[]; orders: TicketOrderView[] }> {
  const ticket = await adminTicket(db, ticketId);
  const [messages, linked] = await Promise.all([messagesOf(db, ticket.id), ticketOrders(db, ticket.id)]);
  return { ticket, messages, orders: linked };
}

/**
 * The team's reply: stored with is_admin and audited, pushed live to the customer and sent to them
 * by e-mail. An open ticket is then in progress: answered, no longer waiting for the team.
 */
export async function replyToTicket(deps: SupportDeps, actor: Actor, ticketId: string, { message }: TicketMessageInput): Promise<TicketMessageView> {
  const ticket = await adminTicket(deps.db, ticketId);
  const row = await deps.db.transaction(async (tx) => {
    const [m] = await tx.insert(supportTicketMessages).values({ ticketId: ticket.id, userId: actor.id, message, isAdmin: true }).returning();
    await tx
      .update(supportTickets)
      .set({ updatedAt: sql`now()`, status: sql`case when ${supportTickets.status} = 'open' then 'in_progress' else ${supportTickets.status} end` })
      .where(eq(supportTickets.id, ticket.id));
    await audit(tx, actor, 'support.ticket.reply', { type: 'support_ticket', id: ticket.id }, { messageId: m!.id });
    return m!;
  });
  await notifyCustomer(deps, ticket.userId, ticket.id);
  await notifyTeam(deps, ticket.id);

  // The reply is saved whatever happens to the mail; a refused mail is logged for the team.
  try {
    const [lang] = await deps.db.select({ language: supportTickets.language }).from(supportTickets).where(eq(supportTickets.id, ticket.id));
    const language: Language = isLanguage(lang?.language) ? lang.language : 'en';
    const settings = await getSettings(deps.db);
    await deps.mailer.send(
      ticketReplyMail({
        to: ticket.userEmail,
        name: ticket.userName,
        title: ticket.title,
        reply: message,
        link: `${deps.publicUrl}/${language}/dashboard#support`,
        lang: language,
        siteName: settings.site_name,
      }),
    );
  } catch (err) {
    deps.logger.warn({ err, ticketId: ticket.id }, 'support: reply mail not sent');
  }
  return toMessageView(row);
}

export async function setTicketStatus(deps: SupportDeps, actor: Actor, ticketId: string, status: TicketStatus): Promise<AdminTicketView> {
  const id = idOrNotFound(ticketId);
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ status: supportTickets.status }).from(supportTickets).where(eq(supportTickets.id, id)).for('update');
    if (!before) throw new AppError('NOT_FOUND', 'No such ticket.');
    const [r] = await tx.update(supportTickets).set({ status, updatedAt: sql`now()` }).where(eq(supportTickets.id, id)).returning({ userId: supportTickets.userId });
    await audit(tx, actor, 'support.ticket.status', { type: 'support_ticket', id }, { from: before.status, to: status });
    return r!;
  });
  await notifyCustomer(deps, row.userId, id);
  await notifyTeam(deps, id);
  return adminTicket(deps.db, id);
}

// ─── Consultations ────────────────────────────────────────────────────────────────────────

const toConsultationView = (r: typeof consultations.$inferSelect): ConsultationView => ({
  id: r.id,
  userId: r.userId,
  name: r.name,
  email: r.email,
  phone: r.phone,
  service: r.service,
  message: r.message,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
});

async function tellTeam(deps: SupportDeps, build: (to: string, siteName: string) => ReturnType<typeof teamNoticeMail>): Promise<void> {
  try {
    const settings = await getSettings(deps.db);
    const to = settings.notification_email.trim();
    if (!to) return;
    await deps.mailer.send(build(to, settings.site_name));
  } catch (err) {
    deps.logger.warn({ err }, 'support: team notice mail not sent');
  }
}

export async function createConsultation(deps: SupportDeps, userId: string, input: z.input<typeof consultationSchema>): Promise<ConsultationView> {
  const data = consultationSchema.parse(input);
  const [row] = await deps.db.insert(consultations).values({ userId, ...data }).returning();
  await tellTeam(deps, (to, siteName) =>
    teamNoticeMail({
      to,
      kind: 'consultation',
      siteName,
      fields: [
        ['Ad', data.name],
        ['Email', data.email],
        ['Telefon', data.phone],
        ['Xidmət', data.service],
      ],
      body: data.message,
      adminLink: `${deps.publicUrl}/admin/consultations`,
    }),
  );
  return toConsultationView(row!);
}

export async function listConsultations(db: Db, status?: ConsultationStatus): Promise<ConsultationView[]> {
  const rows = await db
    .select()
    .from(consultations)
    .where(status ? eq(consultations.status, status) : undefined)
    .orderBy(desc(consultations.createdAt))
    .limit(500);
  return rows.map(toConsultationView);
}

export async function setConsultationStatus(db: Db, actor: Actor, id: string, status: ConsultationStatus): Promise<ConsultationView> {
  const key = idOrNotFound(id, 'consultation');
  const row = await db.transaction(async (tx) => {
    const [r] = await tx.update(consultations).set({ status }).where(eq(consultations.id, key)).returning();
    if (!r) throw new AppError('NOT_FOUND', 'No such consultation.');
    await audit(tx, actor, 'support.consultation.status', { type: 'consultation', id: key }, { to: status });
    return r;
  });
  return toConsultationView(row);
}

// ─── Contact messages ─────────────────────────────────────────────────────────────────────

const toContactView = (r: typeof contactMessages.$inferSelect): ContactMessageView => ({
  id: r.id,
  name: r.name,
  email: r.email,
  subject: r.subject,
  message: r.message,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
});

/**
 * The public contact form. A filled honeypot answers like a success and stores nothing.
 * Returns whether a message was stored.
 */
export async function createContactMessage(deps: SupportDeps, input: z.input<typeof contactMessageSchema>): Promise<boolean> {
  const data = contactMessageSchema.parse(input);
  if (data.website && data.website.trim() !== '') return false;
  await deps.db.insert(contactMessages).values({ name: data.name, email: data.email, subject: data.subject, message: data.message, status: 'new' });
  await tellTeam(deps, (to, siteName) =>
    teamNoticeMail({
      to,
      kind: 'contact',
      siteName,
      fields: [
        ['Ad', data.name],
        ['Email', data.email],
        ['Mövzu', data.subject],
      ],
      body: data.message,
      adminLink: `${deps.publicUrl}/admin/contact-messages`,
    }),
  );
  return true;
}

/** How many tickets wait for the team (open or in progress); 0 when they cannot be counted. */
export async function countOpenTickets(db: Db): Promise<number> {
  const open = await db.execute<{ n: number }>(sql`select count(*)::int as n from support_tickets where status in ('open', 'in_progress')`).catch(() => null);
  const openRows = open ? ((Array.isArray(open) ? open : (open as { rows: { n: number }[] }).rows) as { n: number }[]) : [];
  return openRows[0]?.n ?? 0;
}

/** Tickets waiting for the team: open, not yet taken up (`status = 'open'`). */
export async function countWaitingTickets(db: Db): Promise<number> {
  const [r] = await db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.status, 'open'));
  return Number(r?.n ?? 0);
}

export async function contactCounts(db: Db): Promise<ContactCounts> {
  const rows = await db.select({ status: contactMessages.status, n: count() }).from(contactMessages).groupBy(contactMessages.status);
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { total: rows.reduce((sum, r) => sum + Number(r.n), 0), new: of('new'), read: of('read'), replied: of('replied') };
}

export async function listContactMessages(db: Db): Promise<ContactMessageView[]> {
  const rows = await db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(1000);
  return rows.map(toContactView);
}

/** An admin opens a message: a new one becomes read (docs/rules.md#support). */
export async function openContactMessage(db: Db, id: string): Promise<ContactMessageView> {
  const key = idOrNotFound(id, 'message');
  await db.update(contactMessages).set({ status: 'read' }).where(and(eq(contactMessages.id, key), eq(contactMessages.status, 'new')));
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, key)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'No such message.');
  return toContactView(row);
}

/** Marks a message replied; one already replied stays as it is. */
export async function markContactReplied(db: Db, actor: Actor, id: string): Promise<{ message: ContactMessageView; changed: boolean }> {
  const key = idOrNotFound(id, 'message');
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(contactMessages).where(eq(contactMessages.id, key)).for('update');
    if (!before) throw new AppError('NOT_FOUND', 'No such message.');
    if (before.status === 'replied') return { message: toContactView(before), changed: false };
    const [row] = await tx
      .update(contactMessages)
      .set({ status: 'replied' })
      .where(and(eq(contactMessages.id, key), ne(contactMessages.status, 'replied')))
      .returning();
    await audit(tx, actor, 'contact_message.replied', { type: 'contact_message', id: key }, { from: before.status });
    return { message: toContactView(row!), changed: true };
  });
}

export async function deleteContactMessage(db: Db, actor: Actor, id: string): Promise<void> {
  const key = idOrNotFound(id, 'message');
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(contactMessages).where(eq(contactMessages.id, key)).returning();
    const row = deleted[0];
    if (!row) throw new AppError('NOT_FOUND', 'No such message.');
    await audit(tx, actor, 'contact_message.delete', { type: 'contact_message', id: key }, { email: row.email, subject: row.subject, status: row.status });
  });
}

import type { z } from 'zod';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  consultationSchema,
  contactMessageSchema,
  createTicketSchema,
  ticketMessageSchema,
  type AdminTicketView,
  type ConsultationStatus,
  type ConsultationView,
  type ContactCounts,
  type ContactMessageView,
  type TicketListQuery,
  type TicketMessageInput,
  type TicketMessageView,
  type TicketStatus,
  type TicketView,
} from '../../core/contracts/support';
import { AppError } from '../../core/errors';
import { rolesWith } from '../../core/permissions';
import { isLanguage, type Language } from '../../core/i18n';
import { audit, type Actor } from '../admin';
import type { Db } from '../db/client';
import { consultations, contactMessages, supportTicketMessages, supportTickets, userRoles, users } from '../db/schema';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { RealtimeHub } from '../realtime';
import { getSettings } from '../settings';
import { teamNoticeMail, ticketReplyMail } from './mail';

export interface SupportDeps {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  realtime?: RealtimeHub;
  publicUrl: string;
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

export const toTicketView = (t: TicketRow): TicketView => ({
  id: t.id,
  title: t.title,
  description: t.description,
  priority: t.priority,
  status: t.status,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

export const toMessageView = (m: MessageRow): TicketMessageView => ({
  id: m.id,
  ticketId: m.ticketId,
  message: m.message,
  isAdmin: m.isAdmin,
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
  const rows = await db.select().from(supportTickets).where(eq(supportTickets.userId, userId)).orderBy(desc(supportTickets.createdAt));
  return rows.map(toTicketView);
}

export async function createTicket(deps: SupportDeps, userId: string, input: z.input<typeof createTicketSchema>, language: Language): Promise<TicketView> {
  const data = createTicketSchema.parse(input);
  const [row] = await deps.db
    .insert(supportTickets)
    .values({ userId, title: data.title, description: data.description, priority: data.priority, language })
    .returning();
  await notifyTeam(deps, row!.id);
  return toTicketView(row!);
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
  return { ticket: toTicketView(ticket), messages: await messagesOf(db, ticket.id) };
}

/**
 * A customer's message on their own ticket. A message on a resolved or closed ticket opens it
 * again, so the team sees that the conversation goes on.
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
        status: sql`case when ${supportTickets.status} in ('resolved', 'closed') then 'open' else ${supportTickets.status} end`,
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
  userEmail: users.email,
  userName: users.name,
  messageCount,
  lastMessageAt,
};

const toAdminView = (r: { ticket: TicketRow; userEmail: string; userName: string; messageCount: number; lastMessageAt: unknown }): AdminTicketView => ({
  ...toTicketView(r.ticket),
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

export async function adminThread(db: Db, ticketId: string): Promise<{ ticket: AdminTicketView; messages: TicketMessageView[] }> {
  const ticket = await adminTicket(db, ticketId);
  return { ticket, messages: await messagesOf(db, ticket.id) };
}

/** The team's reply: stored with is_admin and audited, pushed live to the customer and sent to them by e-mail. */
export async function replyToTicket(deps: SupportDeps, actor: Actor, ticketId: string, { message }: TicketMessageInput): Promise<TicketMessageView> {
  const ticket = await adminTicket(deps.db, ticketId);
  const row = await deps.db.transaction(async (tx) => {
    const [m] = await tx.insert(supportTicketMessages).values({ ticketId: ticket.id, userId: actor.id, message, isAdmin: true }).returning();
    await tx.update(supportTickets).set({ updatedAt: sql`now()` }).where(eq(supportTickets.id, ticket.id));
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

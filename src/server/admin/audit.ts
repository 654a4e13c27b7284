import { and, asc, count, desc, eq, gte, inArray, lt, max, sql, type SQL } from 'drizzle-orm';
import type { AdminAuditQuery } from '../../core/contracts/admin';
import type { Language } from '../../core/i18n';
import { serviceDisplayNames } from '../catalog';
import type { Db, Tx } from '../db/client';
import {
  auditLog,
  blogPosts,
  consultations,
  contactMessages,
  coupons,
  depositBonusRules,
  faqItems,
  localServices,
  orders,
  payments,
  providers,
  providerServiceChanges,
  supportTickets,
  users,
} from '../db/schema';

export interface Actor {
  id: string;
  email: string;
}

/** Records an admin action; call it in the same transaction as the change when there is one. */
export async function audit(
  db: Db | Tx,
  actor: Actor,
  action: string,
  target: { type: string; id?: string | number | null },
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetType: target.type,
    targetId: target.id == null ? null : String(target.id),
    details,
  });
}

/** Entries a page of the team's audit log shows. */
export const AUDIT_PAGE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERIAL = /^[1-9]\d{0,9}$/;
const DAY_MS = 86_400_000;

/** What a target is called, resolved when the log is read (null: it no longer exists, or has no name). */
export interface AuditTarget {
  label: string | null;
}

type Row = { targetType: string; targetId: string | null; action: string };

/** The key a resolved target is kept under: a shop service's sources name the catalogue's service, other `service` entries a local one. */
const targetKey = (r: Row) => `${r.targetType === 'service' && r.action === 'service.sources' ? 'catalog-service' : r.targetType}:${r.targetId}`;

/**
 * Names the targets of a page of entries, a query per kind of target: a user by e-mail, an order by
 * the number customers see, a shop service by the name customers read (`serviceDisplayNames`), a
 * local service, provider, post or bonus rule by its name, a coupon by its code, a ticket by its
 * subject, a payment by its customer's e-mail. Ids that cannot be a row of the table (a uuid column asked for
 * something else) are never sent to the database.
 */
async function resolveTargets(db: Db, rows: Row[], lang: Language): Promise<Map<string, AuditTarget>> {
  const ids = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.targetId == null) continue;
    const kind = targetKey(r).split(':')[0]!;
    let set = ids.get(kind);
    if (!set) ids.set(kind, (set = new Set()));
    set.add(r.targetId);
  }
  const of = (kind: string, pattern?: RegExp) => [...(ids.get(kind) ?? [])].filter((id) => !pattern || pattern.test(id));
  const out = new Map<string, AuditTarget>();
  const put = (kind: string, id: string | number, label: string | null | undefined) => out.set(`${kind}:${id}`, { label: label || null });
  const localized = (v: { az: string; tr: string; en: string } | null | undefined) => (v ? v[lang] || v.en || v.az : null);

  const jobs: Promise<void>[] = [];
  const job = <T>(list: string[], read: (list: string[]) => Promise<T[]>, each: (row: T) => void) => {
    if (list.length) jobs.push(read(list).then((found) => found.forEach(each)));
  };
  job(of('user'), (l) => db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, l)), (r) => put('user', r.id, r.email));
  job(of('order', UUID), (l) => db.select({ id: orders.id, number: orders.number }).from(orders).where(inArray(orders.id, l)), (r) => put('order', r.id, r.number));
  job(of('service', SERIAL), (l) => db.select({ id: localServices.id, name: localServices.name }).from(localServices).where(inArray(localServices.id, l.map(Number))), (r) => put('service', r.id, localized(r.name)));
  // A shop service by the name customers read in the reader's language, as the catalogue names it.
  job(of('catalog-service'), async (l) => [...(await serviceDisplayNames(db, l, lang))], ([id, name]) => put('catalog-service', id, name));
  job(of('provider', UUID), (l) => db.select({ id: providers.id, name: providers.name }).from(providers).where(inArray(providers.id, l)), (r) => put('provider', r.id, r.name));
  job(
    of('provider-service-change', SERIAL),
    (l) =>
      db
        .select({ id: providerServiceChanges.id, serviceId: providerServiceChanges.serviceId, provider: providers.name })
        .from(providerServiceChanges)
        .innerJoin(providers, eq(providers.id, providerServiceChanges.providerId))
        .where(inArray(providerServiceChanges.id, l.map(Number))),
    (r) => put('provider-service-change', r.id, `${r.provider} · ${r.serviceId}`),
  );
  job(of('support_ticket', UUID), (l) => db.select({ id: supportTickets.id, title: supportTickets.title }).from(supportTickets).where(inArray(supportTickets.id, l)), (r) => put('support_ticket', r.id, r.title));
  job(of('consultation', UUID), (l) => db.select({ id: consultations.id, email: consultations.email }).from(consultations).where(inArray(consultations.id, l)), (r) => put('consultation', r.id, r.email));
  job(of('contact_message', UUID), (l) => db.select({ id: contactMessages.id, subject: contactMessages.subject }).from(contactMessages).where(inArray(contactMessages.id, l)), (r) => put('contact_message', r.id, r.subject));
  job(of('blog', SERIAL), (l) => db.select({ id: blogPosts.id, title: blogPosts.title, slug: blogPosts.slug }).from(blogPosts).where(inArray(blogPosts.id, l.map(Number))), (r) => put('blog', r.id, localized(r.title) || r.slug));
  job(of('faq', SERIAL), (l) => db.select({ id: faqItems.id, question: faqItems.question }).from(faqItems).where(inArray(faqItems.id, l.map(Number))), (r) => put('faq', r.id, localized(r.question)));
  job(
    of('payment', UUID),
    (l) => db.select({ id: payments.id, email: users.email }).from(payments).innerJoin(users, eq(users.id, payments.userId)).where(inArray(payments.id, l)),
    (r) => put('payment', r.id, r.email),
  );
  job(of('bonus_rule', SERIAL), (l) => db.select({ id: depositBonusRules.id, name: depositBonusRules.name }).from(depositBonusRules).where(inArray(depositBonusRules.id, l.map(Number))), (r) => put('bonus_rule', r.id, r.name));
  job(of('coupon', SERIAL), (l) => db.select({ id: coupons.id, code: coupons.code }).from(coupons).where(inArray(coupons.id, l.map(Number))), (r) => put('coupon', r.id, r.code));
  // Names that are their own id.
  for (const kind of ['service-name', 'param-text']) for (const id of of(kind)) put(kind, id, id);
  await Promise.all(jobs);
  return out;
}

/**
 * The team's audit log, newest first, a page of `AUDIT_PAGE` entries: filtered by who acted, the
 * action and a range of days (UTC). Each entry names its actor as they are now (name and e-mail;
 * the e-mail stored with the entry once the account is gone) and its target by name. Also the
 * actors and actions the log holds, for the filters.
 */
export async function listAudit(db: Db, q: AdminAuditQuery) {
  const conditions: SQL[] = [];
  if (q.actor) conditions.push(eq(auditLog.actorId, q.actor));
  if (q.action) conditions.push(eq(auditLog.action, q.action));
  if (q.from) conditions.push(gte(auditLog.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) conditions.push(lt(auditLog.createdAt, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS)));
  const where = conditions.length ? and(...conditions) : undefined;

  const [rows, [total], actors, actions] = await Promise.all([
    db
      .select({ entry: auditLog, name: users.name, email: users.email })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(AUDIT_PAGE)
      .offset((q.page - 1) * AUDIT_PAGE),
    db.select({ n: count() }).from(auditLog).where(where),
    db
      .select({ id: auditLog.actorId, storedEmail: max(auditLog.actorEmail), name: users.name, email: users.email })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .groupBy(auditLog.actorId, users.name, users.email)
      .orderBy(sql`coalesce(${users.email}, max(${auditLog.actorEmail}))`),
    db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(asc(auditLog.action)),
  ]);

  const targets = await resolveTargets(
    db,
    rows.map((r) => r.entry),
    q.lang ?? 'en',
  );
  return {
    total: total?.n ?? 0,
    page: q.page,
    pageSize: AUDIT_PAGE,
    entries: rows.map(({ entry, name, email }) => ({
      ...entry,
      createdAt: entry.createdAt.toISOString(),
      actor: { id: entry.actorId, name: name ?? null, email: email ?? entry.actorEmail, gone: email == null },
      target: entry.targetId == null ? { label: null } : (targets.get(targetKey(entry)) ?? { label: null }),
    })),
    actors: actors.map((a) => ({ id: a.id, name: a.name ?? null, email: a.email ?? a.storedEmail ?? a.id })),
    actions: actions.map((a) => a.action),
  };
}

/** What a change changed, field by field (`{ field: { from, to } }`), among `keys`, for the audit log. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, keys: readonly string[]) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of keys) if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) changes[k] = { from: before[k], to: after[k] };
  return changes;
}

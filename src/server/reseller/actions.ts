import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { CatalogService } from '../../core/catalog';
import type { OrderActions } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import { ERROR_STATUSES } from '../../core/orderStatus';
import { OPEN_REFILL_STATUSES, providerRefillRefusal, REFILL_COOLDOWN_MS, REFILL_REFUSAL_TEXT, refillRefusal, refillUntil, type RefillRefusal, type RefillStatus } from '../../core/refill';
import { catalogServices, orderRefills, orders, providerServices } from '../db/schema';
import { rowsOf, type Db } from '../db/client';
import { groupByProvider, type SmmProvider } from '../providers';
import { cancelRefusal, requestCancel, requestedCancels, toOrderView, type OrderRow, type OrdersDeps } from '../orders';

/**
 * Refills and cancels of orders, asked for by the customer (on the site or through the reseller
 * API) or by an admin. The rules:
 * - refill: `refillRefusal` (src/core/refill.ts): offered, completed, within the period counted
 *   from completion, none open, the cooldown since the last one passed, no later order on the link;
 * - cancel: the orders feature's rule (`cancelOrders`, src/server/orders/cancels.ts).
 * Provider calls are made outside any transaction.
 */

export type ActionSource = 'site' | 'api' | 'admin';
export type RefillRow = typeof orderRefills.$inferSelect;

/** How often an open refill's state is asked of the provider. */
const REFILL_CHECK_EVERY_MS = 30_000;

type ServiceFlags = Pick<CatalogService, 'refill' | 'refillDays' | 'cancel'>;

async function flagsOf(db: Db, serviceIds: string[]): Promise<Map<string, ServiceFlags>> {
  if (!serviceIds.length) return new Map();
  const rows = await db
    .select({ id: catalogServices.id, refill: catalogServices.refill, refillDays: catalogServices.refillDays, cancel: catalogServices.cancel })
    .from(catalogServices)
    .where(inArray(catalogServices.id, [...new Set(serviceIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The latest refill of each order, and the latest one the provider took (the cooldown counts from it). */
async function refillsOf(db: Db, orderIds: string[]): Promise<Map<string, { latest: RefillRow; lastTaken?: RefillRow }>> {
  if (!orderIds.length) return new Map();
  const rows = await db.select().from(orderRefills).where(inArray(orderRefills.orderId, orderIds)).orderBy(desc(orderRefills.createdAt), desc(orderRefills.id));
  const out = new Map<string, { latest: RefillRow; lastTaken?: RefillRow }>();
  for (const r of rows) {
    const seen = out.get(r.orderId);
    if (!seen) out.set(r.orderId, { latest: r, lastTaken: r.providerRefillId !== null ? r : undefined });
    else if (!seen.lastTaken && r.providerRefillId !== null) seen.lastTaken = r;
  }
  return out;
}

/**
 * Which of the orders have a later order on the same link: a top-level order (any customer's)
 * placed after it on the same platform and normalized link, not failed or refunded in full.
 */
async function laterOrdersOf(db: Db, rows: OrderRow[]): Promise<Set<string>> {
  const asked = rows.filter((o) => o.status === 'completed');
  if (!asked.length) return new Set();
  const found = await db.execute(sql`
    select o.id from jsonb_to_recordset(${JSON.stringify(asked.map((o) => ({ id: o.id, platform: o.platform, link_key: o.linkKey, created_at: o.createdAt.toISOString() })))}::jsonb)
      as o(id uuid, platform text, link_key text, created_at timestamptz)
    where exists (
      select 1 from ${orders} x
      where x.link_key = o.link_key and x.platform = o.platform and x.created_at > o.created_at
        and x.id <> o.id and x.parent_id is null and x.status not in (${sql.join(ERROR_STATUSES.map((st) => sql`${st}`), sql`, `)})
    )`);
  return new Set(rowsOf<{ id: string }>(found).map((r) => r.id));
}

/**
 * Whether each order's refill is offered, and for how many days, by the one who would do it: the
 * provider service that holds the order (docs/decisions/0017), as its catalogue was last read — an
 * order failed over to another provider follows that provider's terms, and a provider whose
 * protocol has no refills lists none. An order without a recorded provider, or whose provider
 * service was never read, follows the shop's service.
 */
async function refillTermsOf(db: Db, rows: OrderRow[], flags: Map<string, ServiceFlags>): Promise<Map<string, { refill: boolean; refillDays: number | null }>> {
  const held = rows.filter((o) => o.providerId !== null);
  const pairs = [...new Map(held.map((o) => [`${o.providerId}:${o.providerServiceId ?? o.serviceId}`, { providerId: o.providerId!, serviceId: o.providerServiceId ?? o.serviceId }])).values()];
  const read = pairs.length
    ? await db
        .select({ providerId: providerServices.providerId, serviceId: providerServices.serviceId, refill: providerServices.refill, refillDays: providerServices.refillDays })
        .from(providerServices)
        .where(or(...pairs.map((p) => and(eq(providerServices.providerId, p.providerId), eq(providerServices.serviceId, p.serviceId)))))
    : [];
  const atProvider = new Map(read.map((r) => [`${r.providerId}:${r.serviceId}`, r]));
  return new Map(
    rows.map((o) => {
      const terms = (o.providerId !== null ? atProvider.get(`${o.providerId}:${o.providerServiceId ?? o.serviceId}`) : undefined) ?? flags.get(o.serviceId);
      return [o.id, { refill: !!terms?.refill, refillDays: terms?.refillDays ?? null }];
    }),
  );
}

/** Why each order may not be refilled now (src/core/refill.ts), or null. */
async function refusalsOf(db: Db, rows: OrderRow[], now: Date) {
  const [flags, refills, later] = await Promise.all([flagsOf(db, rows.map((o) => o.serviceId)), refillsOf(db, rows.map((o) => o.id)), laterOrdersOf(db, rows)]);
  const terms = await refillTermsOf(db, rows, flags);
  return new Map(
    rows.map((o) => {
      const f = flags.get(o.serviceId);
      const r = refills.get(o.id);
      const { refill: offered, refillDays } = terms.get(o.id)!;
      const refusal = refillRefusal({ offered, refillDays, order: o, latest: r?.latest, lastTaken: r?.lastTaken, laterOrder: later.has(o.id) }, now);
      return [o.id, { flags: f, terms: terms.get(o.id)!, latest: r?.latest, refusal }] as const;
    }),
  );
}

/** What each order allows now: the history's buttons and marks. */
export async function actionsOf(db: Db, rows: OrderRow[], now = new Date()): Promise<Record<string, OrderActions>> {
  const [refusals, cancels] = await Promise.all([refusalsOf(db, rows, now), requestedCancels(db, rows.map((o) => o.id))]);
  const out: Record<string, OrderActions> = {};
  for (const o of rows) {
    const { flags: f, terms, latest, refusal } = refusals.get(o.id)!;
    out[o.id] = {
      viaApi: o.viaApi,
      apiId: o.apiId,
      canRefill: refusal === null,
      canCancel: cancelRefusal(o, f?.cancel, cancels.has(o.id)) === null,
      refillUntil: terms.refill && o.status === 'completed' ? refillUntil(o, terms.refillDays).toISOString() : null,
      refill: latest ? { id: latest.id, status: latest.status, createdAt: latest.createdAt.toISOString() } : null,
      cancelRequested: cancels.has(o.id),
    };
  }
  return out;
}

/** A refusal: the reseller API's wording as the message, the code for the site to word. */
const refused = (reason: RefillRefusal) =>
  new AppError('REFILL_NOT_ALLOWED', REFILL_REFUSAL_TEXT[reason], { reason, ...(reason === 'cooldown' ? { hours: REFILL_COOLDOWN_MS / 3600_000 } : {}) });

const pgUnique = (err: unknown): boolean => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};

/**
 * Asks the provider for a refill of one order. The request is written first (one open refill per
 * order, kept by a unique index), then the provider is called; its answer settles the row.
 * Throws REFILL_NOT_ALLOWED with the reason when the rules refuse it or the provider does.
 */
export async function requestRefill(deps: OrdersDeps, order: OrderRow, source: ActionSource, now = new Date()): Promise<RefillRow> {
  const refusal = (await refusalsOf(deps.db, [order], now)).get(order.id)!.refusal;
  if (refusal) throw refused(refusal);
  // Asked of the provider that holds the order (recorded on the row, docs/decisions/0017).
  let provider: ReturnType<OrdersDeps['providers']['forOrder']>;
  try {
    provider = deps.providers.forOrder(order);
  } catch {
    throw new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.');
  }
  let row: RefillRow;
  try {
    [row] = (await deps.db.insert(orderRefills).values({ orderId: order.id, userId: order.userId, source, providerId: provider.id ?? order.providerId }).returning()) as [RefillRow];
  } catch (err) {
    if (pgUnique(err)) throw refused('open');
    throw err;
  }
  const settle = async (set: Partial<RefillRow>) =>
    (await deps.db.update(orderRefills).set({ ...set, updatedAt: new Date() }).where(eq(orderRefills.id, row.id)).returning())[0]!;
  let result: Awaited<ReturnType<SmmProvider['refill']>>;
  try {
    result = await provider.client.refill([order.providerOrderId!]);
  } catch (err) {
    deps.logger.warn({ err, order: order.id }, 'refill request got no answer');
    await settle({ status: 'error', providerStatus: 'The provider did not answer' });
    throw new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.');
  }
  // A protocol without refills, and a refusal in words the shop knows, are told by their code
  // (worded in the reader's language); other words as the provider's own (docs/rules.md#refill).
  const answer = result === 'unsupported' ? { error: REFILL_REFUSAL_TEXT.not_offered } : result.get(order.providerOrderId!);
  if (!answer || 'error' in answer) {
    const message = answer?.error ?? REFILL_REFUSAL_TEXT.provider;
    await settle({ status: 'rejected', providerStatus: message });
    const reason = result === 'unsupported' ? 'not_offered' : answer ? providerRefillRefusal(message) : 'provider';
    if (reason === 'provider') throw new AppError('REFILL_NOT_ALLOWED', message, { reason, message });
    throw new AppError('REFILL_NOT_ALLOWED', REFILL_REFUSAL_TEXT[reason], { reason, message });
  }
  return settle({ providerRefillId: answer.refillId, checkedAt: new Date() });
}

/**
 * Asks the provider for the state of open refills (those of `refillIds`, or every open one not
 * checked for a while) and stores it. Provider failures leave the rows as they were.
 */
export async function refreshRefills(deps: OrdersDeps, opts: { refillIds?: number[]; limit?: number } = {}): Promise<number> {
  const due = await deps.db
    .select({ ...getTableColumns(orderRefills), providerId: orders.providerId })
    .from(orderRefills)
    .innerJoin(orders, eq(orders.id, orderRefills.orderId))
    .where(
      and(
        inArray(orderRefills.status, [...OPEN_REFILL_STATUSES]),
        isNotNull(orderRefills.providerRefillId),
        opts.refillIds
          ? inArray(orderRefills.id, opts.refillIds.length ? opts.refillIds : [-1])
          : or(isNull(orderRefills.checkedAt), lt(orderRefills.checkedAt, new Date(Date.now() - REFILL_CHECK_EVERY_MS))),
      ),
    )
    .orderBy(sql`${orderRefills.checkedAt} asc nulls first`)
    .limit(opts.limit ?? 100);
  if (!due.length) return 0;
  // Asked of each provider for the refills of its orders; refill ids are the provider's own.
  const states = new Map<number, { status: RefillStatus; raw: string } | { error: string }>();
  for (const [provider, group] of groupByProvider(deps.providers, due)) {
    let answers: Awaited<ReturnType<SmmProvider['refillStatus']>>;
    try {
      answers = await provider.client.refillStatus(group.map((r) => r.providerRefillId!));
    } catch (err) {
      deps.logger.warn({ err, provider: provider.name }, 'refill status got no answer');
      continue;
    }
    if (answers === 'unsupported') continue;
    for (const r of group) {
      const state = answers.get(r.providerRefillId!);
      if (state) states.set(r.id, state);
    }
  }
  let changed = 0;
  for (const r of due) {
    const state = states.get(r.id);
    if (!state) continue;
    const status: RefillStatus = 'error' in state ? 'error' : state.status;
    const raw = 'error' in state ? state.error : state.raw;
    await deps.db
      .update(orderRefills)
      .set({ status, providerStatus: raw, checkedAt: new Date(), updatedAt: status === r.status ? r.updatedAt : new Date() })
      .where(eq(orderRefills.id, r.id));
    if (status !== r.status) changed++;
  }
  return changed;
}

/** A refill asked for from the site or by the team, told to the owner's open pages. */
export async function refillAndTell(deps: OrdersDeps, o: OrderRow, source: ActionSource) {
  const r = await requestRefill(deps, o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: o.status }).catch(() => {});
  return { refill: { id: r.id, status: r.status, createdAt: r.createdAt.toISOString() } };
}

/** A cancel asked for from the site or by the team, told to the owner's open pages. */
export async function cancelAndTell(deps: OrdersDeps, o: OrderRow, source: ActionSource) {
  const after = await requestCancel(deps, o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: after.status }).catch(() => {});
  return toOrderView(after);
}

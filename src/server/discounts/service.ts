import { count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { CustomerGroup, CustomerGroupInput, CustomerPricing, CustomerPricingInput, MyDiscount } from '../../core/contracts/discounts';
import { bpToPercent, effectiveDiscount, percentToBp, type DiscountSource } from '../../core/discounts';
import { AppError } from '../../core/errors';
import type { Fees } from '../../core/pricing';
import { announceChange, cachesOf, readThrough } from '../cache';
import type { Db, Tx } from '../db/client';
import { customerDiscounts, customerGroups, users } from '../db/schema';
import { getSettings } from '../settings';

/**
 * Customer discounts and groups (docs/rules.md#discounts, docs/decisions/0020): which discount a
 * customer's prices take, and the team's changes to groups and to a customer's pricing. The price
 * itself is the one pricing rule's (src/core/pricing.ts); every place that prices for a customer
 * asks `customerFees` for the fees it prices with.
 */

/**
 * A customer's discount in hundredths of a percent, where it comes from, and their group's name.
 * Read through the instance's discount cache (src/server/cache.ts) outside a transaction; every
 * change is announced (`announceDiscountChange`), so the next order prices with it.
 */
export async function discountOf(db: Db | Tx, userId: string): Promise<{ bp: number; source: DiscountSource | null; groupName: string | null }> {
  return readThrough(cachesOf(db as Db), (c) => c.discounts, userId, async () => {
    const [row] = await db
      .select({ own: customerDiscounts.discountBp, group: customerGroups.discountBp, groupName: customerGroups.name })
      .from(customerDiscounts)
      .leftJoin(customerGroups, eq(customerGroups.id, customerDiscounts.groupId))
      .where(eq(customerDiscounts.userId, userId))
      .limit(1);
    const { bp, source } = effectiveDiscount(row?.own ?? null, row?.group ?? null);
    return { bp, source, groupName: row?.groupName ?? null };
  });
}

/**
 * Tells every instance (this one at once) that discounts changed: those of `userIds`, or every
 * customer's (a group's discount or name changed, or the group is gone). Call it after the
 * transaction that changed them committed.
 */
export async function announceDiscountChange(db: Db, userIds?: readonly string[]): Promise<void> {
  if (!userIds) return announceChange(db, 'discount');
  for (const userId of userIds) await announceChange(db, `discount:${userId}`);
}

/**
 * The fees a customer's prices are computed with: the site's service and base fees and, for a
 * signed-in customer (`userId`), their discount. Without one, the list prices every visitor sees.
 */
export async function customerFees(db: Db, userId: string | null): Promise<Fees> {
  const [settings, discount] = await Promise.all([getSettings(db), userId ? discountOf(db, userId) : null]);
  return {
    serviceFeePercent: settings.service_fee,
    baseFee: settings.base_fee,
    ...(discount && discount.bp > 0 ? { discountPercent: bpToPercent(discount.bp) } : {}),
  };
}

/** A discount as the customer is told it; null for list prices. */
function told(d: { bp: number; source: DiscountSource | null; groupName: string | null }): MyDiscount {
  if (d.bp === 0 || d.source === null) return null;
  return { percent: bpToPercent(d.bp), source: d.source, groupName: d.source === 'group' ? d.groupName : null };
}

/** The signed-in customer's discount as `GET /api/me` tells it; null for list prices. */
export async function myDiscount(db: Db, userId: string): Promise<MyDiscount> {
  return told(await discountOf(db, userId));
}

/**
 * A customer's balance and their discount as they are told it, in one read (`GET /api/me`, the
 * pages made for them), kept in the instance's balance cache (src/server/cache.ts): every balance
 * change is announced at its commit by the database (migration 0036), a discount's by
 * `announceDiscountChange`, and the instance a write request went through forgets at once
 * (auth/guard.ts `identityMiddleware`).
 */
export async function balanceAndDiscount(db: Db, userId: string): Promise<{ balanceMicros: number; discount: MyDiscount }> {
  return readThrough(cachesOf(db), (c) => c.balances, userId, async () => {
    const [row] = await db
      .select({ balance: users.balanceMicros, own: customerDiscounts.discountBp, group: customerGroups.discountBp, groupName: customerGroups.name })
      .from(users)
      .leftJoin(customerDiscounts, eq(customerDiscounts.userId, users.id))
      .leftJoin(customerGroups, eq(customerGroups.id, customerDiscounts.groupId))
      .where(eq(users.id, userId))
      .limit(1);
    return { balanceMicros: row?.balance ?? 0, discount: told({ ...effectiveDiscount(row?.own ?? null, row?.group ?? null), groupName: row?.groupName ?? null }) };
  });
}

/** The customers' own pricing, for the team's user list (customers without a row: not set, no group). */
export async function pricingAmong(db: Db, userIds: string[]): Promise<Map<string, CustomerPricing>> {
  if (!userIds.length) return new Map();
  const rows = await db.select().from(customerDiscounts).where(inArray(customerDiscounts.userId, userIds));
  return new Map(rows.map((r) => [r.userId, { discountPercent: r.discountBp === null ? null : bpToPercent(r.discountBp), groupId: r.groupId }]));
}

/**
 * Sets a customer's own discount and group; answers the pricing before and after (for the audit
 * log). NOT_FOUND for an unknown customer or group. Call it in the transaction that audits it.
 */
export async function setCustomerPricing(tx: Tx, userId: string, input: CustomerPricingInput): Promise<{ before: CustomerPricing; after: CustomerPricing }> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('NOT_FOUND', 'User not found.');
  if (input.groupId) {
    const [group] = await tx.select({ id: customerGroups.id }).from(customerGroups).where(eq(customerGroups.id, input.groupId)).for('share');
    if (!group) throw new AppError('NOT_FOUND', 'Customer group not found.', { field: 'groupId' });
  }
  const [old] = await tx.select().from(customerDiscounts).where(eq(customerDiscounts.userId, userId)).for('update');
  const discountBp = input.discountPercent === null ? null : percentToBp(input.discountPercent);
  await tx
    .insert(customerDiscounts)
    .values({ userId, discountBp, groupId: input.groupId })
    .onConflictDoUpdate({ target: customerDiscounts.userId, set: { discountBp, groupId: input.groupId, updatedAt: sql`now()` } });
  return {
    before: { discountPercent: old?.discountBp == null ? null : bpToPercent(old.discountBp), groupId: old?.groupId ?? null },
    after: { discountPercent: input.discountPercent === null ? null : bpToPercent(discountBp!), groupId: input.groupId },
  };
}

const isUniqueViolation = (err: unknown): boolean => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};

const toGroup = (r: typeof customerGroups.$inferSelect, customers: number): CustomerGroup => ({
  id: r.id,
  name: r.name,
  discountPercent: bpToPercent(r.discountBp),
  customers,
});

/** Every customer group by name, with how many customers each has. */
export async function listGroups(db: Db): Promise<CustomerGroup[]> {
  const [groups, counts] = await Promise.all([
    db.select().from(customerGroups).orderBy(sql`lower(${customerGroups.name})`),
    db.select({ groupId: customerDiscounts.groupId, n: count() }).from(customerDiscounts).where(isNotNull(customerDiscounts.groupId)).groupBy(customerDiscounts.groupId),
  ]);
  const byGroup = new Map(counts.map((c) => [c.groupId, c.n]));
  return groups.map((g) => toGroup(g, byGroup.get(g.id) ?? 0));
}

/** A new customer group; DUPLICATE when the name is taken (whatever its letter case). */
export async function createGroup(tx: Tx, input: CustomerGroupInput): Promise<CustomerGroup> {
  try {
    const [row] = await tx.insert(customerGroups).values({ name: input.name, discountBp: percentToBp(input.discountPercent) }).returning();
    return toGroup(row!, 0);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'A customer group of this name exists.', { field: 'name' });
    throw err;
  }
}

/** A group's new name and discount; answers it before and after. NOT_FOUND, or DUPLICATE for a taken name. */
export async function updateGroup(tx: Tx, id: string, input: CustomerGroupInput): Promise<{ before: CustomerGroup; after: CustomerGroup }> {
  const [old] = await tx.select().from(customerGroups).where(eq(customerGroups.id, id)).for('update');
  if (!old) throw new AppError('NOT_FOUND', 'Customer group not found.');
  try {
    const [row] = await tx
      .update(customerGroups)
      .set({ name: input.name, discountBp: percentToBp(input.discountPercent), updatedAt: sql`now()` })
      .where(eq(customerGroups.id, id))
      .returning();
    const [n] = await tx.select({ n: count() }).from(customerDiscounts).where(eq(customerDiscounts.groupId, id));
    return { before: toGroup(old, n?.n ?? 0), after: toGroup(row!, n?.n ?? 0) };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'A customer group of this name exists.', { field: 'name' });
    throw err;
  }
}

/** The customers of a group (to tell their open pages that their prices changed). */
export async function customersOfGroup(db: Db | Tx, groupId: string): Promise<string[]> {
  return (await db.select({ userId: customerDiscounts.userId }).from(customerDiscounts).where(eq(customerDiscounts.groupId, groupId))).map((r) => r.userId);
}

/** Deletes a group; its customers are left in none (their own discounts stay). Answers what it was. */
export async function deleteGroup(tx: Tx, id: string): Promise<CustomerGroup> {
  const [n] = await tx.select({ n: count() }).from(customerDiscounts).where(eq(customerDiscounts.groupId, id));
  const [row] = await tx.delete(customerGroups).where(eq(customerGroups.id, id)).returning();
  if (!row) throw new AppError('NOT_FOUND', 'Customer group not found.');
  return toGroup(row, n?.n ?? 0);
}

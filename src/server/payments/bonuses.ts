import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { bestBonusRule, couponBonus, normaliseCouponCode, type BonusRuleTerms } from '../../core/bonuses';
import { canonicalMailbox } from '../../core/mailbox';
import type { BonusRuleInput, BonusRuleView, CouponCheck, CouponInput, StaffBonuses } from '../../core/contracts/bonuses';
import { AppError } from '../../core/errors';
import type { PaymentMethodKind } from '../../core/paymentMethods';
import type { Db, Tx } from '../db/client';
import { coupons, depositBonusRules, ledgerEntries, payments, users } from '../db/schema';
import { credit } from '../wallet';

type Runner = Db | Tx;
type RuleRow = typeof depositBonusRules.$inferSelect;
type CouponRow = typeof coupons.$inferSelect;

/** The payment states in which a payment naming a coupon is one of its uses: all but failed and cancelled. */
const USING_STATUSES = ['pending', 'completed'] as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toDate = (s: string | null) => (s === null ? null : new Date(s));

/** The enabled rules whose period has not ended at `at` (the ones a top-up may still earn by). */
async function liveRules(db: Runner, at: Date): Promise<RuleRow[]> {
  return db
    .select()
    .from(depositBonusRules)
    .where(and(eq(depositBonusRules.enabled, true), or(isNull(depositBonusRules.endsAt), gt(depositBonusRules.endsAt, at))))
    .orderBy(asc(depositBonusRules.id));
}

/**
 * The rules customers see on the top-up dialog (docs/rules.md#bonuses): the enabled ones in their
 * period now, with the terms that decide what a top-up earns — the dialog computes its figure from
 * them with the same function the server books it with (core/bonuses.ts).
 */
export async function activeBonusRules(db: Runner, at = new Date()): Promise<BonusRuleView[]> {
  const rules = await liveRules(db, at);
  return rules
    .filter((r) => r.startsAt === null || r.startsAt <= at)
    .map((r) => ({ id: r.id, method: r.method, minMicros: r.minMicros, percentBp: r.percentBp, capMicros: r.capMicros, startsAt: iso(r.startsAt), endsAt: iso(r.endsAt) }));
}

/** What a top-up of `amountMicros` through `method` earns by the rules in force at `at` (null: nothing). */
export async function depositBonusFor(db: Runner, topUp: { method: PaymentMethodKind; amountMicros: number; at: Date }) {
  const rules: BonusRuleTerms[] = await liveRules(db, topUp.at);
  return bestBonusRule(rules, topUp);
}

/**
 * Uses of a coupon: payments naming it that did not fail, in all and by one customer — every
 * account whose e-mail is the customer's mailbox (src/core/mailbox.ts, the sign-up bonus's rule),
 * so a second account of one mailbox shares the first one's count.
 */
async function couponUses(db: Runner, couponId: number, userId: string): Promise<{ total: number; mine: number }> {
  const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const mailbox = me ? canonicalMailbox(me.email) : null;
  const byAccount = await db
    .select({ userId: payments.userId, email: users.email, uses: sql<number>`count(*)::int` })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(and(eq(payments.couponId, couponId), inArray(payments.status, USING_STATUSES)))
    .groupBy(payments.userId, users.email);
  let total = 0;
  let mine = 0;
  for (const r of byAccount) {
    total += r.uses;
    if (r.userId === userId || (mailbox !== null && canonicalMailbox(r.email) === mailbox)) mine += r.uses;
  }
  return { total, mine };
}

/**
 * Checks that `userId` may use the coupon `code` on a top-up of `amountMicros` now, and what it
 * gives. With `lock`, the coupon's row is locked for the caller's transaction first, so that of
 * several top-ups naming it at once each counts the uses the ones before it wrote: a coupon is
 * never used more often than it allows, per customer or in all (docs/rules.md#bonuses).
 */
export async function couponFor(
  db: Runner,
  input: { code: string; userId: string; amountMicros: number; at: Date },
  lock = false,
): Promise<{ coupon: CouponRow; bonusMicros: number }> {
  const query = db.select().from(coupons).where(eq(coupons.code, normaliseCouponCode(input.code)));
  const [coupon] = lock ? await query.for('update') : await query;
  if (!coupon) throw new AppError('COUPON_NOT_FOUND', 'Bu kupon tapılmadı');
  const terms = couponBonus(coupon, input.amountMicros, input.at);
  if ('refusal' in terms) {
    const details = terms.refusal === 'COUPON_BELOW_MINIMUM' ? { minMicros: coupon.minTopUpMicros } : undefined;
    throw new AppError(terms.refusal, 'Bu kupon istifadə oluna bilməz', details);
  }
  const uses = await couponUses(db, coupon.id, input.userId);
  if (uses.mine >= coupon.perCustomer) throw new AppError('COUPON_ALREADY_USED', 'Bu kuponu artıq istifadə etmisiniz');
  if (coupon.totalUses !== null && uses.total >= coupon.totalUses) throw new AppError('COUPON_USED_UP', 'Bu kuponun istifadə limiti bitib');
  return { coupon, bonusMicros: terms.bonusMicros };
}

/** What the dialog shows for a coupon before the customer pays (nothing is held yet). */
export async function checkCoupon(db: Db, userId: string, input: { code: string; amountMicros: number }): Promise<CouponCheck> {
  const { coupon, bonusMicros } = await couponFor(db, { ...input, userId, at: new Date() });
  return { code: coupon.code, bonusMicros };
}

/**
 * What a top-up that is starting earns, to be written on its payment row in the same transaction
 * (`tx`): the best rule's bonus, and the coupon's when one is named — its row locked until that
 * transaction ends, so the payment row written in it is counted by the next top-up naming it.
 */
export async function bonusesForNewTopUp(
  tx: Tx,
  input: { userId: string; method: PaymentMethodKind; amountMicros: number; coupon?: string },
): Promise<Pick<typeof payments.$inferInsert, 'bonusRuleId' | 'bonusMicros' | 'couponId' | 'couponMicros'>> {
  const at = new Date();
  const rule = await depositBonusFor(tx, { method: input.method, amountMicros: input.amountMicros, at });
  const coupon = input.coupon ? await couponFor(tx, { code: input.coupon, userId: input.userId, amountMicros: input.amountMicros, at }, true) : null;
  return {
    bonusRuleId: rule?.ruleId ?? null,
    bonusMicros: rule?.bonusMicros ?? 0,
    couponId: coupon?.coupon.id ?? null,
    couponMicros: coupon?.bonusMicros ?? 0,
  };
}

/**
 * The one place a paid top-up reaches the balance (a card gateway's settle, a bank transfer's
 * approval): the amount (`topup`), then what it earned — `deposit_bonus` and `coupon_bonus`, each
 * its own entry with the payment's id as reference, so each is credited once. Runs inside the
 * transaction that marks the payment completed. Returns the balance after, and what was added.
 */
export async function creditTopUp(
  tx: Tx,
  p: Pick<typeof payments.$inferSelect, 'id' | 'userId' | 'amountUsdMicros' | 'bonusMicros' | 'couponMicros'>,
): Promise<{ balanceMicros: number | null; creditedMicros: number }> {
  let balanceMicros = await credit(tx, { userId: p.userId, amountMicros: p.amountUsdMicros, kind: 'topup', reference: p.id });
  if (balanceMicros === null) return { balanceMicros: null, creditedMicros: 0 };
  if (p.bonusMicros > 0) balanceMicros = (await credit(tx, { userId: p.userId, amountMicros: p.bonusMicros, kind: 'deposit_bonus', reference: p.id })) ?? balanceMicros;
  if (p.couponMicros > 0) balanceMicros = (await credit(tx, { userId: p.userId, amountMicros: p.couponMicros, kind: 'coupon_bonus', reference: p.id })) ?? balanceMicros;
  return { balanceMicros, creditedMicros: p.amountUsdMicros + p.bonusMicros + p.couponMicros };
}

/** What a completed top-up put on the balance in all: its amount and what it earned (a chargeback takes all of it back). */
export const creditedByTopUp = (p: Pick<typeof payments.$inferSelect, 'amountUsdMicros' | 'bonusMicros' | 'couponMicros'>) => p.amountUsdMicros + p.bonusMicros + p.couponMicros;

// ---- the team's side ------------------------------------------------------------------------

/** Every rule and coupon, with what each has given on completed top-ups (its uses: payments that did not fail). */
export async function staffBonuses(db: Db): Promise<StaffBonuses> {
  // The outer row's id named with its table: a select from one table writes its columns bare, and a
  // bare "id" inside the subqueries would be the payment's.
  const rules = await db
    .select({
      rule: depositBonusRules,
      uses: sql<number>`(select count(*)::int from ${payments} p where p.bonus_rule_id = ${depositBonusRules}.id and p.status = 'completed')`,
      given: sql<string>`(select coalesce(sum(l.amount_micros), 0) from ${ledgerEntries} l join ${payments} p on l.kind = 'deposit_bonus' and l.reference = p.id::text where p.bonus_rule_id = ${depositBonusRules}.id)`,
    })
    .from(depositBonusRules)
    .orderBy(asc(depositBonusRules.id));
  const list = await db
    .select({
      coupon: coupons,
      uses: sql<number>`(select count(*)::int from ${payments} p where p.coupon_id = ${coupons}.id and p.status in ('pending', 'completed'))`,
      given: sql<string>`(select coalesce(sum(l.amount_micros), 0) from ${ledgerEntries} l join ${payments} p on l.kind = 'coupon_bonus' and l.reference = p.id::text where p.coupon_id = ${coupons}.id)`,
    })
    .from(coupons)
    .orderBy(asc(coupons.id));
  return {
    rules: rules.map(({ rule: r, uses, given }) => ({
      id: r.id,
      name: r.name,
      method: r.method,
      minMicros: r.minMicros,
      percentBp: r.percentBp,
      capMicros: r.capMicros,
      startsAt: iso(r.startsAt),
      endsAt: iso(r.endsAt),
      enabled: r.enabled,
      uses,
      givenMicros: Number(given),
    })),
    coupons: list.map(({ coupon: c, uses, given }) => ({
      id: c.id,
      code: c.code,
      kind: c.kind,
      amountMicros: c.amountMicros,
      percentBp: c.percentBp,
      capMicros: c.capMicros,
      minTopUpMicros: c.minTopUpMicros,
      perCustomer: c.perCustomer,
      totalUses: c.totalUses,
      expiresAt: iso(c.expiresAt),
      enabled: c.enabled,
      uses,
      givenMicros: Number(given),
    })),
  };
}

const ruleValues = (input: BonusRuleInput) => ({ ...input, startsAt: toDate(input.startsAt), endsAt: toDate(input.endsAt) });

/** Adds a rule; returns its row. A rule changes only top-ups that start after it: what a payment earns is kept on it. */
export async function createBonusRule(tx: Tx, input: BonusRuleInput): Promise<RuleRow> {
  const [row] = await tx.insert(depositBonusRules).values(ruleValues(input)).returning();
  return row!;
}

/** Changes a rule; NOT_FOUND when there is none. Returns it before and after. */
export async function updateBonusRule(tx: Tx, id: number, input: BonusRuleInput): Promise<{ before: RuleRow; after: RuleRow }> {
  const [before] = await tx.select().from(depositBonusRules).where(eq(depositBonusRules.id, id)).for('update');
  if (!before) throw new AppError('NOT_FOUND', 'No such bonus rule.');
  const [after] = await tx.update(depositBonusRules).set({ ...ruleValues(input), updatedAt: new Date() }).where(eq(depositBonusRules.id, id)).returning();
  return { before, after: after! };
}

const couponValues = (input: CouponInput) => ({ ...input, code: normaliseCouponCode(input.code), expiresAt: toDate(input.expiresAt) });

/** Whether an error is the database refusing a second coupon with a code already taken. */
const codeTaken = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Adds a coupon; COUPON_CODE_TAKEN when another has its code (in any letter case). */
export async function createCoupon(tx: Tx, input: CouponInput): Promise<CouponRow> {
  const [clash] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, normaliseCouponCode(input.code)));
  if (clash) throw new AppError('COUPON_CODE_TAKEN', 'Bu kod artıq var');
  try {
    const [row] = await tx.insert(coupons).values(couponValues(input)).returning();
    return row!;
  } catch (err) {
    if (codeTaken(err)) throw new AppError('COUPON_CODE_TAKEN', 'Bu kod artıq var');
    throw err;
  }
}

/** Changes a coupon (its code too, while no other has it); NOT_FOUND when there is none. */
export async function updateCoupon(tx: Tx, id: number, input: CouponInput): Promise<{ before: CouponRow; after: CouponRow }> {
  const [before] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
  if (!before) throw new AppError('NOT_FOUND', 'No such coupon.');
  const values = couponValues(input);
  const [clash] = await tx.select({ id: coupons.id }).from(coupons).where(and(eq(coupons.code, values.code), sql`${coupons.id} <> ${id}`));
  if (clash) throw new AppError('COUPON_CODE_TAKEN', 'Bu kod artıq var');
  const [after] = await tx.update(coupons).set({ ...values, updatedAt: new Date() }).where(eq(coupons.id, id)).returning();
  return { before, after: after! };
}

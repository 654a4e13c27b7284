import { randomUUID } from 'node:crypto';
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Db, Tx } from '../db/client';
import { ledgerEntries, orders, payments, users, type LedgerKind } from '../db/schema';

export interface LedgerMove {
  userId: string;
  /** Positive USD micro-dollars. */
  amountMicros: number;
  kind: LedgerKind;
  /** Makes the move happen once: `(kind, reference)` is unique. */
  reference: string;
  note?: string;
}

type Runner = Db | Tx;

/**
 * Credits a balance once per `(kind, reference)`. Returns the new balance, or null when this move
 * already happened (nothing changed). Must run inside the caller's transaction when it goes
 * together with other writes.
 */
export async function credit(tx: Runner, move: LedgerMove): Promise<number | null> {
  if (!Number.isSafeInteger(move.amountMicros) || move.amountMicros <= 0) throw new RangeError('credit amount must be positive micro-dollars');
  const inserted = await tx
    .insert(ledgerEntries)
    .values({ userId: move.userId, amountMicros: move.amountMicros, kind: move.kind, reference: move.reference, note: move.note })
    .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.reference] })
    .returning({ id: ledgerEntries.id });
  if (inserted.length === 0) return null;
  const [row] = await tx
    .update(users)
    .set({ balanceMicros: sql`${users.balanceMicros} + ${move.amountMicros}` })
    .where(eq(users.id, move.userId))
    .returning({ balance: users.balanceMicros });
  if (!row) throw new AppError('NOT_FOUND', 'User not found.');
  return row.balance;
}

/**
 * Debits a balance with one conditional statement (docs/rules.md#wallet): zero rows means the balance is
 * short, and INSUFFICIENT_BALANCE is thrown. The ledger entry is written in the same
 * transaction; a repeated `(kind, reference)` throws CONFLICT and the caller's transaction rolls
 * back, so a debit never happens twice.
 */
export async function debit(tx: Tx, move: LedgerMove): Promise<number> {
  if (!Number.isSafeInteger(move.amountMicros) || move.amountMicros <= 0) throw new RangeError('debit amount must be positive micro-dollars');
  const [row] = await tx
    .update(users)
    .set({ balanceMicros: sql`${users.balanceMicros} - ${move.amountMicros}` })
    .where(and(eq(users.id, move.userId), gte(users.balanceMicros, move.amountMicros)))
    .returning({ balance: users.balanceMicros });
  if (!row) throw new AppError('INSUFFICIENT_BALANCE', 'The balance is not enough.');
  const inserted = await tx
    .insert(ledgerEntries)
    .values({ userId: move.userId, amountMicros: -move.amountMicros, kind: move.kind, reference: move.reference, note: move.note })
    .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.reference] })
    .returning({ id: ledgerEntries.id });
  if (inserted.length === 0) throw new AppError('CONFLICT', 'This charge was already made.');
  return row.balance;
}

/**
 * A chargeback (docs/decisions/0019): the bank took back a top-up, so its amount leaves the
 * balance even when that was spent — the only move that may leave a balance below zero. The
 * balance row is changed first (its lock orders the entry after every move before it), and
 * `chargeback_micros` grows by the same amount, which is what lets the database's check accept a
 * balance that low; `(chargeback, reference)` is unique, so a second attempt throws CONFLICT and
 * the caller's transaction rolls back. Returns the new balance.
 */
export async function chargeback(tx: Tx, move: Omit<LedgerMove, 'kind'>): Promise<number> {
  if (!Number.isSafeInteger(move.amountMicros) || move.amountMicros <= 0) throw new RangeError('chargeback amount must be positive micro-dollars');
  const [row] = await tx
    .update(users)
    .set({ balanceMicros: sql`${users.balanceMicros} - ${move.amountMicros}`, chargebackMicros: sql`${users.chargebackMicros} + ${move.amountMicros}` })
    .where(eq(users.id, move.userId))
    .returning({ balance: users.balanceMicros });
  if (!row) throw new AppError('NOT_FOUND', 'User not found.');
  const inserted = await tx
    .insert(ledgerEntries)
    .values({ userId: move.userId, amountMicros: -move.amountMicros, kind: 'chargeback', reference: move.reference, note: move.note })
    .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.reference] })
    .returning({ id: ledgerEntries.id });
  if (inserted.length === 0) throw new AppError('CONFLICT', 'This chargeback was already booked.');
  return row.balance;
}

/** Whether an account owes the shop (a chargeback left its balance below zero): it may not order until it is settled. */
export const owes = (balanceMicros: number) => balanceMicros < 0;

/**
 * The refusal for an account that owes the shop (BALANCE_OWED, with what it owes), or null. An
 * account is settled as soon as its balance is back at zero or above, by a top-up or the team's
 * adjustment; nothing else needs to be recorded (docs/decisions/0019).
 */
export async function owedRefusal(db: Runner, userId: string): Promise<AppError | null> {
  const [u] = await db.select({ balance: users.balanceMicros }).from(users).where(eq(users.id, userId));
  return owedRefusalOf(u?.balance ?? null);
}

/** `owedRefusal` of a balance read elsewhere (null: no such account); `balanceSql` reads it within another statement. */
export const owedRefusalOf = (balanceMicros: number | null): AppError | null =>
  balanceMicros !== null && owes(balanceMicros) ? new AppError('BALANCE_OWED', 'A reversed payment left the balance below zero: top up to settle it first.', { owedMicros: -balanceMicros }) : null;

/** An account's balance as a scalar subquery, for a statement that reads it along with other work. */
export const balanceSql = (userId: string): SQL => sql`(select ${users.balanceMicros} from ${users} where ${users.id} = ${userId})`;

/** Throws BALANCE_OWED when the account owes the shop. */
export async function assertNotOwing(db: Runner, userId: string): Promise<void> {
  const refusal = await owedRefusal(db, userId);
  if (refusal) throw refusal;
}

/** A balance that differs from the sum of its ledger entries. */
export interface BalanceMismatch {
  userId: string;
  balanceMicros: number;
  ledgerMicros: number;
}
/** A drip-feed whose parent and runs gave back more than the parent's charge (rows or ledger). */
export interface DripFeedOverRefund {
  userId: string;
  dripFeedId: string;
  chargeMicros: number;
  refundedMicros: number;
}

/** An account whose `chargeback_micros` differs from what its `chargeback` entries took. */
export interface ChargebackMismatch {
  userId: string;
  chargebackMicros: number;
  ledgerChargebackMicros: number;
}
/**
 * A ledger entry other than a chargeback that lowered a balance below zero: replaying the
 * account's entries in the order they were written, the balance after it is negative.
 */
export interface NegativeWithoutChargeback {
  userId: string;
  entryId: number;
  kind: LedgerKind;
  balanceAfterMicros: number;
}
/** A `chargeback` entry that does not take back exactly one reversed, completed top-up of the same account, or a reversed payment without one. */
export interface UnexplainedChargeback {
  userId: string;
  paymentId: string;
  problem: 'no_reversed_payment' | 'amount' | 'no_entry';
}

/**
 * A top-up refund's entry (docs/rules.md#top-up-refunds) that does not match its payment: a
 * `topup_refund` must take the payment's amount, a `bonus_reversal` what it earned on top, a
 * `topup_refund_failed` give both back, only for a refund the gateway refused, and a
 * `topup_refund_partial` give back the share of the amount the card did not get (only for a
 * `partial` refund whose refunded amount is known: amount × (charge − refunded) / charge, rounded
 * down, as `keptOnBalanceMicros`); each from a payment of the same account with a refund asked.
 * And a refunded payment without the entries its state needs (`no_entry`).
 */
export interface UnexplainedTopUpRefund {
  userId: string;
  paymentId: string;
  kind: 'topup_refund' | 'bonus_reversal' | 'topup_refund_failed' | 'topup_refund_partial';
  problem: 'no_refunded_payment' | 'status' | 'amount' | 'no_entry';
}

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

/**
 * A `deposit_bonus` or `coupon_bonus` entry that is not what a completed top-up of the same account
 * earned (docs/rules.md#bonuses), or a completed top-up whose earnings were not credited with it.
 */
export interface UnexplainedBonus {
  userId: string;
  paymentId: string;
  kind: 'deposit_bonus' | 'coupon_bonus';
  problem: 'no_completed_payment' | 'amount' | 'no_entry';
}

export type LedgerProblem =
  | BalanceMismatch
  | DripFeedOverRefund
  | ChargebackMismatch
  | NegativeWithoutChargeback
  | UnexplainedChargeback
  | UnexplainedBonus
  | UnexplainedTopUpRefund;

/**
 * What breaks the books (should be nothing): users whose cached balance differs from the sum of
 * their ledger entries, and drip-feeds whose parent and runs together gave back more than the
 * parent's charge, by their `refunded_micros` or by their `order_refund` entries.
 *
 * And negative balances (docs/decisions/0019): only a `chargeback` entry may take a balance below
 * zero. An account without chargebacks has `chargeback_micros` 0 (checked here against its
 * entries), so the database's check keeps its balance at zero or above at every commit. For an
 * account with chargebacks, its entries from the first chargeback on are replayed in the order
 * they were written (their ids: a debit or a chargeback gets its id after it has locked the
 * balance row, a credit before, so the replay is never lower than the real balance was): every
 * entry of another kind that lowers the balance must leave it at zero or above. Each chargeback
 * takes back exactly one reversed completed top-up of the same account (reference = the payment's
 * id, amount = minus what it credited: its amount and what it earned), and each reversed payment
 * has its chargeback. Each bonus entry is what a completed top-up earned, once.
 *
 * And top-up refunds to the card: each `topup_refund`, `bonus_reversal`, `topup_refund_failed`
 * and `topup_refund_partial` entry matches its payment's amounts and refund state, and each refund has the entries its state
 * needs (UnexplainedTopUpRefund).
 */
export async function verifyLedger(db: Runner): Promise<LedgerProblem[]> {
  const balances = await db.execute(sql`
    select u.id as user_id, u.balance_micros, coalesce(sum(l.amount_micros), 0) as ledger_micros
    from ${users} u left join ${ledgerEntries} l on l.user_id = u.id
    group by u.id, u.balance_micros
    having u.balance_micros <> coalesce(sum(l.amount_micros), 0)`);
  // A refund's reference names its order: `<id>`, `<id>:<total>`, or `admin-refund:<id>:<before>`.
  const families = await db.execute(sql`
    with refunds as (
      select case when reference like 'admin-refund:%' then split_part(reference, ':', 2) else split_part(reference, ':', 1) end as order_id, sum(amount_micros) as micros
      from ${ledgerEntries} where kind = 'order_refund' group by 1
    ), members as (
      select id as parent_id, id, refunded_micros from ${orders} where runs is not null
      union all
      select parent_id, id, refunded_micros from ${orders} where parent_id is not null
    )
    select p.id as drip_feed_id, p.user_id, p.charge_micros, sum(m.refunded_micros) as rows_micros, coalesce(sum(r.micros), 0) as ledger_micros
    from members m join ${orders} p on p.id = m.parent_id left join refunds r on r.order_id = m.id::text
    group by p.id, p.user_id, p.charge_micros
    having greatest(sum(m.refunded_micros), coalesce(sum(r.micros), 0)) > p.charge_micros`);
  const chargebackTotals = await db.execute(sql`
    select u.id as user_id, u.chargeback_micros, coalesce(-sum(l.amount_micros), 0) as ledger_micros
    from ${users} u left join ${ledgerEntries} l on l.user_id = u.id and l.kind = 'chargeback'
    group by u.id, u.chargeback_micros
    having u.chargeback_micros <> coalesce(-sum(l.amount_micros), 0)`);
  const negatives = await db.execute(sql`
    select user_id, id, kind, after from (
      select user_id, id, kind, amount_micros, sum(amount_micros) over (partition by user_id order by id) as after,
        min(id) filter (where kind = 'chargeback') over (partition by user_id) as first_chargeback
      from ${ledgerEntries}
    ) replay
    where first_chargeback is not null and id > first_chargeback and kind <> 'chargeback' and amount_micros < 0 and after < 0`);
  const unexplained = await db.execute(sql`
    select l.user_id, l.reference as payment_id, case when p.id is null then 'no_reversed_payment' else 'amount' end as problem
    from ${ledgerEntries} l
    left join ${payments} p on p.id::text = l.reference and p.user_id = l.user_id and p.reversed_at is not null and p.status = 'completed'
    where l.kind = 'chargeback' and (p.id is null or l.amount_micros <> -(p.amount_usd_micros + p.bonus_micros + p.coupon_micros))
    union all
    select p.user_id, p.id::text, 'no_entry'
    from ${payments} p
    where p.reversed_at is not null
      and not exists (select 1 from ${ledgerEntries} l where l.kind = 'chargeback' and l.reference = p.id::text and l.user_id = p.user_id)`);
  const bonuses = await db.execute(sql`
    with earned as (
      select id, user_id, status, 'deposit_bonus' as kind, bonus_micros as micros from ${payments}
      union all
      select id, user_id, status, 'coupon_bonus', coupon_micros from ${payments}
    )
    select l.user_id, l.reference as payment_id, l.kind, case when e.id is null then 'no_completed_payment' else 'amount' end as problem
    from ${ledgerEntries} l
    left join earned e on e.id::text = l.reference and e.kind = l.kind and e.user_id = l.user_id and e.status = 'completed'
    where l.kind in ('deposit_bonus', 'coupon_bonus') and (e.id is null or l.amount_micros <> e.micros)
    union all
    select e.user_id, e.id::text, e.kind, 'no_entry'
    from earned e
    where e.status = 'completed' and e.micros > 0
      and exists (select 1 from ${ledgerEntries} t where t.kind = 'topup' and t.reference = e.id::text)
      and not exists (select 1 from ${ledgerEntries} l where l.kind = e.kind and l.reference = e.id::text and l.user_id = e.user_id)`);
  // What a partial refund leaves on the balance (keptOnBalanceMicros in src/server/payments/refund.ts).
  const kept = sql.raw(`(p.amount_usd_micros * (p.amount_minor - p.refunded_minor)) / p.amount_minor`);
  const topUpRefunds = await db.execute(sql`
    select l.user_id, l.reference as payment_id, l.kind,
      case when p.id is null then 'no_refunded_payment'
        when (l.kind = 'topup_refund_failed' and p.refund_status <> 'failed') or (l.kind = 'topup_refund_partial' and (p.refund_status <> 'partial' or p.refunded_minor is null)) then 'status'
        else 'amount' end as problem
    from ${ledgerEntries} l
    left join ${payments} p on p.id::text = l.reference and p.user_id = l.user_id and p.refund_status is not null
    where l.kind in ('topup_refund', 'bonus_reversal', 'topup_refund_failed', 'topup_refund_partial')
      and (p.id is null
        or (l.kind = 'topup_refund_failed' and p.refund_status <> 'failed')
        or (l.kind = 'topup_refund_partial' and (p.refund_status <> 'partial' or p.refunded_minor is null))
        or l.amount_micros <> case l.kind
          when 'topup_refund' then -p.amount_usd_micros
          when 'bonus_reversal' then -(p.bonus_micros + p.coupon_micros)
          when 'topup_refund_partial' then ${kept}
          else p.amount_usd_micros + p.bonus_micros + p.coupon_micros end)
    union all
    select p.user_id, p.id::text, k.kind, 'no_entry'
    from ${payments} p cross join (values ('topup_refund'), ('bonus_reversal'), ('topup_refund_failed'), ('topup_refund_partial')) as k(kind)
    where p.refund_status is not null
      and (k.kind = 'topup_refund' or (k.kind = 'bonus_reversal' and p.bonus_micros + p.coupon_micros > 0) or (k.kind = 'topup_refund_failed' and p.refund_status = 'failed')
        or (k.kind = 'topup_refund_partial' and p.refund_status = 'partial' and p.refunded_minor is not null and ${kept} > 0))
      and not exists (select 1 from ${ledgerEntries} l where l.kind = k.kind and l.reference = p.id::text and l.user_id = p.user_id)`);
  return [
    ...rowsOf<{ user_id: string; balance_micros: string; ledger_micros: string }>(balances).map((r) => ({
      userId: r.user_id,
      balanceMicros: Number(r.balance_micros),
      ledgerMicros: Number(r.ledger_micros),
    })),
    ...rowsOf<{ drip_feed_id: string; user_id: string; charge_micros: string; rows_micros: string; ledger_micros: string }>(families).map((r) => ({
      userId: r.user_id,
      dripFeedId: r.drip_feed_id,
      chargeMicros: Number(r.charge_micros),
      refundedMicros: Math.max(Number(r.rows_micros), Number(r.ledger_micros)),
    })),
    ...rowsOf<{ user_id: string; chargeback_micros: string; ledger_micros: string }>(chargebackTotals).map((r) => ({
      userId: r.user_id,
      chargebackMicros: Number(r.chargeback_micros),
      ledgerChargebackMicros: Number(r.ledger_micros),
    })),
    ...rowsOf<{ user_id: string; id: number | string; kind: LedgerKind; after: string }>(negatives).map((r) => ({
      userId: r.user_id,
      entryId: Number(r.id),
      kind: r.kind,
      balanceAfterMicros: Number(r.after),
    })),
    ...rowsOf<{ user_id: string; payment_id: string; problem: UnexplainedChargeback['problem'] }>(unexplained).map((r) => ({
      userId: r.user_id,
      paymentId: r.payment_id,
      problem: r.problem,
    })),
    ...rowsOf<{ user_id: string; payment_id: string; kind: UnexplainedBonus['kind']; problem: UnexplainedBonus['problem'] }>(bonuses).map((r) => ({
      userId: r.user_id,
      paymentId: r.payment_id,
      kind: r.kind,
      problem: r.problem,
    })),
    ...rowsOf<{ user_id: string; payment_id: string; kind: UnexplainedTopUpRefund['kind']; problem: UnexplainedTopUpRefund['problem'] }>(topUpRefunds).map((r) => ({
      userId: r.user_id,
      paymentId: r.payment_id,
      kind: r.kind,
      problem: r.problem,
    })),
  ];
}

/**
 * A staff member's balance adjustment (docs/rules.md#wallet): a positive amount is credited, a
 * negative one debited, each with its own `admin_adjustment` ledger entry noting the reason.
 * Returns the new balance; NOT_FOUND when there is no such user.
 */
export async function adjustBalance(tx: Tx, input: { userId: string; amountMicros: number; reason: string }): Promise<number> {
  const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
  const move = { userId: input.userId, amountMicros: Math.abs(input.amountMicros), kind: 'admin_adjustment' as const, reference: `adj-${randomUUID()}`, note: input.reason };
  return input.amountMicros > 0 ? (await credit(tx, move))! : await debit(tx, move);
}

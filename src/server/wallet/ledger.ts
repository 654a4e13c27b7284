import { randomUUID } from 'node:crypto';
import { and, eq, gte, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Db, Tx } from '../db/client';
import { ledgerEntries, orders, users, type LedgerKind } from '../db/schema';

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

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

/**
 * What breaks the books (should be nothing): users whose cached balance differs from the sum of
 * their ledger entries, and drip-feeds whose parent and runs together gave back more than the
 * parent's charge, by their `refunded_micros` or by their `order_refund` entries.
 */
export async function verifyLedger(db: Runner): Promise<(BalanceMismatch | DripFeedOverRefund)[]> {
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

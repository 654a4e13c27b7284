import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, payments, userRoles, users } from '../db/schema';
import { newOrderNumber } from '../orders/service';

/**
 * Rows the owner's figures are computed from, written as they were at a given time: accounts,
 * ledger entries, payments with their top-up, orders with their charge (tests of
 * src/server/analytics).
 */

export async function customer(db: Db, createdAt: Date, role: 'user' | 'admin' = 'user') {
  const id = randomUUID();
  await db.insert(users).values({ id, name: 'Figures', email: `f-${id.slice(0, 8)}@example.com`, createdAt });
  await db.insert(userRoles).values({ userId: id, role });
  return id;
}

/** A ledger entry written as it was at `when` (kinds beyond LEDGER_KINDS too: the column is text). */
export async function entry(db: Db, userId: string, kind: string, amountMicros: number, reference: string, when: Date) {
  await db.execute(sql`insert into ledger_entries (user_id, amount_micros, kind, reference, created_at) values (${userId}, ${amountMicros}, ${kind}, ${reference}, ${when.toISOString()}::timestamptz)`);
}

export async function payment(db: Db, userId: string, usdMicros: number, qepik: number, when: Date) {
  const [p] = await db
    .insert(payments)
    .values({ reference: `balance-${randomUUID()}`, userId, amountUsdMicros: usdMicros, amountMinor: qepik, rate: '1.7', status: 'completed', provider: 'epoint', createdAt: when, settledAt: when })
    .returning();
  await entry(db, userId, 'topup', usdMicros, p!.id, when);
  return p!.id;
}

export type OrderOpts = {
  charge: number;
  cost: number | null;
  when: Date;
  platform?: string;
  status?: (typeof orders.$inferInsert)['status'];
  refunded?: number;
  costRefunded?: number;
  runs?: number;
  parentId?: string;
  serviceId?: string;
  providerId?: string | null;
  charged?: boolean;
};

export async function order(db: Db, userId: string, o: OrderOpts) {
  const key = randomUUID();
  const [row] = await db
    .insert(orders)
    .values({
      number: newOrderNumber(),
      userId,
      serviceId: o.serviceId ?? 'svc-1',
      serviceName: `Service ${o.serviceId ?? 'svc-1'}`,
      platform: o.platform ?? 'instagram',
      serviceType: 'Default',
      link: `https://example.com/${key}`,
      linkKey: key,
      quantity: o.runs ? 300 : 100,
      chargeMicros: o.charge,
      refundedMicros: o.refunded ?? 0,
      costMicros: o.cost,
      costRefundedMicros: o.costRefunded ?? 0,
      status: o.status ?? 'completed',
      runs: o.runs ?? null,
      intervalMinutes: o.runs ? 60 : null,
      runsSent: o.runs ? 2 : 0,
      parentId: o.parentId ?? null,
      providerId: o.providerId ?? null,
      idempotencyKey: key,
      requestHash: 'h',
      createdAt: o.when,
    })
    .returning();
  // A drip-feed's runs are never charged: the parent is.
  if (o.charged !== false && !o.parentId) await entry(db, userId, 'order_charge', -o.charge, row!.id, o.when);
  return row!.id;
}

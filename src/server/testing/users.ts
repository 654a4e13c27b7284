import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { userRoles, users } from '../db/schema';
import { credit } from '../wallet/ledger';

/** A customer with a starting balance given through the ledger (a top-up), as production would. */
export async function createCustomer(db: Db, opts: { balanceMicros?: number; email?: string; name?: string } = {}) {
  const id = randomUUID();
  const email = opts.email ?? `c-${id.slice(0, 8)}@example.com`;
  await db.insert(users).values({ id, name: opts.name ?? 'Test Customer', email });
  await db.insert(userRoles).values({ userId: id, role: 'user' });
  if (opts.balanceMicros) await credit(db, { userId: id, amountMicros: opts.balanceMicros, kind: 'topup', reference: `test-${id}` });
  return { id, email };
}

import { desc } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditLog } from '../db/schema';

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

export async function listAudit(db: Db, limit = 200) {
  return db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
}

import { lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, verifications } from '../db/schema';
import type { JobDefinition } from './boss';

/** Deletes expired sessions and verification tokens (reset links) every 15 minutes. */
export function pruneExpiredJob(db: Db): JobDefinition {
  return {
    name: 'prune-expired',
    cron: '*/15 * * * *',
    handler: async () => {
      await pruneExpired(db);
    },
  };
}

export async function pruneExpired(db: Db, now = new Date()): Promise<{ sessions: number; verifications: number }> {
  const s = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  const v = await db.delete(verifications).where(lt(verifications.expiresAt, now)).returning({ id: verifications.id });
  return { sessions: s.length, verifications: v.length };
}

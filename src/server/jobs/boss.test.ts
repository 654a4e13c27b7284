import { describe, expect, it } from 'vitest';
import { sessions, users } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { startJobs } from './boss';
import { pruneExpired } from './platform';

describe('background jobs', () => {
  it('runs a job on the same database and stops cleanly', async () => {
    const database = await createTestDatabase();
    try {
      const seen: number[] = [];
      let resolveDone!: () => void;
      const done = new Promise<void>((r) => (resolveDone = r));
      const jobs = await startJobs(database, createLogger('silent'), [
        {
          name: 'test-echo',
          handler: async (data: { n: number }) => {
            seen.push(data.n);
            resolveDone();
          },
        },
      ]);
      await jobs.send('test-echo', { n: 7 });
      await done;
      expect(seen).toEqual([7]);
      // The queue marks the job completed right after the handler returns.
      let rows: { state: string }[] = [];
      for (let i = 0; i < 50; i++) {
        rows = await database.query<{ state: string }>(`select state from pgboss.job where name = 'test-echo'`);
        if (rows[0]?.state === 'completed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows.map((r) => r.state)).toEqual(['completed']);
      await jobs.stop();
    } finally {
      await database.close();
    }
  });

  it('prunes expired sessions and keeps live ones', async () => {
    const database = await createTestDatabase();
    try {
      await database.db.insert(users).values({ id: 'u1', name: 'Test User', email: 'u1@example.com' });
      const hour = 3_600_000;
      await database.db.insert(sessions).values([
        { id: 's-old', token: 't-old', userId: 'u1', expiresAt: new Date(Date.now() - hour) },
        { id: 's-live', token: 't-live', userId: 'u1', expiresAt: new Date(Date.now() + hour) },
      ]);
      expect(await pruneExpired(database.db)).toEqual({ sessions: 1, verifications: 0 });
      const left = await database.db.select({ id: sessions.id }).from(sessions);
      expect(left).toEqual([{ id: 's-live' }]);
    } finally {
      await database.close();
    }
  });
});

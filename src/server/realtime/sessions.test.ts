import type { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cookiesFrom, post, signIn, signUpUser } from '../auth/testing';
import { addRole, removeRole } from '../auth/users';
import { openPostgres, type Database } from '../db/client';
import { sessions, users } from '../db/schema';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createScratchDatabase, createTestDatabase } from '../testing/db';
import { eventStreamReader } from '../testing/events';
import { createRealtimeHub, type RealtimeHub } from './hub';

/**
 * An open `/api/events` stream lasts as long as its session: signing out, a password change that
 * revokes the sessions and a role taken away end it, from whichever instance the change came,
 * and nothing published afterwards reaches it.
 */

const balance = (micros: number) => ({ type: 'balance' as const, balanceMicros: micros, deltaMicros: micros });

type Reader = ReturnType<typeof eventStreamReader>;

/** Opens a stream on `app` and reads until its `ready` event. */
async function openStream(app: Hono, cookie: string, readers: Reader[]) {
  const res = await app.request('/api/events', { headers: { cookie, 'x-forwarded-for': '192.0.2.10' } });
  expect(res.status).toBe(200);
  const stream = eventStreamReader(res);
  readers.push(stream);
  await stream.until('event: ready');
  return stream;
}

describe('a live stream and its session', () => {
  let database: Database;
  let realtime: RealtimeHub;
  let app: Hono;
  const readers: Reader[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    realtime = await createRealtimeHub(database, createLogger('silent'));
    ({ app } = await createTestApp(database, { realtime }));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(readers.map((r) => r.cancel()));
    await realtime.close();
    await database.close();
  });

  it('signing out ends the open stream, and what is published afterwards is not sent', async () => {
    const user = await signUpUser(app);
    const stream = await openStream(app, user.cookie, readers);
    await realtime.publish(user.id, balance(101));
    await stream.until('"balanceMicros":101');

    expect((await post(app, '/api/auth/sign-out', {}, { cookie: user.cookie })).status).toBe(200);
    // Published right after the sign-out: the session's notice arrives first and holds it back.
    await realtime.publish(user.id, balance(202));
    const text = await stream.untilEnd();
    expect(text).toContain('event: closed');
    expect(text).toContain('"reason":"session_ended"');
    expect(text).not.toContain('"balanceMicros":202');
    expect(realtime.streams.count({ user: user.id })).toBe(0);
  });

  it('a password change that revokes the sessions ends every stream opened with them; the new session streams', async () => {
    const user = await signUpUser(app);
    const elsewhere = await signIn(app, user.email, user.password);
    const here = await openStream(app, user.cookie, readers);
    const there = await openStream(app, elsewhere, readers);

    const changed = await post(app, '/api/auth/change-password', { currentPassword: user.password, newPassword: 'N3w-Strong!pass', revokeOtherSessions: true }, { cookie: user.cookie });
    expect(changed.status).toBe(200);
    await realtime.publish(user.id, balance(303));
    for (const stream of [here, there]) {
      const text = await stream.untilEnd();
      expect(text).toContain('"reason":"session_ended"');
      expect(text).not.toContain('"balanceMicros":303');
    }
    expect((await app.request('/api/events', { headers: { cookie: user.cookie } })).status).toBe(401);

    // The browser that changed it holds the new session, and it streams.
    const fresh = await openStream(app, cookiesFrom(changed), readers);
    await realtime.publish(user.id, balance(404));
    await fresh.until('"balanceMicros":404');
  });

  it('a role taken away ends the stream for the browser to come back with its current identity', async () => {
    const staff = await signUpUser(app);
    await database.db.transaction((tx) => addRole(tx, staff.id, 'admin'));
    const stream = await openStream(app, staff.cookie, readers);

    await database.db.transaction((tx) => removeRole(tx, staff.id, 'admin'));
    await realtime.publish(staff.id, { type: 'admin_ticket', ticketId: 't-after' });
    const text = await stream.untilEnd();
    expect(text).toContain('"reason":"session_changed"');
    expect(text).not.toContain('t-after');

    // The session itself still holds: connecting again works.
    const again = await openStream(app, staff.cookie, readers);
    await realtime.publish(staff.id, balance(505));
    await again.until('"balanceMicros":505');
  });

  it('a change that leaves session and roles as they were keeps the stream open', async () => {
    const user = await signUpUser(app);
    const stream = await openStream(app, user.cookie, readers);
    // The session's daily refresh, and a new name: both send notices.
    await database.db.update(sessions).set({ expiresAt: new Date(Date.now() + 86_400_000) }).where(eq(sessions.userId, user.id));
    await database.db.update(users).set({ name: 'Renamed Here' }).where(eq(users.id, user.id));
    await realtime.publish(user.id, balance(606));
    await stream.until('"balanceMicros":606');
    expect(stream.text()).not.toContain('event: closed');
    expect(realtime.streams.count({ user: user.id })).toBe(1);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a live stream and its session, across two instances (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const instances: { database: Database; realtime: RealtimeHub; app: Hono }[] = [];
  const readers: Reader[] = [];
  beforeAll(async () => {
    scratch = await createScratchDatabase('streams', url, inject('postgresTemplate') || undefined);
    for (let i = 0; i < 2; i++) {
      const database = await openPostgres(scratch.url, 4);
      const realtime = await createRealtimeHub(database, createLogger('silent'));
      const { app } = await createTestApp(database, { realtime });
      instances.push({ database, realtime, app });
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(readers.map((r) => r.cancel()));
    for (const { realtime, database } of instances) {
      await realtime.close();
      await database.close();
    }
    await scratch?.drop();
  }, 30_000);

  it('signing out on one instance ends the stream open on the other', async () => {
    const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const user = await signUpUser(one.app);
    const stream = await openStream(two.app, user.cookie, readers);
    await one.realtime.publish(user.id, balance(111));
    await stream.until('"balanceMicros":111');

    expect((await post(one.app, '/api/auth/sign-out', {}, { cookie: user.cookie })).status).toBe(200);
    await one.realtime.publish(user.id, balance(222));
    const text = await stream.untilEnd();
    expect(text).toContain('"reason":"session_ended"');
    expect(text).not.toContain('"balanceMicros":222');
    expect(two.realtime.streams.count({ user: user.id })).toBe(0);
  });

  it('after a gap in the listening connection, a stream whose session ended meanwhile is closed and the others read again', async () => {
    const [, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const ending = await signUpUser(two.app);
    const staying = await signUpUser(two.app);
    const ended = await openStream(two.app, ending.cookie, readers);
    const kept = await openStream(two.app, staying.cookie, readers);

    // The connection drops; the session ends while nobody listens (its notice is lost).
    const listening = await two.database.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
    );
    await two.database.query(`select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1::int[])`, [listening.map((r) => r.pid)]);
    await two.database.db.delete(sessions).where(eq(sessions.userId, ending.id));

    expect(await ended.untilEnd()).toContain('"reason":"session_ended"');
    await kept.until('event: resync');
    await two.realtime.publish(staying.id, balance(333));
    await kept.until('"balanceMicros":333');
  });
});

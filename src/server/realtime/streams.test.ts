import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { createRealtimeHub, type RealtimeHub } from './hub';
import { createStreamRegistry, STREAM_LIMITS } from './streams';
import { eventStreamReader } from '../testing/events';

describe('stream registry', () => {
  it('closes the oldest stream of an account or an address over its cap, and forgets closed ones', () => {
    const registry = createStreamRegistry({ perUser: 2, perAddress: 3 });
    const closed: string[] = [];
    const handle = (name: string) => ({ close: () => void closed.push(name) });
    const forgetA1 = registry.open('a', '10.0.0.1', handle('a1'));
    registry.open('a', '10.0.0.2', handle('a2'));
    registry.open('a', '10.0.0.3', handle('a3'));
    expect(closed).toEqual(['a1']);
    forgetA1(); // already gone: forgetting twice changes nothing
    expect(registry.count({ user: 'a' })).toBe(2);

    registry.open('b', '10.0.0.9', handle('b1'));
    registry.open('c', '10.0.0.9', handle('c1'));
    registry.open('d', '10.0.0.9', handle('d1'));
    registry.open('e', '10.0.0.9', handle('e1'));
    expect(closed).toEqual(['a1', 'b1']);
    expect(registry.count({ address: '10.0.0.9' })).toBe(3);
    expect(registry.count()).toBe(5);
  });
});

describe('GET /api/events caps', () => {
  let database: Database;
  let realtime: RealtimeHub;
  let app: Hono;
  beforeAll(async () => {
    database = await createTestDatabase();
    realtime = await createRealtimeHub(database, createLogger('silent'));
    ({ app } = await createTestApp(database, { realtime }));
  });
  afterAll(async () => {
    await realtime.close();
    await database.close();
  });

  const controllers: AbortController[] = [];
  afterAll(() => controllers.forEach((c) => c.abort()));

  /** Opens a stream and reads until its `ready` event; returns a reader for the rest. */
  async function open(cookie: string, ip: string) {
    const controller = new AbortController();
    controllers.push(controller);
    const res = await app.request('/api/events', { headers: { cookie, 'x-forwarded-for': ip }, signal: controller.signal });
    expect(res.status).toBe(200);
    const stream = eventStreamReader(res);
    await stream.until('event: ready');
    return { readUntilEnd: stream.untilEnd, text: stream.text };
  }

  const ended = (stream: { readUntilEnd(): Promise<string> }) =>
    Promise.race([stream.readUntilEnd(), new Promise<string>((ok) => setTimeout(() => ok('still open'), 3000))]);

  it('closes the oldest stream of an account once it holds more than the cap, telling it why', async () => {
    const user = await signUpUser(app);
    const streams = [];
    for (let i = 0; i < STREAM_LIMITS.perUser + 1; i += 1) streams.push(await open(user.cookie, `192.0.2.${i + 1}`));
    const first = await ended(streams[0]!);
    expect(first).toContain('event: closed');
    expect(first).toContain('too_many_streams');
    expect(await ended(streams[1]!)).toBe('still open');
  });

  it('closes the oldest streams of one address across accounts', async () => {
    const ip = '198.51.100.77';
    const perUser = STREAM_LIMITS.perUser - 1;
    const accounts = Math.ceil((STREAM_LIMITS.perAddress + 1) / perUser);
    const streams = [];
    for (let a = 0; a < accounts; a += 1) {
      const user = await signUpUser(app);
      for (let i = 0; i < perUser; i += 1) streams.push(await open(user.cookie, ip));
    }
    const over = streams.length - STREAM_LIMITS.perAddress;
    expect(over).toBeGreaterThan(0);
    const results = await Promise.all(streams.slice(0, over + 1).map(ended));
    expect(results.slice(0, over).every((t) => t.includes('event: closed'))).toBe(true);
    expect(results[over]).toBe('still open');
  });
});

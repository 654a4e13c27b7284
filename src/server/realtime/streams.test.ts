import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { createRealtimeHub, type RealtimeHub } from './hub';
import { createStreamRegistry, STREAM_LIMITS, STREAM_RETRY_AFTER_SECONDS, type OpenResult } from './streams';
import { eventStreamReader } from '../testing/events';

describe('stream registry', () => {
  const closed: string[] = [];
  const handle = (name: string) => ({ close: () => void closed.push(name), hold: () => () => {}, resync: () => {} });
  const stream = (user: string, address: string) => ({ user, address, token: `${user}-token`, roles: ['user'] });
  const opened = (result: OpenResult) => {
    if (!result.ok) throw new Error(`refused: ${result.refused}`);
    return result.forget;
  };

  it('closes the oldest stream of an account over its cap, and forgets closed ones', () => {
    closed.length = 0;
    const registry = createStreamRegistry({ perUser: 2, perAddress: 3, perInstance: 100 });
    const forgetA1 = opened(registry.open(stream('a', '10.0.0.1'), handle('a1')));
    registry.open(stream('a', '10.0.0.2'), handle('a2'));
    registry.open(stream('a', '10.0.0.3'), handle('a3'));
    expect(closed).toEqual(['a1']);
    forgetA1(); // already gone: forgetting twice changes nothing
    expect(registry.count({ user: 'a' })).toBe(2);
    expect(registry.count()).toBe(2);
  });

  it('an address over its cap takes from the account holding the most streams there, never from one with fewer', () => {
    closed.length = 0;
    const registry = createStreamRegistry({ perUser: 8, perAddress: 6, perInstance: 100 });
    const office = '10.0.0.9';
    registry.open(stream('b', office), handle('b1'));
    registry.open(stream('c', office), handle('c1'));
    // One visitor with two accounts opens stream after stream from the same address.
    for (let i = 1; i <= 12; i++) registry.open(stream(i % 2 ? 'x' : 'y', office), handle(`${i % 2 ? 'x' : 'y'}${i}`));
    expect(closed.filter((name) => name.startsWith('b') || name.startsWith('c'))).toEqual([]);
    expect(registry.count({ user: 'b' })).toBe(1);
    expect(registry.count({ user: 'c' })).toBe(1);
    expect(registry.count({ address: office })).toBe(6);
    // The newcomer on the full address is let in at the expense of the one holding the most.
    registry.open(stream('d', office), handle('d1'));
    expect(registry.count({ user: 'd' })).toBe(1);
    expect(closed.at(-1)).toMatch(/^[xy]/);
  });

  it('refuses a new stream when everyone on the full address holds as many as it would', () => {
    closed.length = 0;
    const registry = createStreamRegistry({ perUser: 8, perAddress: 2, perInstance: 100 });
    registry.open(stream('a', '10.0.0.7'), handle('a1'));
    registry.open(stream('b', '10.0.0.7'), handle('b1'));
    expect(registry.open(stream('c', '10.0.0.7'), handle('c1'))).toEqual({ ok: false, refused: 'address' });
    // An account already there gives up its own oldest instead.
    opened(registry.open(stream('a', '10.0.0.7'), handle('a2')));
    expect(closed).toEqual(['a1']);
    expect(registry.count({ address: '10.0.0.7' })).toBe(2);
  });

  it('refuses a new stream past the instance cap and closes none, but lets an account replace its own', () => {
    closed.length = 0;
    const registry = createStreamRegistry({ perUser: 2, perAddress: 10, perInstance: 3 });
    registry.open(stream('a', '10.0.1.1'), handle('a1'));
    registry.open(stream('a', '10.0.1.2'), handle('a2'));
    const forgetB1 = opened(registry.open(stream('b', '10.0.1.3'), handle('b1')));
    expect(registry.open(stream('c', '10.0.1.4'), handle('c1'))).toEqual({ ok: false, refused: 'instance' });
    expect(closed).toEqual([]);
    opened(registry.open(stream('a', '10.0.1.5'), handle('a3')));
    expect(closed).toEqual(['a1']);
    forgetB1();
    opened(registry.open(stream('c', '10.0.1.4'), handle('c1')));
    expect(registry.count()).toBe(3);
  });

  it('lists the streams of a session and of an account, and closes one for a reason', () => {
    const reasons: string[] = [];
    const registry = createStreamRegistry();
    registry.open({ user: 'a', address: '10.0.2.1', token: 't1', roles: [] }, { close: (r) => void reasons.push(r), hold: () => () => {}, resync: () => {} });
    registry.open({ user: 'a', address: '10.0.2.1', token: 't2', roles: [] }, { close: (r) => void reasons.push(r), hold: () => () => {}, resync: () => {} });
    expect(registry.list({ token: 't1' })).toHaveLength(1);
    expect(registry.list({ user: 'a' })).toHaveLength(2);
    const [first] = registry.list({ token: 't1' });
    registry.close(first!, 'session_ended');
    registry.close(first!, 'session_ended');
    expect(reasons).toEqual(['session_ended']);
    expect(registry.list()).toHaveLength(1);
  });
});

describe('GET /api/events caps', () => {
  let database: Database;
  const hubs: RealtimeHub[] = [];
  let app: Hono;
  /** An app whose hub has small caps. */
  let small: Hono;
  let smallHub: RealtimeHub;
  beforeAll(async () => {
    database = await createTestDatabase();
    const realtime = await createRealtimeHub(database, createLogger('silent'));
    smallHub = await createRealtimeHub(database, createLogger('silent'), { streamLimits: { perUser: 4, perAddress: 3, perInstance: 5 } });
    hubs.push(realtime, smallHub);
    ({ app } = await createTestApp(database, { realtime }));
    ({ app: small } = await createTestApp(database, { realtime: smallHub }));
  });
  afterAll(async () => {
    await closeAll();
    for (const hub of hubs) await hub.close();
    await database.close();
  });

  const readers: ReturnType<typeof eventStreamReader>[] = [];
  /** Closes every stream opened so far, as a browser leaving the page would. */
  const closeAll = () => Promise.all(readers.splice(0).map((r) => r.cancel()));

  /** Opens a stream and reads until its `ready` event; returns a reader for the rest. */
  async function open(cookie: string, ip: string, on = app) {
    const res = await on.request('/api/events', { headers: { cookie, 'x-forwarded-for': ip } });
    expect(res.status).toBe(200);
    const stream = eventStreamReader(res);
    readers.push(stream);
    await stream.until('event: ready');
    return { readUntilEnd: stream.untilEnd, text: stream.text, until: stream.until };
  }

  it('closes the oldest stream of an account once it holds more than the cap, telling it why', async () => {
    const user = await signUpUser(app);
    const streams = [];
    for (let i = 0; i < STREAM_LIMITS.perUser + 1; i += 1) streams.push(await open(user.cookie, `192.0.2.${i + 1}`));
    const first = await streams[0]!.readUntilEnd();
    expect(first).toContain('event: closed');
    expect(first).toContain('too_many_streams');
    expect(hubs[0]!.streams.count({ user: user.id })).toBe(STREAM_LIMITS.perUser);
  });

  it("one account opening many streams from an address never closes another account's stream there", async () => {
    const ip = '198.51.100.77';
    const bystander = await signUpUser(small);
    const crowd = await signUpUser(small);
    const kept = await open(bystander.cookie, ip, small);
    const mine = [];
    for (let i = 0; i < 6; i++) mine.push(await open(crowd.cookie, ip, small));
    // The crowding account lost its own oldest streams to the address's cap …
    for (const stream of mine.slice(0, 4)) expect(await stream.readUntilEnd()).toContain('too_many_streams');
    expect(smallHub.streams.count({ address: ip })).toBe(3);
    // … and the other account's stream is still open and gets its events.
    expect(smallHub.streams.count({ user: bystander.id })).toBe(1);
    await smallHub.publish(bystander.id, { type: 'ticket', ticketId: 'still-here' });
    await kept.until('still-here');
    expect(kept.text()).not.toContain('event: closed');
    await closeAll();
    await vi.waitFor(() => expect(smallHub.streams.count()).toBe(0));
  });

  it('refuses a new stream past the instance cap with 429 TOO_MANY_STREAMS and a Retry-After, closing none', async () => {
    const open5 = [];
    for (let i = 0; i < 5; i++) {
      const user = await signUpUser(small);
      open5.push(await open(user.cookie, `203.0.113.${i + 1}`, small));
    }
    const late = await signUpUser(small);
    const res = await small.request('/api/events', { headers: { cookie: late.cookie, 'x-forwarded-for': '203.0.113.99' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(STREAM_RETRY_AFTER_SECONDS));
    expect(await res.json()).toMatchObject({ error: { code: 'TOO_MANY_STREAMS', details: { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS } } });
    expect(smallHub.streams.count()).toBe(5);
    for (const stream of open5) expect(stream.text()).not.toContain('event: closed');
  });
});

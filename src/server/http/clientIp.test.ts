import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { parseEnv } from '../env';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { clientAddress } from './clientIp';

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', 0)).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7', undefined, 0)).toBe('203.0.113.7');
  });

  it('behind trusted proxies, is what the outermost of them saw; entries further left are ignored', () => {
    // nginx (10.0.0.2) saw the visitor 198.51.100.1.
    expect(clientAddress('10.0.0.2', '198.51.100.1', 1)).toBe('198.51.100.1');
    // The visitor sent a made-up entry of its own; nginx appended the real one.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.1', 1)).toBe('198.51.100.1');
    // A CDN in front of nginx: two hops.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.1, 172.16.0.9', 2)).toBe('198.51.100.1');
    // Fewer entries than trusted hops: the leftmost there is.
    expect(clientAddress('10.0.0.2', ' 198.51.100.1 ', 3)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('in process, without a socket, is the first forwarded entry or "local"', () => {
    expect(clientAddress(undefined, '198.51.100.1, 10.0.0.2', 0)).toBe('198.51.100.1');
    expect(clientAddress(undefined, undefined, 1)).toBe('local');
  });
});

describe('sign-up limit per address over real HTTP', () => {
  let database: Database;
  const servers: ServerType[] = [];

  /** The app with TRUST_PROXY_HOPS on a loopback port. */
  async function listen(hops: number): Promise<string> {
    const env = parseEnv({ NODE_ENV: 'test', JOBS: 'false', LOG_LEVEL: 'silent', TRUST_PROXY_HOPS: String(hops) });
    const { app } = await createTestApp(database, { env });
    return new Promise((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      servers.push(server);
    });
  }
  const signUp = (url: string, forwardedFor?: string) =>
    fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: '{}',
    }).then((r) => r.status);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await database.close();
  });

  it('behind one trusted proxy counts each visitor apart, and a made-up entry does not dodge the limit', async () => {
    const url = await listen(1);
    const first = [];
    for (let i = 0; i < 10; i++) first.push(await signUp(url, `9.9.9.${i}, 198.51.100.1`));
    expect(first).not.toContain(429);
    expect(await signUp(url, '8.8.8.8, 198.51.100.1')).toBe(429);
    expect(await signUp(url, '198.51.100.2')).not.toBe(429);
  });

  it('with no proxy trusted, the header changes nothing: every request counts against the peer', async () => {
    const url = await listen(0);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push(await signUp(url, `198.51.100.${100 + i}`));
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses[10]).toBe(429);
  });
});

import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { handleError } from './http/errors';
import { createLogger } from './logger';
import { createTestApp } from './testing/app';
import { createTestDatabase } from './testing/db';
import { useTestShop } from './testing/shop';

let app: Awaited<ReturnType<typeof createTestApp>>['app'];

useTestShop((shop) => ({ app } = shop));

/** A tiny app with the platform's error handler, to throw on purpose. */
function throwingApp() {
  const boom = new Hono();
  boom.onError(handleError(createLogger('silent')));
  boom.use('*', compress());
  boom.get('/app-error', () => {
    throw new AppError('INSUFFICIENT_BALANCE', 'Balance is too low.', { needed: 5 });
  });
  boom.get('/bug', () => {
    throw new Error('secret internal detail at /srv/app.ts:42');
  });
  boom.get('/big', (c) => c.json({ items: Array.from({ length: 500 }, (_, i) => ({ i, name: 'service name' })) }));
  return boom;
}

describe('platform HTTP behaviour', () => {
  it('refuses absurdly long paths with 414 before any route runs', async () => {
    const long = await app.request(`/en/${"$'".repeat(1100)}`);
    expect(long.status).toBe(414);
    expect(((await long.json()) as { error: { code: string } }).error.code).toBe('URI_TOO_LONG');
    expect((await app.request(`/api/catalog/services/${'9'.repeat(3000)}`)).status).toBe(414);
    expect((await app.request(`/api/ping?q=${'x'.repeat(9000)}`)).status).toBe(414);
    // An ordinary long address still reaches its route.
    expect((await app.request(`/api/ping?q=${'x'.repeat(3000)}`)).status).toBe(200);
  });

  it('answers /healthz with ok while the database answers', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers', async () => {
    const res = await app.request('/healthz');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('maps unknown API routes to a JSON 404 with a stable code', async () => {
    const res = await app.request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('maps AppError to its status and code', async () => {
    const res = await throwingApp().request('/app-error');
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: { code: 'INSUFFICIENT_BALANCE', message: 'Balance is too low.', details: { needed: 5 } } });
  });

  it('answers unknown errors generically, without a stack trace or internal detail', async () => {
    const res = await throwingApp().request('/bug');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong. Please try again.' } });
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toContain('app.ts');
  });

  it('refuses oversized bodies with 413', async () => {
    const res = await app.request('/api/ping', { method: 'POST', body: 'x'.repeat(300 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('compresses JSON when asked', async () => {
    const res = await throwingApp().request('/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('health when the database is gone', () => {
  it('answers 503', async () => {
    const db = await createTestDatabase();
    const { app: other } = await createTestApp(db);
    await db.close();
    const res = await other.request('/healthz');
    expect(res.status).toBe(503);
  });
});

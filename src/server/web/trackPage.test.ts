import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, like } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { orderViewSchema } from '../../core/contracts/orders';
import { post, signUpUser } from '../auth/testing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, orders, rateLimits } from '../db/schema';
import { RATE_RULES, rateKey } from '../http/rateLimit';
import { singleProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { sourceRenderer } from '../testing/web';
import { credit } from '../wallet/ledger';

/**
 * /track?order=… rendered on the server (features/tracking/TrackPage.tsx): the lookup's result in
 * the HTML, asked as the visitor under the tracking endpoint's own limit, and never kept.
 */
let database: Database;
let sandbox: SandboxProvider;
let app: Hono;
let number: string;
let customer: Awaited<ReturnType<typeof signUpUser>>;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600 });
  const provider = sandboxClient(sandbox);
  await syncCatalog(database.db, provider);
  // A built app (clientDir set): anonymous pages are kept in memory, customers' cut from shells.
  ({ app } = await createTestApp(database, { providers: singleProvider(provider), web: sourceRenderer(), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
  customer = await signUpUser(app);
  await credit(database.db, { userId: customer.id, amountMicros: 500_000_000, kind: 'topup', reference: `t-${customer.id}` });
  const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0)!;
  const placed = await post(app, '/api/orders', { serviceId: service.id, link: 'https://tiktok.com/@tracked.page', quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: customer.cookie });
  number = orderViewSchema.parse(await placed.json()).number;
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

/** A page request as it arrives from `ip` over a socket (what the address rule reads first). */
const page = (path: string, ip: string, headers: Record<string, string> = {}) => app.request(path, { headers }, { incoming: { socket: { remoteAddress: ip } } });
const island = (html: string) => /<div data-island="Track"[^>]*>/.exec(html)![0];
const props = (html: string) => {
  const json = /data-island-props="([^"]*)"/.exec(island(html))?.[1];
  return json ? (JSON.parse(json.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as { initial?: { number: string; result?: { status: string } } }) : {};
};
const status = (html: string) => /data-testid="track-result" data-status="([^"]+)"/.exec(html)?.[1] ?? null;
const counted = async (ip: string) => (await database.db.select().from(rateLimits).where(eq(rateLimits.key, rateKey(RATE_RULES.trackPerIp, ip))))[0]?.count ?? 0;
const text = (lang: string, ns: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, never>;
const setStatus = (s: 'completed' | 'in_progress') => database.db.update(orders).set({ status: s }).where(eq(orders.number, number));

describe('the order lookup with a number in the address', () => {
  it('arrives with the order’s status in its HTML and as the island’s first state, which waits to be touched', async () => {
    const res = await page(`/track?order=${number.toLowerCase()}`, '10.1.0.1', { cookie: 'lang=en' });
    expect(res.status).toBe(200);
    const html = await res.text();
    const [row] = await database.db.select().from(orders).where(eq(orders.number, number));
    expect(status(html)).toBe(row!.status);
    expect(html).toContain(`id="track-result-title" class="font-mono text-xl font-bold text-slate-900">${number}</h2>`);
    expect(props(html).initial).toMatchObject({ number, result: { status: row!.status } });
    // Touched, with no address parameter that wakes it at load.
    expect(island(html)).toContain('data-island-wake="touched"');
    expect(island(html)).not.toContain('data-island-wake-query');
    // The field holds the number as it was typed in the address.
    expect(html).toContain(`value="${number.toLowerCase()}"`);
  });

  it('is asked as the visitor under the endpoint’s limit: counted on the address the page came from, never on one the visitor wrote', async () => {
    await page(`/track?order=${number}`, '10.1.0.2', { 'x-forwarded-for': '203.0.113.9' });
    expect(await counted('10.1.0.2')).toBe(1);
    expect(await counted('203.0.113.9')).toBe(0);
    // The page's other in-process calls (the site's settings, the visitor) count nothing; a page without a number asks nothing.
    await page('/track', '10.1.0.2');
    expect(await counted('10.1.0.2')).toBe(1);
  });

  it('says "not found" in the page’s language, and the limit’s refusal once the visitor is past it', async () => {
    for (const lang of ['az', 'tr', 'en']) {
      const html = await (await page('/track?order=AR-0000000000', '10.1.0.3', { cookie: `lang=${lang}` })).text();
      expect(html, lang).toContain(`data-testid="track-failure">`);
      expect(html, lang).toContain(text(lang, 'tracking').notFound);
      expect(status(html)).toBeNull();
      expect(props(html).initial).toEqual({ number: 'AR-0000000000', error: { code: 'ORDER_NOT_FOUND', status: 404 } });
    }
    const ip = '10.1.0.4';
    await database.db.insert(rateLimits).values({ key: rateKey(RATE_RULES.trackPerIp, ip), count: RATE_RULES.trackPerIp.limit, resetAt: new Date(Date.now() + 60_000) });
    const limited = await page(`/track?order=${number}`, ip, { cookie: 'lang=en' });
    // Answered as the endpoint answers: 429, and when to come back.
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    const html = await limited.text();
    expect(status(html)).toBeNull();
    expect(html).toContain('Too many searches. Try again in 1 min.');
  });

  it('is rendered for each request, signed out and signed in: never kept, never another visitor’s copy', async () => {
    await setStatus('in_progress');
    const first = await page(`/track?order=${number}`, '10.1.0.5');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('etag')).toBeNull();
    expect(status(await first.text())).toBe('in_progress');
    await setStatus('completed');
    expect(status(await (await page(`/track?order=${number}`, '10.1.0.6')).text())).toBe('completed');
    expect(await counted('10.1.0.5')).toBe(1);
    expect(await counted('10.1.0.6')).toBe(1);

    // A customer's page is not cut from a shell: rendered for them, counted on their address only.
    await setStatus('in_progress');
    const before = await database.db.select().from(rateLimits).where(like(rateLimits.key, 'track:ip:%'));
    const mine = await page(`/track?order=${number}`, '10.1.0.7', { cookie: customer.cookie });
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(status(await mine.text())).toBe('in_progress');
    await setStatus('completed');
    expect(status(await (await page(`/track?order=${number}`, '10.1.0.7', { cookie: customer.cookie })).text())).toBe('completed');
    const after = await database.db.select().from(rateLimits).where(like(rateLimits.key, 'track:ip:%'));
    expect(after.length).toBe(before.length + 1);
    expect(await counted('10.1.0.7')).toBe(2);

    // The page without a number is still kept, and holds no lookup.
    const plain = await page('/track', '10.1.0.8');
    expect(plain.headers.get('cache-control')).toMatch(/^public/);
    const html = await plain.text();
    expect(status(html)).toBeNull();
    expect(props(html)).toEqual({});
  });
});

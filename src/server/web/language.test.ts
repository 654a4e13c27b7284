import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';

let database: Database;
let app: Hono;

beforeAll(async () => {
  database = await createTestDatabase();
  // A built app (clientDir set) keeps anonymous pages in memory: the language must be part of what it keys them by.
  ({ app } = await createTestApp(database, { web: sourceRenderer(), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
});
afterAll(async () => {
  await database.close();
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
const htmlLang = async (res: Response) => /<html lang="([a-z]+)"/.exec(await res.text())?.[1];
const description = async (res: Response) => /<meta name="description" content="([^"]*)"/.exec(await res.text())?.[1];
const vary = (res: Response) => (res.headers.get('vary') ?? '').toLowerCase();

describe('a first visit', () => {
  it('goes from / to the first of our languages among the browser’s, in quality order', async () => {
    const cases: [string, string][] = [
      ['az-AZ,az;q=0.9,en-US;q=0.8,en;q=0.7', '/az'],
      ['tr-TR,tr;q=0.9', '/tr'],
      ['ru-RU,ru;q=0.9,tr;q=0.6,en;q=0.5', '/tr'],
      ['en;q=0.4,az;q=0.8', '/az'],
      ['de-DE,de;q=0.9', '/en'],
      ['az;q=0,en', '/en'],
      ['', '/en'],
    ];
    for (const [accept, location] of cases) {
      const res = await get('/', accept ? { 'accept-language': accept } : {});
      expect(res.status, accept).toBe(302);
      expect(res.headers.get('location'), accept).toBe(location);
      expect(vary(res)).toContain('accept-language');
      expect(vary(res)).toContain('cookie');
    }
  });

  it('keeps the query string, and a remembered language wins over the browser’s', async () => {
    const res = await get('/?auth=required', { 'accept-language': 'az', cookie: 'lang=tr' });
    expect(res.headers.get('location')).toBe('/tr?auth=required');
  });

  it('shows a page without a prefix in the browser’s language, each language kept apart', async () => {
    for (const [accept, lang] of [
      ['en-GB,en;q=0.9', 'en'],
      ['tr-TR,tr;q=0.9,en;q=0.8', 'tr'],
      ['az', 'az'],
      ['en-GB,en;q=0.9', 'en'],
    ] as const) {
      const res = await get('/track', { 'accept-language': accept });
      expect(res.status).toBe(200);
      expect(await htmlLang(res), accept).toBe(lang);
      expect(vary(res)).toContain('accept-language');
    }
    expect(await htmlLang(await get('/auth', { 'accept-language': 'tr' }))).toBe('tr');
  });
});

describe('a page in a language', () => {
  it('remembers it: the answer sets the cookie, and pages without a prefix follow it', async () => {
    const first = await get('/az/about', { 'accept-language': 'en-US,en;q=0.9' });
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^lang=az; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    // A shared cache must not keep an answer that sets a cookie.
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const remembered = cookie.split(';')[0]!;
    for (const path of ['/track', '/auth', '/terms', '/payment-success?order=balance-x', '/reset-password']) {
      expect(await htmlLang(await get(path, { cookie: remembered, 'accept-language': 'en-US,en;q=0.9' })), path).toBe('az');
    }
    expect((await get('/', { cookie: remembered, 'accept-language': 'en' })).headers.get('location')).toBe('/az');
  });

  it('sets nothing when the cookie already names it, and is then shared as usual', async () => {
    await get('/tr/services', { cookie: 'lang=tr' });
    const again = await get('/tr/services', { cookie: 'lang=tr' });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(again.headers.get('cache-control')).toMatch(/^public/);
  });

  it('replaces another remembered language, also when the page comes from memory', async () => {
    await get('/en/contact', { cookie: 'lang=en' });
    const res = await get('/en/contact', { cookie: 'lang=az' });
    expect(res.headers.get('set-cookie')).toMatch(/^lang=en;/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(await htmlLang(res)).toBe('en');
  });

  it('is not remembered from what is not a page', async () => {
    expect((await get('/api/settings', { cookie: 'lang=en' })).headers.get('set-cookie') ?? '').not.toMatch(/lang=/);
    expect((await get('/az/nonexistent-place')).headers.get('set-cookie')).toMatch(/^lang=az;/);
  });
});

describe('the home page', () => {
  it('has a description in its own language', async () => {
    const az = await description(await get('/az'));
    const tr = await description(await get('/tr'));
    const en = await description(await get('/en'));
    expect(az).toMatch(/sosial media artımı/i);
    expect(tr).toMatch(/sosyal medya büyümesi/i);
    expect(en).toMatch(/social media growth/i);
  });
});

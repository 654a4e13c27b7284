import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { catalogServices } from '../db/schema';
import { catalogRow, tier } from '../testing/catalogRows';
import { createLogger } from '../logger';
import { createRealtimeHub, type RealtimeHub } from '../realtime/hub';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';
import { eventually } from '../testing/eventually';

let database: Database;
let realtime: RealtimeHub;
let app: Hono;

beforeAll(async () => {
  database = await createTestDatabase();
  realtime = await createRealtimeHub(database, createLogger('silent'));
  // A built app (clientDir set) keeps anonymous pages in memory.
  ({ app } = await createTestApp(database, { web: sourceRenderer(), realtime, clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
  // A catalogue of two platforms, for the order page's list.
  const service = (id: string, platform: string, name: string, type: string) => catalogRow({ id, platform, name, type, tiers: [tier(10, 10_000, '0.5')] });
  await database.db.insert(catalogServices).values([service('701', 'tiktok', 'TikTok Likes [Real]', 'Likes'), service('702', 'instagram', 'Instagram Followers [HQ]', 'Followers')]);
});
afterAll(async () => {
  await realtime.close();
  await database.close();
});

const title = (html: string) => /<title>(.*?)<\/title>/.exec(html)![1]!;

describe('anonymous public pages from memory', () => {
  it('serve the kept page until the settings change, then the new one', async () => {
    const first = await app.request('/en/about', { headers: { cookie: 'lang=en' } });
    expect(first.headers.get('cache-control')).toMatch(/^public/);
    const etag = first.headers.get('etag')!;
    expect(title(await first.text())).toMatch(/Artım/);
    expect((await app.request('/en/about', { headers: { 'if-none-match': etag } })).status).toBe(304);

    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const saved = await app.request('/api/admin/settings', {
      method: 'PUT',
      headers: { cookie: admin, 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ site_name: 'Yeni Ad' }),
    });
    expect(saved.status).toBe(200);

    await eventually(async () => {
      const again = await app.request('/en/about', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(200);
      expect(title(await again.text())).toMatch(/Yeni Ad/);
    });
  });

  it('are never what a signed-in visitor gets', async () => {
    await app.request('/en/services');
    const user = await signUpUser(app, { name: 'Kamran Əliyev' });
    const res = await app.request('/en/services', { headers: { cookie: user.cookie } });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('etag')).toBeNull();
    expect(await res.text()).toContain('Kamran');
  });
});

describe('public pages of islands', () => {
  const boot = (html: string) => JSON.parse(/<script type="application\/json" id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, unknown>;

  it('load the islands script and no router state; the order page too, the API documentation stays the app', async () => {
    for (const path of ['/en', '/az/services', '/tr/contact', '/en/about', '/terms', '/track', '/en/faq', '/en/blog']) {
      const html = await (await app.request(path)).text();
      expect(html, path).toContain('/entry-islands.tsx');
      expect(html, path).not.toContain('/entry-client.tsx');
      expect(html, path).toMatch(/data-island="Header"/);
      expect(boot(html), path).not.toHaveProperty('hydration');
      expect(boot(html), path).toHaveProperty('site');
    }
    // The page's own text is in its HTML; the boot data carries only what the islands read: the
    // text itself when an island wakes by itself, else the names of the bundles the first to wake
    // loads (docs/decisions/0030).
    const bundles = (html: string, lang: string) => Object.keys((boot(html).resources as Record<string, object>)[lang]!).sort();
    const later = (html: string) => {
      expect(boot(html)).not.toHaveProperty('resources');
      return boot(html).text;
    };
    expect(later(await (await app.request('/terms', { headers: { cookie: 'lang=en' } })).text())).toEqual(['common']);
    expect(later(await (await app.request('/tr/contact')).text())).toEqual(['common', 'support']);
    expect(later(await (await app.request('/az')).text())).toEqual(['common']);
    expect(later(await (await app.request('/track')).text())).toEqual(['common', 'tracking']);
    // The header wakes by itself for the sign-in asked in the address, and the dialog's text comes
    // with the page (no request for it after the header's code).
    expect(bundles(await (await app.request('/az?auth=required')).text(), 'az')).toEqual(['auth', 'common']);
    expect(bundles(await (await app.request('/en?verified=1')).text(), 'en')).toEqual(['auth', 'common']);
    // The order page is one island (docs/decisions/0028) reading the catalogue's texts.
    const order = await (await app.request('/en/order')).text();
    expect(order).toContain('/entry-islands.tsx');
    expect(order).toMatch(/data-island="Order"/);
    expect(bundles(order, 'en')).toEqual(['catalog', 'common']);
    // Its heading names the platform of the address before the list comes: nothing shifts when it does.
    expect(await (await app.request('/en/order?platform=tiktok')).text()).toMatch(/<h1[^>]*>TikTok services<\/h1>/);
    // A page of the app (the API documentation) hydrates the whole router.
    const appPage = await (await app.request('/en/api')).text();
    expect(appPage).toContain('/entry-client.tsx');
    expect(appPage).toContain('<div id="root" data-island="app">');
    expect(boot(appPage)).toHaveProperty('hydration');
  });

  it('the order page and a customer’s dashboard come with the service list, as the API answers it with its ETag, and render with it', async () => {
    const listedResponse = await app.request('/api/catalog/services?lang=en');
    const listedTag = listedResponse.headers.get('ETag');
    expect(listedTag).toBeTruthy();
    const listed = (await listedResponse.json()) as { services: { name: string; platform: string }[] };
    const shown = listed.services.find((s) => !/[&<>"']/.test(s.name))!;
    const answers = (html: string) => boot(html).answers as Record<string, unknown> | undefined;
    const withoutScripts = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, '');
    const order = await (await app.request(`/en/order?platform=${shown.platform}`)).text();
    expect(answers(order)).toEqual({ 'catalog:services:en': listed });
    // The form's list of the platform's services is in the HTML, not only in the boot data.
    expect(withoutScripts(order)).toContain(shown.name);
    const user = await signUpUser(app);
    const dashboard = await (await app.request('/en/dashboard', { headers: { cookie: user.cookie } })).text();
    expect(answers(dashboard)).toEqual({ 'catalog:services:en': listed });
    // With the list's ETag, which the islands ask again with (a 304 when it has not changed).
    expect(boot(order).answerTags).toEqual({ 'catalog:services:en': listedTag });
    expect(boot(dashboard).answerTags).toEqual({ 'catalog:services:en': listedTag });
    expect((await app.request('/api/catalog/services?lang=en', { headers: { 'If-None-Match': listedTag! } })).status).toBe(304);
    // In the page's language; other pages send none.
    const az = (await (await app.request('/api/catalog/services?lang=az')).json()) as unknown;
    expect(answers(await (await app.request('/az/order')).text())).toEqual({ 'catalog:services:az': az });
    expect(answers(await (await app.request('/en')).text())).toBeUndefined();
  });
});

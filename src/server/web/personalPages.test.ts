import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createLogger } from '../logger';
import { createRealtimeHub, type RealtimeHub } from '../realtime/hub';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';
import { credit } from '../wallet/ledger';
import { LOCALES } from '../../core/i18n';
import { formatMoney } from '../../web/lib/format';
import { compressPiece, crcCombine, createPersonalPages, gzipPieces } from './personalPages';
import { eventually } from '../testing/eventually';

let database: Database;
let realtime: RealtimeHub;
let app: Hono;
/** Every page the renderer rendered, by address. */
const rendered: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  realtime = await createRealtimeHub(database, createLogger('silent'));
  const source = sourceRenderer();
  const web = { render: (request: Request, ctx: Parameters<typeof source.render>[1]) => (rendered.push(new URL(request.url).pathname), source.render(request, ctx)) };
  // A built app (clientDir set) keeps the shells of customers' pages in memory.
  ({ app } = await createTestApp(database, { web, realtime, clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
});
afterAll(async () => {
  await realtime.close();
  await database.close();
});

const boot = (html: string) => JSON.parse(/<script type="application\/json" id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, unknown> & { me: { id: string; fullName: string; email: string; balanceMicros: number } | null };
const page = (path: string, cookie: string, encoding = 'identity') => app.request(path, { headers: { cookie, 'accept-encoding': encoding } });

describe('customers’ pages from a shared shell', () => {
  it('show each customer only their own name, e-mail, balance and identity, rendered once for both', async () => {
    // Both have a balance: their pages have the same shape and share one shell.
    const first = await signUpUser(app, { name: 'Aysel <Məmmədova>' });
    const second = await signUpUser(app, { name: "Kerem O'Brien & Co" });
    await credit(database.db, { userId: first.id, amountMicros: 12_340_000, kind: 'topup', reference: `t-${first.id}` });
    await credit(database.db, { userId: second.id, amountMicros: 5_600_000, kind: 'topup', reference: `t-${second.id}` });

    for (const path of ['/en/dashboard', '/en/order', '/az/about']) {
      const before = rendered.length;
      const a = await page(path, first.cookie);
      const b = await page(path, second.cookie);
      const again = await page(path, first.cookie);
      // The two made-up customers of the shell, once, then never again for this address.
      expect(rendered.length - before, path).toBe(2);
      for (const res of [a, b, again]) {
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control'), path).toBe('private, no-store');
      }
      const [htmlA, htmlB, htmlAgain] = await Promise.all([a.text(), b.text(), again.text()]);
      expect(htmlAgain).toBe(htmlA);
      expect(boot(htmlA).me).toMatchObject({ id: first.id, email: first.email, fullName: 'Aysel <Məmmədova>', balanceMicros: 12_340_000 });
      expect(boot(htmlB).me).toMatchObject({ id: second.id, email: second.email, fullName: "Kerem O'Brien & Co", balanceMicros: 5_600_000 });
      for (const [html, other] of [
        [htmlA, second],
        [htmlB, first],
      ] as const) {
        expect(html, path).not.toContain(other.id);
        expect(html, path).not.toContain(other.email);
        expect(html, path).not.toContain(other.name === 'Aysel <Məmmədova>' ? 'Aysel' : 'Kerem');
        expect(html, path).not.toContain('x7shell');
      }
    }

    // The dashboard shows the name and the balance, escaped as the renderer escapes them.
    const dashA = await (await page('/en/dashboard', first.cookie)).text();
    const dashB = await (await page('/en/dashboard', second.cookie)).text();
    expect(dashA).toContain('Aysel &lt;Məmmədova&gt;');
    expect(dashA).toContain('$12.34');
    expect(dashA).not.toContain('$5.60');
    expect(dashB).toContain('Kerem O&#x27;Brien &amp; Co');
    expect(dashB).toContain('$5.60');
    expect(dashB).not.toContain('$12.34');
    // Its island's copy of who it is for (the boot data's, a page of islands) is theirs too.
    expect(boot(dashA).me?.id).toBe(first.id);
    expect(boot(dashB).me?.id).toBe(second.id);
  });

  it('is the page the renderer renders for the customer, gzipped from pieces compressed once', async () => {
    const customer = await signUpUser(app, { name: 'Leyla Həsənova' });
    await credit(database.db, { userId: customer.id, amountMicros: 7_000_000, kind: 'topup', reference: `t-${customer.id}` });
    const shell = await (await page('/tr/dashboard', customer.cookie)).text();
    const gzipped = await page('/tr/dashboard', customer.cookie, 'gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(shell);
    // A page with a new balance: the shell is the same, the balance is the new one.
    await credit(database.db, { userId: customer.id, amountMicros: 1_000_000, kind: 'topup', reference: `t2-${customer.id}` });
    const before = rendered.length;
    const after = await (await page('/tr/dashboard', customer.cookie)).text();
    expect(rendered.length).toBe(before);
    expect(boot(after).me?.balanceMicros).toBe(8_000_000);
    expect(after).toContain(formatMoney(8_000_000, 'USD', LOCALES.tr));
    expect(after).not.toContain(formatMoney(7_000_000, 'USD', LOCALES.tr));
  });

  it('renders afresh a customer whose balance has another sign, a page that reads their own prices, and a team member', async () => {
    const empty = await signUpUser(app, { name: 'Boş Hesab' });
    const before = rendered.length;
    // A zero balance is another shape: its own shell.
    const zero = await (await page('/en/dashboard', empty.cookie)).text();
    expect(rendered.length - before).toBe(2);
    expect(boot(zero).me).toMatchObject({ id: empty.id, balanceMicros: 0 });

    // The price list carries the customer's discount: rendered for every request.
    const prices = rendered.length;
    await page('/en/prices', empty.cookie);
    await page('/en/prices', empty.cookie);
    expect(rendered.length - prices).toBeGreaterThanOrEqual(4);

    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const team = rendered.length;
    const adminPage = await (await page('/en/dashboard', admin)).text();
    await page('/en/dashboard', admin);
    expect(rendered.length - team).toBe(2);
    expect(boot(adminPage).me?.email).toBe('admin@test.local');
  });

  it('answers a cookie whose session is gone as before: the dashboard sends to sign-in, other pages are signed out', async () => {
    const stale = 'artim.session_token=no-such-session.signature; lang=en';
    const dashboard = await page('/en/dashboard', stale);
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get('location')).toBe('/en?auth=required');
    const order = await page('/en/order', stale);
    expect(order.status).toBe(200);
    expect(boot(await order.text()).me).toBeNull();
  });

  it('renders the shell again once the settings change', async () => {
    const customer = await signUpUser(app, { name: 'Nigar Əliyeva' });
    const first = await (await page('/en/order', customer.cookie)).text();
    expect(first).not.toContain('Başqa Ad');
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const saved = await app.request('/api/admin/settings', {
      method: 'PUT',
      headers: { cookie: admin, 'content-type': 'application/json', origin: TEST_ORIGIN },
      body: JSON.stringify({ site_name: 'Başqa Ad' }),
    });
    expect(saved.status).toBe(200);
    await eventually(async () => {
      const again = await (await page('/en/order', customer.cookie)).text();
      expect(again).toContain('Başqa Ad');
      expect(boot(again).me?.id).toBe(customer.id);
    });
  });
});

describe('gzipPieces', () => {
  it('is one gzip member of the pieces and the fields between them', () => {
    const pieces = ['<html><body>'.repeat(500), ' and ', '', '</body></html>'].map((p) => Buffer.from(p));
    const fields = ['Aysel', '', 'ü'.repeat(70_000)].map((f) => Buffer.from(f));
    const body = gzipPieces(pieces.map(compressPiece), fields);
    const expected = Buffer.concat([pieces[0]!, fields[0]!, pieces[1]!, fields[1]!, pieces[2]!, fields[2]!, pieces[3]!]);
    // gunzip checks the trailer's CRC-32 and length against what it inflated.
    expect(gunzipSync(body).equals(expected)).toBe(true);
  });

  it('combines the CRC-32 of two parts into the CRC-32 of both, whatever their lengths', () => {
    for (const [a, b] of [
      [0, 0],
      [0, 5],
      [7, 0],
      [1, 1],
      [3, 70_000],
      [65_536, 131_071],
    ] as const) {
      const first = Buffer.from(Array.from({ length: a }, (_, i) => (i * 31 + 7) & 0xff));
      const second = Buffer.from(Array.from({ length: b }, (_, i) => (i * 17 + 3) & 0xff));
      const piece = compressPiece(second);
      expect(crcCombine(crc32(first), piece.crc, piece.shift), `${a}+${b}`).toBe(crc32(Buffer.concat([first, second])));
    }
  });
});

describe('createPersonalPages', () => {
  it('answers from a shell past its time while the next one is made, once', async () => {
    const customer = { id: 'u1', email: 'a@example.com', fullName: 'Aysel', roles: ['user' as const], balanceMicros: 5_000_000, twoFactorEnabled: false, twoFactorRequired: false, discount: null };
    let clock = 0;
    let renders = 0;
    let site = 'Old';
    const held: (() => void)[] = [];
    const pages = createPersonalPages({
      visitor: async () => ({ roles: customer.roles, me: async () => customer }),
      render: async (_url, _lang, me) => {
        renders++;
        if (site === 'New') await new Promise<void>((r) => held.push(r));
        return new Response(`<html><title>${site}</title><p>${me.fullName}</p></html>`, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      },
      ttlMs: 1000,
      now: () => clock,
    });
    const app = new Hono();
    app.use('*', pages.serve);
    app.get('*', (c) => c.text('rendered'));
    const get = async () => (await app.request('/en/order', { headers: { cookie: 'artim.session_token=t.s' } })).text();

    expect(await get()).toBe('<html><title>Old</title><p>Aysel</p></html>');
    expect(renders).toBe(2);
    clock = 5000;
    site = 'New';
    // Past its time: answered from the kept shell while the new one is made (two renders, once).
    expect(await get()).toContain('Old');
    expect(await get()).toContain('Old');
    expect(renders).toBe(4);
    held.forEach((r) => r());
    await new Promise((r) => setTimeout(r, 0));
    expect(await get()).toBe('<html><title>New</title><p>Aysel</p></html>');
    expect(renders).toBe(4);
  });
});

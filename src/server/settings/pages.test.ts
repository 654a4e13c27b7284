import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';

let database: Database;
let app: Hono;
let admin: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database, { web: sourceRenderer() }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
});
afterAll(() => database.close());

const html = async (path: string) => {
  const res = await app.request(path);
  expect(res.status, path).toBe(200);
  return res.text();
};
const title = (page: string) => page.match(/<title>([^<]*)<\/title>/)?.[1];
const description = (page: string) => page.match(/<meta name="description" content="([^"]*)"/)?.[1];
const footer = (page: string) => page.match(/<footer[\s\S]*<\/footer>/)?.[0] ?? '';

describe('site settings on the rendered pages', () => {
  it('the stored defaults are what the pages show', async () => {
    const home = await html('/az');
    expect(footer(home)).toContain('+994 12 000 00 00');
    expect(footer(home)).toContain('info@artim.az');
    expect(description(home)).toBe('Sosial media artımı və rəqəmsal marketinq xidmətləri');
  });

  it('new phone, e-mail, site name and description show in the footer, contact page, titles and meta descriptions', async () => {
    const res = await app.request('/api/admin/settings', {
      method: 'PUT',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin },
      body: JSON.stringify({ site_name: 'Böyümə Studio', site_description: 'Bakıda rəqəmsal böyümə studiyası', contact_phone: '+994 50 123 45 67', contact_email: 'salam@boyume.az' }),
    });
    expect(res.status).toBe(200);

    for (const lang of ['az', 'en'] as const) {
      const home = await html(`/${lang}`);
      expect(footer(home)).toContain('+994 50 123 45 67');
      expect(footer(home)).toContain('href="tel:+994501234567"');
      expect(footer(home)).toContain('mailto:salam@boyume.az');
      expect(footer(home)).toContain('Böyümə Studio');
      expect(footer(home)).not.toContain('info@artim.az');
      expect(title(home)).toContain('Böyümə Studio');
      expect(title(home)).not.toContain('Artım');
      // The shop's description is written in Azerbaijani: the English home reads its own, with the site's name.
      if (lang === 'az') expect(description(home)).toBe('Bakıda rəqəmsal böyümə studiyası');
      else expect(description(home)).toMatch(/^Böyümə Studio — /);
    }

    const contact = await html('/az/contact');
    expect(title(contact)).toBe('Əlaqə · Böyümə Studio');
    expect(description(contact)).toContain('Böyümə Studio');
    const main = contact.match(/<main[\s\S]*<\/main>/)?.[0] ?? '';
    expect(main).toContain('+994 50 123 45 67');
    expect(main).toContain('salam@boyume.az');
    expect(contact).not.toContain('555 00 00');

    const about = await html('/en/about');
    expect(title(about)).toBe('About us · Böyümə Studio');
    expect(description(about)).toContain('Böyümə Studio');

    expect(title(await html('/tr/services'))).toContain('Böyümə Studio');
    expect(title(await html('/terms'))).toContain('Böyümə Studio');
  });
});

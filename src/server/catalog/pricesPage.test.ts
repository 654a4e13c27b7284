import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { priceOrder } from '../../core/pricing';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { catalogServices, customerDiscounts, orders } from '../db/schema';
import { saveSettings } from '../settings';
import { catalogRow, tier } from '../testing/catalogRows';
import { useTestShop } from '../testing/shop';
import { renderedPage, sourceRenderer } from '../testing/web';

/**
 * The price list /{lang}/prices as the server renders it: every active service by platform and
 * type (services without a platform last, under "Other"), the rate an order is charged by, the
 * filters of the address, and a signed-in customer's own prices.
 */

let app: Hono;
let database: Database;
useTestShop((shop) => ({ app, database } = shop), { web: sourceRenderer() });

const service = catalogRow;

const SERVICES = [
  // Two tiers; orderable up to the first one's maximum (400), so 1000 cannot be ordered.
  service({ id: '1291', platform: 'instagram', name: 'Instagram Followers [Non Drop]', type: 'Followers', tiers: [tier(100, 400, '0.9834'), tier(500, 5000, '0.8556')], amountIncrement: 100, cancel: true }),
  service({ id: '2001', platform: 'instagram', name: 'Instagram Custom Comments', type: 'Custom Comments', tiers: [tier(10, 1000, '5')] }),
  service({ id: '3001', platform: 'tiktok', name: 'TikTok Likes [Real]', type: 'Likes', tiers: [tier(50, 50000, '0.4')], refill: true, refillDays: 30 }),
  service({ id: '4001', platform: '', name: 'Website Traffic [Worldwide]', type: 'Traffic', tiers: [tier(100, 100000, '0.3')] }),
  service({ id: '5001', platform: 'youtube', name: 'YouTube Views', type: 'Views', tiers: [tier(1000, 1_000_000, '1.2')] }),
];

let seeded: Promise<void> | undefined;
/** The catalogue above alone, a 10 % service fee, and five finished orders of #1291 (30 min to start, 150 to complete). */
function seed() {
  seeded ??= (async () => {
    await database.db.update(catalogServices).set({ active: false });
    await database.db.insert(catalogServices).values(SERVICES);
    await saveSettings(database.db, { service_fee: 10, base_fee: 0 });
    const owner = await signUpUser(app);
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    await database.db.insert(orders).values(
      Array.from({ length: 5 }, (_, i) => ({
        number: `AR-P${randomUUID().slice(0, 8)}`,
        userId: owner.id,
        serviceId: '1291',
        serviceName: '1291',
        platform: 'instagram',
        serviceType: 'Followers',
        link: `https://instagram.com/${randomUUID().slice(0, 8)}`,
        linkKey: randomUUID(),
        quantity: 100,
        chargeMicros: 108_174,
        idempotencyKey: randomUUID(),
        requestHash: 'h',
        status: 'completed' as const,
        providerOrderId: `p-${randomUUID()}`,
        createdAt: new Date(t0 + i * 3600_000),
        updatedAt: new Date(t0 + i * 3600_000 + 86_400_000),
        startedAt: new Date(t0 + i * 3600_000 + 30 * 60_000),
        completedAt: new Date(t0 + i * 3600_000 + 150 * 60_000),
      })),
    );
  })();
  return seeded;
}

/** The page as a document, the catalogue seeded first. */
async function page(path: string, cookie?: string): Promise<Document> {
  await seed();
  return renderedPage(app, path, cookie);
}

const rows = (doc: Document) => [...doc.querySelectorAll('tr[data-service]')].map((tr) => tr.getAttribute('data-service'));
const row = (doc: Document, id: string) => doc.querySelector(`tr[data-service="${id}"]`)!;
const priceOf = (doc: Document, id: string) => {
  const cell = row(doc, id).querySelector('[data-price]')!;
  return { usd: cell.getAttribute('data-price'), per: cell.getAttribute('data-per') };
};

describe('the price list /{lang}/prices', () => {
  it('lists every service by platform (those without one last, under Other) and by type, each row leading to the order form', async () => {
    const doc = await page('/en/prices');
    expect([...doc.querySelectorAll('section[data-platform]')].map((s) => s.getAttribute('data-platform'))).toEqual(['instagram', 'tiktok', 'youtube', 'other']);
    expect(doc.querySelector('section[data-platform="other"] h2')!.textContent).toContain('Other');
    // Within a platform, the order page's type order: followers before comments.
    expect([...doc.querySelectorAll('section[data-platform="instagram"] [data-type]')].map((t) => t.getAttribute('data-type'))).toEqual(['followers', 'comments']);
    expect(rows(doc)).toEqual(['1291', '2001', '3001', '5001', '4001']);
    const links = [...row(doc, '1291').querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/en/order?platform=instagram&service=1291', '/en/order?platform=instagram&service=1291']);
    // A service without a platform is ordered under Other.
    expect(row(doc, '4001').querySelector('a')!.getAttribute('href')).toBe('/en/order?platform=other&service=4001');
    expect(row(doc, '1291').textContent).toContain('Instagram Followers [Non Drop]');
    // Bounds, usual times, refill and cancel.
    const cells = [...row(doc, '1291').querySelectorAll('td')].map((td) => td.textContent?.trim());
    expect(cells).toEqual(expect.arrayContaining(['1291', '100', '400', '30 min', '2 h 30 min']));
    expect(row(doc, '5001').textContent).toContain('—');
    expect(row(doc, '3001').querySelector('[data-ability="refill"]')!.getAttribute('data-available')).toBe('true');
    expect(row(doc, '3001').querySelector('[data-ability="refill"]')!.textContent).toBe('30-day refill');
    expect(row(doc, '3001').querySelector('[data-ability="cancel"]')!.getAttribute('data-available')).toBe('false');
    expect(row(doc, '1291').querySelector('[data-ability="cancel"]')!.getAttribute('data-available')).toBe('true');
    expect(doc.querySelector('[data-testid="prices-count"]')!.textContent).toBe('Showing 5 of 5 services');
  });

  it('shows the rate of the tier a customer can order, so rate × quantity is the charge (comments per 10)', async () => {
    const doc = await page('/en/prices');
    // 0.9834 × 1.1 = 1.08174, the tier of 100–400; not the 0.94116 of the tier from 500, which no order reaches.
    expect(priceOf(doc, '1291')).toEqual({ usd: '1.08174', per: '1000' });
    const fees = { serviceFeePercent: 10, baseFee: 0 };
    const tiers = SERVICES[0]!.tiers;
    expect(priceOrder(tiers, 400, fees).micros).toBe(Math.ceil(1.08174 * 400 * 1000));
    expect(row(doc, '1291').textContent).toContain('$1.08174');
    // 5 per 1000 × 1.1 = 5.5 per 1000: 10 comments cost 0.055.
    expect(priceOf(doc, '2001')).toEqual({ usd: '0.055', per: '10' });
    expect(row(doc, '2001').textContent).toContain('per 10');
  });

  it('filters by search words, platform (Other too), type, refill and cancel from the address; a value it does not know shows everything', async () => {
    expect(rows(await page('/en/prices?q=1291'))).toEqual(['1291']);
    expect(rows(await page('/en/prices?q=instagram%20comments'))).toEqual(['2001']);
    expect(rows(await page('/en/prices?platform=tiktok'))).toEqual(['3001']);
    expect(rows(await page('/en/prices?platform=other'))).toEqual(['4001']);
    expect(rows(await page('/en/prices?type=comments'))).toEqual(['2001']);
    expect(rows(await page('/en/prices?refill=1'))).toEqual(['3001']);
    expect(rows(await page('/en/prices?cancel=1'))).toEqual(['1291']);
    expect(rows(await page('/en/prices?platform=instagram&type=followers&cancel=1'))).toEqual(['1291']);
    expect(rows(await page('/en/prices?type=bogus&refill=yes'))).toEqual(['1291', '2001', '3001', '5001', '4001']);
    const none = await page('/en/prices?q=nothing-like-this');
    expect(rows(none)).toEqual([]);
    expect(none.querySelector('main')!.textContent).toContain('No service matches your search.');
    // The form shows what was asked for.
    const asked = await page('/en/prices?platform=tiktok&refill=1&q=likes');
    expect(asked.querySelector('select[name="platform"] option[value="tiktok"]')!.hasAttribute('selected')).toBe(true);
    expect(asked.querySelector('input[name="refill"]')!.hasAttribute('checked')).toBe(true);
    expect(asked.querySelector('input[name="q"]')!.getAttribute('value')).toBe('likes');
  });

  it('has a title, a description and its texts in az, tr and en', async () => {
    const expected = {
      az: { title: 'Qiymət siyahısı', other: 'Digər', per: '1.000 ədəd üçün' },
      tr: { title: 'Fiyat listesi', other: 'Diğer', per: '1.000 adet için' },
      en: { title: 'Price list', other: 'Other', per: 'per 1,000' },
    } as const;
    for (const lang of ['az', 'tr', 'en'] as const) {
      const doc = await page(`/${lang}/prices`);
      expect(doc.documentElement.getAttribute('lang')).toBe(lang);
      expect(doc.title).toContain(expected[lang].title);
      expect(doc.querySelector('meta[name="description"]')!.getAttribute('content')!.length).toBeGreaterThan(40);
      expect(doc.querySelector('h1')!.textContent).toBe(expected[lang].title);
      expect(doc.querySelector('section[data-platform="other"] h2')!.textContent).toContain(expected[lang].other);
      expect(row(doc, '1291').textContent).toContain(expected[lang].per);
      // Linked from the header and the footer.
      expect(doc.querySelectorAll(`a[href="/${lang}/prices"]`).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('shows a signed-in customer with a discount their own prices, by the one pricing rule', async () => {
    const customer = await signUpUser(app);
    await database.db.insert(customerDiscounts).values({ userId: customer.id, discountBp: 1000 });
    const doc = await page('/en/prices', customer.cookie);
    // 1.08174 less 10 %: 0.973566 → 0.97357.
    expect(priceOf(doc, '1291')).toEqual({ usd: '0.97357', per: '1000' });
    expect(doc.querySelector('[data-testid="prices-discount"]')!.textContent).toContain('10%');
    expect(priceOf(await page('/en/prices'), '1291').usd).toBe('1.08174');
  });

  it('is in the sitemap in every language', async () => {
    const xml = await (await app.request('/sitemaps/main.xml')).text();
    for (const lang of ['az', 'tr', 'en']) expect(xml).toContain(`/${lang}/prices</loc>`);
  });
});

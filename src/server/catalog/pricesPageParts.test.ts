import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PRICE_LIST_FIRST_ROWS } from '../../web/features/catalog/priceList';
import { placePart } from '../../web/islands/laterParts';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { catalogServices, customerDiscounts } from '../db/schema';
import { saveSettings } from '../settings';
import { catalogRow, tier } from '../testing/catalogRows';
import { useTestShop } from '../testing/shop';
import { renderedPage, sourceRenderer } from '../testing/web';

/**
 * A price list longer than its page carries (docs/decisions/0036): the page has the first rows and
 * a link to the rest, which is a page of its own whose part, put where the link was (as the islands
 * loader does), makes the whole list in order, one heading per platform and one table per type.
 */

let app: Hono;
let database: Database;
useTestShop((shop) => ({ app, database } = shop), { web: sourceRenderer() });

const LIKES = 20;
const FOLLOWERS = 15;
const VIEWS = 5;
const TOTAL = LIKES + FOLLOWERS + VIEWS;
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i));
/** In the list's order: Instagram's likes, then its followers, then TikTok's views. */
const ORDER = [...ids(1001, LIKES), ...ids(2001, FOLLOWERS), ...ids(3001, VIEWS)];

let seeded: Promise<void> | undefined;
function seed() {
  seeded ??= (async () => {
    await database.db.update(catalogServices).set({ active: false });
    const row = (id: string, platform: string, type: string) => catalogRow({ id, platform, name: `${platform} ${type} ${id}`, type, tiers: [tier(100, 10_000, '1')] });
    await database.db
      .insert(catalogServices)
      .values([...ids(2001, FOLLOWERS).map((id) => row(id, 'instagram', 'Followers')), ...ids(1001, LIKES).map((id) => row(id, 'instagram', 'Likes')), ...ids(3001, VIEWS).map((id) => row(id, 'tiktok', 'Views'))]);
    await saveSettings(database.db, { service_fee: 0, base_fee: 0 });
  })();
  return seeded;
}

/** The page as a document, the catalogue seeded first. */
async function page(path: string, cookie?: string): Promise<Document> {
  await seed();
  return renderedPage(app, path, cookie);
}
const rows = (doc: Document) => [...doc.querySelectorAll('tr[data-service]')].map((tr) => tr.getAttribute('data-service'));
const later = (doc: Document) => doc.querySelector('[data-later]');

describe('a price list longer than its first part', () => {
  it('carries its first rows and a link to the rest, whose part put in place makes the whole list', async () => {
    const doc = await page('/en/prices');
    expect(rows(doc)).toEqual(ORDER.slice(0, PRICE_LIST_FIRST_ROWS));
    // Counts are the whole list's.
    expect(doc.querySelector('[data-testid="prices-count"]')!.textContent).toBe(`Showing ${TOTAL} of ${TOTAL} services`);
    expect(doc.querySelector('section[data-platform="instagram"] h2')!.textContent).toContain(`(${LIKES + FOLLOWERS})`);
    expect(doc.querySelector('[data-type="followers"] caption')!.textContent).toContain(`(${FOLLOWERS})`);
    const href = `/en/prices?from=${PRICE_LIST_FIRST_ROWS}`;
    expect(later(doc)!.getAttribute('data-later')).toBe(href);
    const link = later(doc)!.querySelector('a')!;
    expect(link.getAttribute('href')).toBe(href);
    expect(link.textContent).toBe(`Show the other ${TOTAL - PRICE_LIST_FIRST_ROWS} services`);

    // The rest, a page of its own (what a visitor without scripts follows the link to).
    const rest = await page(href);
    expect(rows(rest)).toEqual(ORDER.slice(PRICE_LIST_FIRST_ROWS));
    expect(later(rest)).toBeNull();
    expect(rest.querySelector(`main a[href="/en/prices"]`)!.textContent).toBe('Back to the start of the list');
    expect(rest.querySelector('[data-testid="prices-count"]')!.textContent).toBe(`Showing services ${PRICE_LIST_FIRST_ROWS + 1}–${TOTAL} of ${TOTAL}`);
    const part = rest.querySelector('[data-part]')!;
    const [instagram, tiktok] = [...part.children];
    expect(instagram!.getAttribute('data-platform')).toBe('instagram');
    expect(instagram!.hasAttribute('data-continues')).toBe(true);
    expect(instagram!.querySelector('h2')!.hasAttribute('data-repeats')).toBe(true);
    expect(instagram!.querySelector('[data-type="followers"] caption')!.hasAttribute('data-repeats')).toBe(true);
    expect(tiktok!.hasAttribute('data-continues')).toBe(false);

    placePart(later(doc)!, part);
    expect(rows(doc)).toEqual(ORDER);
    expect([...doc.querySelectorAll('section[data-platform]')].map((s) => s.getAttribute('data-platform'))).toEqual(['instagram', 'tiktok']);
    expect([...doc.querySelectorAll('[data-type]')].map((t) => t.getAttribute('data-type'))).toEqual(['likes', 'followers', 'views']);
    expect(doc.querySelectorAll('[data-type="followers"] tbody tr')).toHaveLength(FOLLOWERS);
    expect(doc.querySelectorAll('section[data-platform] h2')).toHaveLength(2);
    const idsOnPage = [...doc.querySelectorAll('[id]')].map((el) => el.id);
    expect(new Set(idsOnPage).size).toBe(idsOnPage.length);
  });

  it("keeps the list's filters in the rest's address, and reads any other `from` as the start", async () => {
    const instagram = await page('/en/prices?platform=instagram');
    expect(rows(instagram)).toEqual(ORDER.slice(0, PRICE_LIST_FIRST_ROWS));
    expect(later(instagram)!.getAttribute('data-later')).toBe(`/en/prices?platform=instagram&from=${PRICE_LIST_FIRST_ROWS}`);
    expect(rows(await page(`/en/prices?platform=instagram&from=${PRICE_LIST_FIRST_ROWS}`))).toEqual(ORDER.slice(PRICE_LIST_FIRST_ROWS, LIKES + FOLLOWERS));
    // A list the page carries whole has no link.
    const likes = await page('/en/prices?type=likes');
    expect(rows(likes)).toEqual(ids(1001, LIKES));
    expect(later(likes)).toBeNull();
    for (const from of ['5', String(TOTAL), '99999999999', 'x', '-1']) {
      const doc = await page(`/en/prices?from=${from}`);
      expect(rows(doc), from).toEqual(ORDER.slice(0, PRICE_LIST_FIRST_ROWS));
      expect(later(doc), from).not.toBeNull();
    }
  });

  it("shows a signed-in customer's own prices in the rest too", async () => {
    const customer = await signUpUser(app);
    await database.db.insert(customerDiscounts).values({ userId: customer.id, discountBp: 1000 });
    const rest = await page(`/az/prices?from=${PRICE_LIST_FIRST_ROWS}`, customer.cookie);
    expect(rest.querySelector(`tr[data-service="${ORDER.at(-1)}"] [data-price]`)!.getAttribute('data-price')).toBe('0.90');
    expect(rest.querySelector('main a[href="/az/prices"]')!.textContent).toBe('Siyahının əvvəlinə qayıt');
  });
});

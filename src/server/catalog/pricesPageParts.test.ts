import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PRICE_LIST_FIRST_ROWS as FIRST, PRICE_LIST_PART_ROWS as PART } from '../../web/features/catalog/priceList';
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
 * a link to the next part, which is a page of its own with a link to the part after it; the parts,
 * each put where its link was (as the islands loader does), make the whole list in order, one
 * heading per platform and one table per type.
 */

let app: Hono;
let database: Database;
useTestShop((shop) => ({ app, database } = shop), { web: sourceRenderer() });

// The first rows end inside the likes; the first part ends inside TikTok's views; the second part is the rest of them.
const LIKES = FIRST + 10;
const FOLLOWERS = PART - 15;
const VIEWS = 15;
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
  it('carries its first rows and a link to the next part; the parts put in place one after another make the whole list', async () => {
    const doc = await page('/en/prices');
    expect(rows(doc)).toEqual(ORDER.slice(0, FIRST));
    // Counts are the whole list's.
    expect(doc.querySelector('[data-testid="prices-count"]')!.textContent).toBe(`Showing ${TOTAL} of ${TOTAL} services`);
    expect(doc.querySelector('section[data-platform="instagram"] h2')!.textContent).toContain(`(${LIKES + FOLLOWERS})`);
    expect(doc.querySelector('[data-type="likes"] caption')!.textContent).toContain(`(${LIKES})`);
    const href = `/en/prices?from=${FIRST}`;
    expect(later(doc)!.getAttribute('data-later')).toBe(href);
    const link = later(doc)!.querySelector('a')!;
    expect(link.getAttribute('href')).toBe(href);
    expect(link.textContent).toBe(`Show more services (${TOTAL - FIRST} left)`);

    // The next part, a page of its own (what a visitor without scripts follows the link to), with the link to the one after it.
    const first = await page(href);
    expect(rows(first)).toEqual(ORDER.slice(FIRST, FIRST + PART));
    expect(first.querySelector(`main a[href="/en/prices"]`)!.textContent).toBe('Back to the start of the list');
    expect(first.querySelector('[data-testid="prices-count"]')!.textContent).toBe(`Showing services ${FIRST + 1}–${FIRST + PART} of ${TOTAL}`);
    const part1 = first.querySelector('[data-part]')!;
    const [instagram, tiktok, next] = [...part1.children];
    expect(instagram!.getAttribute('data-platform')).toBe('instagram');
    expect(instagram!.hasAttribute('data-continues')).toBe(true);
    expect(instagram!.querySelector('h2')!.hasAttribute('data-repeats')).toBe(true);
    expect(instagram!.querySelector('[data-type="likes"]')!.hasAttribute('data-continues')).toBe(true);
    expect(instagram!.querySelector('[data-type="likes"] caption')!.hasAttribute('data-repeats')).toBe(true);
    expect(instagram!.querySelector('[data-type="followers"]')!.hasAttribute('data-continues')).toBe(false);
    expect(tiktok!.hasAttribute('data-continues')).toBe(false);
    expect(next!.getAttribute('data-later')).toBe(`/en/prices?from=${FIRST + PART}`);
    expect(next!.textContent).toBe(`Show more services (${TOTAL - FIRST - PART} left)`);

    const second = await page(`/en/prices?from=${FIRST + PART}`);
    expect(rows(second)).toEqual(ORDER.slice(FIRST + PART));
    expect(later(second)).toBeNull();
    const part2 = second.querySelector('[data-part]')!;
    expect([...part2.children].map((el) => [el.getAttribute('data-platform'), el.hasAttribute('data-continues')])).toEqual([['tiktok', true]]);

    placePart(later(doc)!, part1);
    expect(later(doc)!.getAttribute('data-later')).toBe(`/en/prices?from=${FIRST + PART}`);
    placePart(later(doc)!, part2);
    expect(rows(doc)).toEqual(ORDER);
    expect(later(doc)).toBeNull();
    expect([...doc.querySelectorAll('section[data-platform]')].map((s) => s.getAttribute('data-platform'))).toEqual(['instagram', 'tiktok']);
    expect([...doc.querySelectorAll('[data-type]')].map((t) => t.getAttribute('data-type'))).toEqual(['likes', 'followers', 'views']);
    expect(doc.querySelectorAll('[data-type="likes"] tbody tr')).toHaveLength(LIKES);
    expect(doc.querySelectorAll('[data-type="views"] tbody tr')).toHaveLength(VIEWS);
    expect(doc.querySelectorAll('section[data-platform] h2')).toHaveLength(2);
    expect(doc.querySelectorAll('caption')).toHaveLength(3);
    const idsOnPage = [...doc.querySelectorAll('[id]')].map((el) => el.id);
    expect(new Set(idsOnPage).size).toBe(idsOnPage.length);
  });

  it("keeps the list's filters in the next part's address, and reads any other `from` as the start", async () => {
    const instagram = await page('/en/prices?platform=instagram');
    expect(rows(instagram)).toEqual(ORDER.slice(0, FIRST));
    expect(later(instagram)!.getAttribute('data-later')).toBe(`/en/prices?platform=instagram&from=${FIRST}`);
    const rest = await page(`/en/prices?platform=instagram&from=${FIRST}`);
    expect(rows(rest)).toEqual(ORDER.slice(FIRST, LIKES + FOLLOWERS));
    expect(later(rest)).toBeNull();
    // A list the page carries whole has no link.
    const views = await page('/en/prices?type=views');
    expect(rows(views)).toEqual(ids(3001, VIEWS));
    expect(later(views)).toBeNull();
    for (const from of ['5', String(FIRST - 1), String(TOTAL), '99999999999', 'x', '-1']) {
      const doc = await page(`/en/prices?from=${from}`);
      expect(rows(doc), from).toEqual(ORDER.slice(0, FIRST));
      expect(later(doc), from).not.toBeNull();
    }
  });

  it("shows a signed-in customer's own prices in the rest too", async () => {
    const customer = await signUpUser(app);
    await database.db.insert(customerDiscounts).values({ userId: customer.id, discountBp: 1000 });
    const rest = await page(`/az/prices?from=${FIRST + PART}`, customer.cookie);
    expect(rest.querySelector(`tr[data-service="${ORDER.at(-1)}"] [data-price]`)!.getAttribute('data-price')).toBe('0.90');
    expect(rest.querySelector('main a[href="/az/prices"]')!.textContent).toBe('Siyahının əvvəlinə qayıt');
  });
});

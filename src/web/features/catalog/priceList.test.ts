import { describe, expect, it } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import { PRICE_LIST_FIRST_ROWS, PRICE_LIST_PART_ROWS, priceGroups, priceListHref, priceListPart, priceListRows, readPriceFilters, readPriceListFrom } from './priceList';

/** Services enough for the list's part: only what grouping reads. */
const service = (id: number, platform: string, group: PublicService['group']) => ({ id: String(id), platform, group, name: `S${id}`, type: group, refill: false, cancel: false }) as unknown as PublicService;

const SERVICES = [
  ...Array.from({ length: 3 }, (_, i) => service(100 + i, 'instagram', 'likes')),
  ...Array.from({ length: 4 }, (_, i) => service(200 + i, 'instagram', 'followers')),
  ...Array.from({ length: 2 }, (_, i) => service(300 + i, 'tiktok', 'views')),
];
const groups = priceGroups(SERVICES, readPriceFilters(new URLSearchParams()));
const ids = (part: ReturnType<typeof priceListPart>) => part.flatMap((g) => g.types.flatMap((t) => t.services.map((s) => s.id)));

describe("the price list's parts", () => {
  it('cuts the rows across platforms and types in the order shown, each group keeping its whole count', () => {
    const first = priceListPart(groups, 0, 5);
    expect(ids(first)).toEqual(['100', '101', '102', '200', '201']);
    expect(first.map((g) => [g.platform, g.count, g.continues])).toEqual([['instagram', 7, false]]);
    expect(first[0]!.types.map((t) => [t.group, t.count, t.continues])).toEqual([
      ['likes', 3, false],
      ['followers', 4, false],
    ]);
    const rest = priceListPart(groups, 5, 9);
    expect(ids(rest)).toEqual(['202', '203', '300', '301']);
    expect(rest.map((g) => [g.platform, g.count, g.continues])).toEqual([
      ['instagram', 7, true],
      ['tiktok', 2, false],
    ]);
    expect(rest[0]!.types.map((t) => [t.group, t.count, t.continues])).toEqual([['followers', 4, true]]);
    // A cut at a type's edge: the platform continues, its next type does not.
    const atEdge = priceListPart(groups, 3, 9);
    expect(atEdge[0]!.continues).toBe(true);
    expect(atEdge[0]!.types[0]!.continues).toBe(false);
    expect(ids(priceListPart(groups, 0, 9))).toEqual(SERVICES.map((s) => s.id));
  });

  it("reads `from` only as a row past the first part that the list has; anything else is the list's start", () => {
    const rows = PRICE_LIST_FIRST_ROWS + 10;
    expect(readPriceListFrom(String(PRICE_LIST_FIRST_ROWS), rows)).toBe(PRICE_LIST_FIRST_ROWS);
    expect(readPriceListFrom(String(rows - 1), rows)).toBe(rows - 1);
    for (const asked of [null, '', '0', '5', String(PRICE_LIST_FIRST_ROWS - 1), String(rows), '1e3', '30.5', '-30', 'abc', ' 31'])
      expect(readPriceListFrom(asked, rows), String(asked)).toBe(0);
  });

  it('shows the first rows at the start, then parts of the same size, each naming where the next starts', () => {
    const rows = PRICE_LIST_FIRST_ROWS + 2 * PRICE_LIST_PART_ROWS + 5;
    expect(priceListRows(rows, 0)).toEqual({ start: 0, end: PRICE_LIST_FIRST_ROWS, next: PRICE_LIST_FIRST_ROWS });
    expect(priceListRows(rows, PRICE_LIST_FIRST_ROWS)).toEqual({ start: PRICE_LIST_FIRST_ROWS, end: PRICE_LIST_FIRST_ROWS + PRICE_LIST_PART_ROWS, next: PRICE_LIST_FIRST_ROWS + PRICE_LIST_PART_ROWS });
    expect(priceListRows(rows, PRICE_LIST_FIRST_ROWS + 2 * PRICE_LIST_PART_ROWS)).toEqual({ start: PRICE_LIST_FIRST_ROWS + 2 * PRICE_LIST_PART_ROWS, end: rows, next: null });
    // A list the first rows hold whole has no next part.
    expect(priceListRows(PRICE_LIST_FIRST_ROWS, 0)).toEqual({ start: 0, end: PRICE_LIST_FIRST_ROWS, next: null });
    expect(priceListRows(3, 0)).toEqual({ start: 0, end: 3, next: null });
  });

  it("writes the part's address with the list's filters", () => {
    const f = readPriceFilters(new URLSearchParams('q=likes&platform=tiktok&refill=1'));
    expect(priceListHref('az', f, 30)).toBe('/az/prices?q=likes&platform=tiktok&refill=1&from=30');
    expect(priceListHref('en', f)).toBe('/en/prices?q=likes&platform=tiktok&refill=1');
    expect(priceListHref('tr', readPriceFilters(new URLSearchParams()))).toBe('/tr/prices');
    // Every filter the address can carry is read back as it was.
    const all = readPriceFilters(new URLSearchParams('q=a%20b&platform=instagram&type=likes&refill=1&cancel=1'));
    expect(readPriceFilters(new URL(priceListHref('en', all, 80), 'https://artim.test').searchParams)).toEqual(all);
  });
});

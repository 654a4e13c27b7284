// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fillLaterParts, placePart } from './laterParts';

/*
 * A page's later part (docs/decisions/0036): the slot's address answered over HTTP by a small
 * server, its part put in place — the rows that continue a table going into that table, the
 * headings it already has left out.
 */

/** The part the server answers with: a section continuing the page's last one, and one of its own. */
const PART = `<!doctype html><html><body><header>Frame</header><main>
  <p><a href="/en/prices">Back</a></p>
  <div data-part="prices">
    <section data-platform="instagram" data-continues>
      <h2 data-repeats>Instagram (4)</h2>
      <div data-type="likes" data-continues><table data-continues><caption data-repeats>Likes (3)</caption><thead data-repeats><tr><th>Service</th></tr></thead>
        <tbody data-continues><tr data-service="3"><td>c</td></tr><tr data-service="4"><td>d</td></tr></tbody></table></div>
      <div data-type="views"><table><caption>Views (1)</caption><tbody><tr data-service="5"><td>e</td></tr></tbody></table></div>
    </section>
    <section data-platform="tiktok"><h2>TikTok (2)</h2><div data-type="likes"><table><tbody><tr data-service="6"><td>f</td></tr></tbody></table></div></section>
    <div data-later="/en/prices?from=6"><a href="/en/prices?from=6">Show the other service</a></div>
  </div></main></body></html>`;
/** The part after it: the last row, continuing TikTok's likes. */
const NEXT = `<!doctype html><html><body><div data-part="prices">
    <section data-platform="tiktok" data-continues><h2 data-repeats>TikTok (2)</h2>
      <div data-type="likes" data-continues><table data-continues><tbody data-continues><tr data-service="7"><td>g</td></tr></tbody></table></div></section>
  </div></body></html>`;

let server: Server;
const asked: string[] = [];
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(status !== 200 ? 'no' : req.url === '/en/prices?from=6' ? NEXT : PART);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`http://127.0.0.1:${port}/en/prices`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  asked.length = 0;
  status = 200;
  document.body.innerHTML = `<main><div id="list">
    <section data-platform="instagram"><h2 id="h-instagram">Instagram (4)</h2>
      <div data-type="followers"><table><caption>Followers (1)</caption><tbody><tr data-service="1"><td>a</td></tr></tbody></table></div>
      <div data-type="likes"><table><caption>Likes (3)</caption><thead><tr><th>Service</th></tr></thead><tbody><tr data-service="2"><td>b</td></tr></tbody></table></div>
    </section>
    <div data-later="/en/prices?from=2"><a href="/en/prices?from=2">Show the other 5 services</a></div>
  </div></main>`;
});

const rows = () => [...document.querySelectorAll('tr[data-service]')].map((tr) => tr.getAttribute('data-service'));
const texts = (selector: string) => [...document.querySelectorAll(selector)].map((el) => el.textContent);

describe("a page's later part", () => {
  it('puts the part where its slot was: continuing rows into the table they continue, repeated headings left out', () => {
    const part = new DOMParser().parseFromString(PART, 'text/html').querySelector('[data-part]')!;
    placePart(document.querySelector('[data-later]')!, part);
    expect(rows()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(texts('h2')).toEqual(['Instagram (4)', 'TikTok (2)']);
    expect(texts('caption')).toEqual(['Followers (1)', 'Likes (3)', 'Views (1)']);
    expect(document.querySelectorAll('thead')).toHaveLength(1);
    // The likes rows are in the one likes table, the views table after it in the same section.
    expect([...document.querySelector('[data-type="likes"] tbody')!.children].map((tr) => tr.getAttribute('data-service'))).toEqual(['2', '3', '4']);
    expect([...document.querySelector('section[data-platform="instagram"]')!.children].map((el) => el.getAttribute('data-type') ?? el.tagName)).toEqual(['H2', 'followers', 'likes', 'views']);
    // The part's own link to the next one took the slot's place.
    expect([...document.querySelectorAll('[data-later]')].map((el) => el.getAttribute('data-later'))).toEqual(['/en/prices?from=6']);
    expect(document.querySelector('#list')!.lastElementChild!.getAttribute('data-later')).toBe('/en/prices?from=6');
    expect(document.querySelector('[data-continues], [data-repeats]')).toBeNull();
  });

  it("fetches the slot's address once the loader asks and places the part it answers with, then the part after it", async () => {
    await fillLaterParts();
    expect(asked).toEqual(['/en/prices?from=2', '/en/prices?from=6']);
    expect(rows()).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect([...document.querySelector('section[data-platform="tiktok"] tbody')!.children].map((tr) => tr.getAttribute('data-service'))).toEqual(['6', '7']);
    expect(document.querySelector('[data-later]')).toBeNull();
    expect(document.querySelector('header')).toBeNull();
  });

  it('keeps the slot and its link when the answer is not a page with a part', async () => {
    status = 503;
    await fillLaterParts();
    const slot = document.querySelector('[data-later]')!;
    expect(slot.querySelector('a')!.getAttribute('href')).toBe('/en/prices?from=2');
    expect(slot.hasAttribute('aria-busy')).toBe(false);
    expect(rows()).toEqual(['1', '2']);
  });

  it("asks nothing of an address that is not the site's own", async () => {
    document.querySelector('[data-later]')!.setAttribute('data-later', '//elsewhere.test/en/prices?from=2');
    await fillLaterParts();
    expect(asked).toEqual([]);
    expect(rows()).toEqual(['1', '2']);
  });
});

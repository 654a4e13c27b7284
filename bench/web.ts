/**
 * `npm run bench:web`: what each public page costs a visitor before it can be used.
 *
 * 1. Builds the app for production when dist/ is missing, holds a development build, or with
 *    `--build`; starts it on a free port.
 * 2. Initial-load weight per page, gzipped: the JS and CSS the server's HTML references (entry
 *    script, module preloads of the matched page chunks, stylesheet), and — where Chromium is
 *    installed — every JS response the browser requested until the page was ready, with the
 *    number of requests (the document included) and the JS chunks under 2 KB gzipped among them,
 *    listed as a warning: such a chunk is mostly headers and a round trip.
 * 3. Where Chromium is installed, a throttled mobile run: 390×844 @3x, measuring LCP, TBT (sum of
 *    long-task time over 50 ms after first paint, until 1.5 s after ready) and CLS. The throttling
 *    profile is named in the output; BENCH_THROTTLE picks it:
 *      - `mobile` (default): CPU ×4, 150 ms latency per request, 1.6 Mbit/s down, 750 kbit/s up,
 *        applied through DevTools (Lighthouse's mobile figures taken literally).
 *      - `slow4g`: CPU ×4, 562.5 ms, 1.47 Mbit/s down: the same profile with Lighthouse's DevTools
 *        adjustment (latency ×3.75, throughput ×0.9); what this bench used until 2026-11-24.
 *    Median of BENCH_RUNS cold runs per page (default 3; 5 with a peer).
 *    "Ready" for Artım: `<html data-hydrated="true">` (the whole-page app has hydrated) and every
 *    `[data-island]` carrying `data-hydrated` (an island that wakes only when asked for or
 *    touched, `data-island-wake="asked"` or `"touched"`, excepted: docs/decisions/0027); a page whose islands are all hydrated is ready even
 *    before the html flag, when the runtime sets none. A page not ready in 30 s says so.
 * 4. Where Chromium is installed, Lighthouse itself (performance category, its default mobile
 *    preset and simulated throttling) on every page, the dashboard with the customer's session
 *    cookie: one run per page, BENCH_LIGHTHOUSE=3 for the median of three, BENCH_LIGHTHOUSE=0 to
 *    skip it. When it cannot start, the bench says why and goes on. BENCH_PAGES=/en,/en/dashboard
 *    limits every step to the pages named; BENCH_LIGHTHOUSE_REPORTS=dir keeps the reports as JSON.
 *
 * 5. The order page and the dashboard (docs/decisions/0024), each signed out and signed in (a
 *    customer made on the bench's database, signed in through `POST /api/auth/sign-in/email`):
 *    requests and JS (gz) until ready, JS in all, ready and TBT in the throttled run, against
 *    their budget (≤ 6 requests, ≤ 100 KB of JS before ready, TBT ≤ 150 ms, ready ≤ 1.5 s,
 *    Lighthouse ≥ 0.95); Lighthouse on them too. A signed-out dashboard is sent home with the
 *    sign-in dialog: measured where it lands, and left out of Lighthouse (which refuses a redirect).
 *
 * Side by side with the earlier storefront (`--peer <dir>` or BENCH_PEER_DIR=<dir>): instead of
 * the tables above, Artım (built for production, served with NODE_ENV=production) and the earlier
 * storefront built for the same business (hemidirasim/trend-wave-panel, a client-rendered Vite +
 * React 18 app served by its own `vite preview`, which gzips) are measured in one run,
 * interleaved (Artım, peer, Artım, peer, …), BENCH_RUNS runs each (default 5), medians: requests
 * until ready, JS gz until ready and in all, LCP, TBT, ready and the Lighthouse mobile score
 * (BENCH_LIGHTHOUSE runs each, default BENCH_RUNS; 0 skips). Pages: Artım's /en, /en/services and
 * /en/contact against the peer's /en (its home), /en/order (its service list and picker: its
 * router has no services page) and nothing for contact (its header links to /en/contact, but its
 * router has no such route and renders an empty page).
 * "Ready" for the peer: React's first commit into `#root` or the end of the last request the page
 * made before its network stayed quiet for 1 s, whichever is later. Requests to other hosts are
 * blocked for both sites (the peer's Google tag, Hotjar, Clarity and Supabase API; Artım makes
 * none) and counted apart: there is no network here, and in production they would only add.
 * JS gz is each same-origin script gzipped at level 9 from the site's build, for both sites.
 *
 * Preparing the peer's directory (outside this repository), once:
 *   mkdir -p /tmp/peer-trend-wave
 *   git clone https://github.com/hemidirasim/trend-wave-panel /tmp/peer-trend-wave   # or `git archive HEAD | tar -x`
 *   cd /tmp/peer-trend-wave && npm install && npx vite build
 * then `npm run bench:web -- --peer /tmp/peer-trend-wave`. The bench starts `vite preview` in that
 * directory on a free port (it needs dist/index.html there) and stops it at the end.
 *
 * Budgets printed beside the figures: JS ≤ 80 KB gzipped, LCP ≤ 0.8 s, Lighthouse performance
 * 1.0. Nothing fails on them.
 */
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { default as runLighthouse, Result as LighthouseResult } from 'lighthouse';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { E2E_ADMIN, removeDataDir, startAppProcess } from '../e2e/app-process';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';

/** BENCH_PAGES=/en,/en/dashboard measures only those pages. */
const only = process.env.BENCH_PAGES?.split(',').filter(Boolean);
const chosen = (pages: string[]) => (only ? pages.filter((p) => only.includes(p)) : pages);
/**
 * The order lookup with a number in the address (BENCH_PAGES=/track?order=…): an order the bench's
 * customer places on the bench's database before the pages are measured (`placeTrackedOrder`).
 */
const TRACKED = '/track?order=…';
let trackedNumber = '';
/** The address a page is measured at: the lookup's with the placed order's number. */
const addressOf = (path: string) => (path === TRACKED ? `/track?order=${trackedNumber}` : path);
const PAGES = chosen(['/en', '/en/about', '/en/services', '/en/services/1', '/en/contact', '/en/order?platform=instagram', '/en/prices', '/az/prices', '/tr/prices', '/en/blog', '/terms', '/privacy', '/az', '/tr', TRACKED]);
/** Measured signed in; their code is split off the public pages, so the public budget does not apply. */
const SIGNED_IN_PAGES = chosen(['/en/dashboard']);
const BUDGET = { jsKb: 80, lcpMs: 800, lighthouseScore: 1 };
/** The order page and the dashboard, measured signed out and signed in (docs/decisions/0024). */
const CUSTOMER_PAGES = chosen(['/en/order', '/en/dashboard']);
const CUSTOMER_BUDGET = { requests: 6, jsKb: 100, tbtMs: 150, readyMs: 1500, lighthouseScore: 0.95 };
/** Public pages (docs/decisions/0022-islands-on-demand.md): JS before the first interaction, JS in all without input, a first tap answered. */
const PUBLIC_BUDGET = { beforeKb: 20, allKb: 75, tapMs: 200 };
/** The header's menu button on a phone; its effect: the menu open (aria-expanded). */
const MENU_BUTTON = 'header button[aria-controls="mobile-menu"]';
/** Lighthouse's order: the pages with a budget of their own first, then the rest of the public ones. */
const LIGHTHOUSE_PAGES: { path: string; signedIn: boolean }[] = [
  ...chosen(['/en', '/en/order?platform=instagram']).map((path) => ({ path, signedIn: false })),
  ...CUSTOMER_PAGES.filter((p) => p !== '/en/dashboard').map((path) => ({ path, signedIn: false })),
  ...[...new Set([...CUSTOMER_PAGES, ...SIGNED_IN_PAGES])].map((path) => ({ path, signedIn: true })),
  ...PAGES.filter((p) => p !== '/en' && !p.startsWith('/en/order')).map((path) => ({ path, signedIn: false })),
];
/** A Lighthouse run that takes longer than this is reported as failed. */
const LIGHTHOUSE_TIMEOUT_MS = 120_000;
/** BENCH_LIGHTHOUSE_REPORTS=dir keeps each page's Lighthouse result there as JSON (the median run). */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
const dist = resolve('dist/client');
/** A JS chunk smaller than this on a page's initial load is flagged. */
const SMALL_CHUNK = 2048;
/** Requests to any other host than the site's are blocked (no network here; see the header). */
const BLOCKED = ['https://*', 'wss://*'];

const PEER_DIR = (() => {
  const i = process.argv.indexOf('--peer');
  return i >= 0 ? process.argv[i + 1] : process.env.BENCH_PEER_DIR || undefined;
})();
/** Artım's page and the earlier storefront's page that does the same job (null: it has none). */
const PAIRS = chosen(['/en', '/en/services', '/en/contact']).map((artim) => ({
  artim,
  peer: ({ '/en': '/en', '/en/services': '/en/order', '/en/contact': null } as Record<string, string | null>)[artim] ?? null,
}));
const RUNS = Number(process.env.BENCH_RUNS || (PEER_DIR ? 5 : 3));

interface Profile {
  name: string;
  latencyMs: number;
  downKbps: number;
  upKbps: number;
  cpu: number;
}
const PROFILES: Record<string, Profile> = {
  mobile: { name: 'mobile: CPU ×4, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up (DevTools)', latencyMs: 150, downKbps: 1.6 * 1024, upKbps: 750, cpu: 4 },
  slow4g: { name: 'slow4g: CPU ×4, 562.5 ms latency, 1.47 Mbit/s down, 675 kbit/s up (DevTools)', latencyMs: 562.5, downKbps: 1474.56, upKbps: 675, cpu: 4 },
};
const PROFILE = PROFILES[process.env.BENCH_THROTTLE || 'mobile'];
if (!PROFILE) throw new Error(`BENCH_THROTTLE is one of ${Object.keys(PROFILES).join(', ')}`);

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Gzipped size of a built asset under `root`: its pre-compressed .gz when present, otherwise gzip -9 now. */
function gzSize(urlPath: string, root = dist): number {
  const file = resolve(root, urlPath.replace(/^\//, '').split('?')[0]!);
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return existsSync(file) && statSync(file).isFile() ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
}

/** JS and CSS the HTML asks for before any script runs. */
function referencedAssets(html: string): { js: string[]; css: string[] } {
  const js = [
    ...[...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const css = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

const sum = (paths: string[]) => paths.reduce((n, p) => n + gzSize(p), 0);

function printTable(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

interface Lighthouse {
  /** One audit; throws when it fails, times out or ends on another page than the one asked for. */
  audit(url: string, cookie?: string): Promise<LighthouseResult>;
  close(): Promise<void>;
}

/**
 * A Chromium that playwright-core starts with a DevTools port, for Lighthouse: it opens its own
 * tab there, emulates its default mobile device and throttles by simulation.
 */
async function openLighthouse(chromiumPath: string): Promise<Lighthouse> {
  const lighthouse: typeof runLighthouse = (await import('lighthouse')).default;
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  let cdp: CDPSession;
  try {
    cdp = await browser.newBrowserCDPSession();
  } catch (e) {
    await browser.close();
    throw e;
  }
  return {
    close: () => browser.close(),
    async audit(url, cookie) {
      // Every run starts from an empty cookie jar, as a first visit does; a signed-in one with the
      // session cookie in the jar, expiring in an hour (a session cookie would go with the tab
      // Lighthouse closes). Lighthouse's extraHeaders cookie does not hold: once the page has set a
      // cookie of its own (lang), Chromium sends the jar's cookies instead, and the dashboard's
      // event stream and the next run went out signed out.
      await cdp.send('Storage.clearCookies', {});
      if (cookie) {
        const expires = Date.now() / 1000 + 3600;
        const cookies = cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url, expires }));
        await cdp.send('Storage.setCookies', { cookies });
      }
      const run = lighthouse(url, { port, logLevel: 'error', onlyCategories: ['performance'], blockedUrlPatterns: BLOCKED });
      run.catch(() => {}); // a run abandoned on timeout rejects once the browser closes
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`no result in ${LIGHTHOUSE_TIMEOUT_MS / 1000} s`)), LIGHTHOUSE_TIMEOUT_MS);
      });
      try {
        const lhr = (await Promise.race([run, timeout]))?.lhr;
        if (!lhr) throw new Error('no result');
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        const landed = new URL(lhr.finalDisplayedUrl);
        if (landed.pathname !== new URL(url).pathname) throw new Error(`redirected to ${landed.pathname}${landed.search}`);
        return lhr;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

const byScore = (r: LighthouseResult) => r.categories.performance?.score ?? 0;
const medianByScore = (results: LighthouseResult[]) => [...results].sort((a, b) => byScore(a) - byScore(b))[Math.floor(results.length / 2)]!;

function describeSettings(lhr: LighthouseResult): string {
  const settings = lhr.configSettings;
  const t = settings.throttling;
  const screen = settings.screenEmulation;
  return (
    `Lighthouse ${lhr.lighthouseVersion}, ${settings.formFactor} (${screen.width}×${screen.height} @${screen.deviceScaleFactor}x), ` +
    `throttling ${settings.throttlingMethod}: ${t.rttMs} ms RTT, ${((t.throughputKbps ?? 0) / 1024).toFixed(1)} Mbit/s, CPU ×${t.cpuSlowdownMultiplier} slower`
  );
}

/**
 * Lighthouse on each page. Prints one row per page; a page whose run fails gets its reason
 * instead, and a Lighthouse that cannot start at all is reported and skipped.
 */
async function lighthouseAudit(chromiumPath: string, baseUrl: string, cookie: string, runs: number) {
  console.log(`\nLighthouse, performance category, ${runs === 1 ? 'one run per page' : `median of ${runs} runs per page by score`}\n`);
  const started = Date.now();
  let lh: Lighthouse;
  try {
    lh = await openLighthouse(chromiumPath);
  } catch (e) {
    console.log(`Lighthouse did not start, skipped: ${(e as Error).message.split('\n')[0]}`);
    return;
  }
  const rows: string[][] = [['page', 'performance', 'LCP', 'TBT', 'CLS', 'FCP', 'Speed Index', 'HTML sent', 'score target', 'LCP budget']];
  const notes: string[] = [];
  let last: LighthouseResult | undefined;
  try {
    for (const { path, signedIn } of LIGHTHOUSE_PAGES) {
      const label = signedIn ? `${path} (signed in)` : path;
      const results: LighthouseResult[] = [];
      // Lighthouse now and then loses the trace of a load (NO_NAVSTART): one try more than asked.
      for (let attempt = 1; attempt <= runs + 1 && results.length < runs; attempt++) {
        try {
          results.push(await lh.audit(baseUrl + addressOf(path), signedIn ? cookie : undefined));
        } catch (e) {
          notes.push(`${label}: run ${attempt} failed: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      if (!results.length) {
        rows.push([label, 'failed', '', '', '', '', '', '', '', '']);
        continue;
      }
      const lhr = medianByScore(results);
      if (results.length < runs) notes.push(`${label}: ${results.length} of ${runs} runs`);
      last = lhr;
      if (REPORTS_DIR) {
        mkdirSync(REPORTS_DIR, { recursive: true });
        writeFileSync(join(REPORTS_DIR, `${path.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'root'}.json`), JSON.stringify(lhr));
      }
      const value = (id: string) => lhr.audits[id]?.numericValue;
      const secondsOf = (id: string) => (value(id) === undefined ? '—' : seconds(value(id)!));
      const score = lhr.categories.performance?.score ?? null;
      const lcp = value('largest-contentful-paint');
      const tbt = value('total-blocking-time');
      const cls = value('cumulative-layout-shift');
      // The document as it came over the wire, headers included (Lighthouse's diagnostics).
      const htmlSent = (lhr.audits.diagnostics?.details as { items?: { mainDocumentTransferSize?: number }[] } | undefined)?.items?.[0]?.mainDocumentTransferSize;
      rows.push([
        label,
        score === null ? '—' : score.toFixed(2),
        secondsOf('largest-contentful-paint'),
        tbt === undefined ? '—' : `${Math.round(tbt)} ms`,
        cls === undefined ? '—' : cls.toFixed(3),
        secondsOf('first-contentful-paint'),
        secondsOf('speed-index'),
        htmlSent === undefined ? '—' : `${(htmlSent / 1024).toFixed(1)} KB`,
        score !== null && score >= (CUSTOMER_PAGES.includes(path) ? CUSTOMER_BUDGET.lighthouseScore : BUDGET.lighthouseScore) ? 'ok' : 'missed',
        lcp === undefined ? '—' : lcp <= BUDGET.lcpMs ? 'ok' : `over by ${((lcp - BUDGET.lcpMs) / 1000).toFixed(2)} s`,
      ]);
      for (const w of lhr.runWarnings) notes.push(`${label}: ${w}`);
    }
  } finally {
    await lh.close();
  }
  printTable(rows);
  if (last) console.log(`\n${describeSettings(last)}; ${rows.length - 1} pages in ${Math.round((Date.now() - started) / 1000)} s.`);
  console.log(
    "  Lighthouse's simulation sends a new connection's first 10 TCP segments (14.6 KB) in one round trip and the rest in the next:\n" +
      '  a document larger than that, headers included, paints one round trip (150 ms) later than one within it, whatever it holds.',
  );
  for (const n of notes) console.log(`  ${n}`);
}

/** How the bench recognises that a page is ready to be used. */
type ReadyRule = 'artim' | 'peer';

interface Load {
  lcp: number;
  tbt: number;
  cls: number;
  /** Milliseconds from navigation start. */
  ready: number;
  /** Requests the page made until it was ready, its document included. */
  requests: number;
  /** All requests until the end of the measurement (1.5 s after ready). */
  requestsAll: number;
  /** Requests to other hosts, blocked. */
  blocked: number;
  /** Gzipped JS requested until ready, and in all. */
  js: number;
  /** Gzipped JS requested before the load event: what is there before the visitor can first interact. */
  jsBeforeLoad: number;
  jsAll: number;
  /** JS chunks under SMALL_CHUNK gzipped requested until ready. */
  smallChunks: { path: string; gz: number }[];
}

type Vitals = { lcp: number; cls: number; fcp: number; ready: number; mounted: number; long: { start: number; duration: number }[] };

/**
 * Records LCP, long tasks, layout shifts and the moment the page is ready, from the first byte
 * on. Artım: every `[data-island]` has `data-hydrated` (but those that wake only when asked for or
 * touched, `data-island-wake="asked"` or `"touched"`), and `<html data-hydrated="true">` or at least one island on the page. Peer: the first element React puts into `#root`.
 */
const OBSERVERS = (rule: ReadyRule) => {
  const w = window as unknown as { __vitals: Vitals };
  const v: Vitals = { lcp: 0, cls: 0, fcp: 0, ready: 0, mounted: 0, long: [] };
  w.__vitals = v;
  new PerformanceObserver((l) => l.getEntries().forEach((e) => (v.lcp = e.startTime))).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) =>
    l.getEntries().forEach((e) => {
      const shift = e as PerformanceEntry & { value: number; hadRecentInput: boolean };
      if (!shift.hadRecentInput) v.cls += shift.value;
    }),
  ).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => v.long.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => e.name === 'first-contentful-paint' && (v.fcp = e.startTime))).observe({ type: 'paint', buffered: true });
  if (rule === 'artim') {
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-island]:not([data-hydrated]):not([data-island-wake])')) return;
      if (document.documentElement.dataset.hydrated === 'true' || document.querySelector('[data-island]')) {
        v.ready = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
  } else {
    const observer = new MutationObserver(() => {
      if (document.getElementById('root')?.firstElementChild) {
        v.mounted = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, childList: true });
  }
};

interface Site {
  label: string;
  url: string;
  /** The built files its URLs map to. */
  root: string;
  rule: ReadyRule;
}

type Entry = { path: string; sameOrigin: boolean; start: number; end: number };

async function measure(browser: Browser, site: Site, path: string, cookie?: string): Promise<Load> {
  const url = site.url + addressOf(path);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    if (cookie) {
      const { hostname } = new URL(url);
      await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), domain: hostname, path: '/' })));
    }
    await context.addInitScript(OBSERVERS, site.rule);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.setBlockedURLs', { urls: BLOCKED });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PROFILE.latencyMs,
      downloadThroughput: (PROFILE.downKbps * 1024) / 8,
      uploadThroughput: (PROFILE.upKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
    let blocked = 0;
    // Requests still running and when the last one started or ended: the peer's "network quiet".
    const inflight = new Set<string>();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      inflight.add(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFinished', (e) => {
      inflight.delete(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFailed', (e) => {
      inflight.delete(e.requestId);
      lastActivity = Date.now();
      if (e.blockedReason) blocked++;
    });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });

    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page
      .waitForFunction(() => {
        const v = (window as unknown as { __vitals: Vitals }).__vitals;
        return v.ready > 0 || v.mounted > 0;
      }, null, { timeout: 30_000 })
      .catch(async (e: Error) => {
        // A rebuild of dist/ while the app runs leaves the served HTML pointing at deleted chunks;
        // an island that hydrates only on interaction or when scrolled to never gets there.
        const pending = await page.evaluate(() => [...document.querySelectorAll('[data-island]:not([data-hydrated]):not([data-island-wake])')].map((el) => el.getAttribute('data-island')));
        const islands = pending.length ? `islands not hydrated: ${pending.join(', ')}; ` : '';
        throw new Error(`${url} was not ready in 30 s: ${islands}${problems.join('; ') || e.message}`);
      });
    const loadAt = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart);
    const entries = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          const u = new URL(r.name);
          return { path: u.pathname, sameOrigin: u.origin === location.origin, start: r.startTime, end: r.responseEnd };
        }),
      );
    let raw = await page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
    let ready = raw.ready;
    if (site.rule === 'peer') {
      // Until no request has been running, started or ended for 1 s.
      const deadline = Date.now() + 30_000;
      while ((inflight.size > 0 || Date.now() - lastActivity < 1000) && Date.now() < deadline) await page.waitForTimeout(100);
      ready = Math.max(raw.mounted, ...(await entries()).map((e) => e.end));
    }
    await page.waitForTimeout(1500); // let late long tasks, shifts and requests land
    const seen: Entry[] = await entries();
    raw = await page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
    const own = seen.filter((e) => e.sameOrigin);
    const untilReady = own.filter((e) => e.start <= ready);
    const js = (list: Entry[]) => [...new Set(list.filter((e) => e.path.endsWith('.js')).map((e) => e.path))];
    const gz = (paths: string[]) => paths.reduce((n, p) => n + gzSize(p, site.root), 0);
    const tbt = raw.long.filter((t) => t.start >= raw.fcp).reduce((n, t) => n + Math.max(0, t.duration - 50), 0);
    return {
      lcp: raw.lcp,
      tbt,
      cls: raw.cls,
      ready,
      requests: 1 + untilReady.length,
      requestsAll: 1 + own.length,
      blocked,
      js: gz(js(untilReady)),
      jsBeforeLoad: gz(js(own.filter((e) => e.start <= loadAt))),
      jsAll: gz(js(own)),
      smallChunks: js(untilReady)
        .map((p) => ({ path: p, gz: gzSize(p, site.root) }))
        .filter((c) => c.gz < SMALL_CHUNK),
    };
  } finally {
    await context.close();
  }
}

/**
 * A first interaction on a cold page: the header's menu button tapped as soon as the page has
 * loaded (its island may still be asleep: the tap waits for its code and React), or once the page
 * is ready (every island live), timed in the page from the tap's pointerdown until the menu is
 * open (`aria-expanded="true"`). Throttled as the rest.
 */
async function measureTap(browser: Browser, site: Site, path: string, when: 'load' | 'ready'): Promise<number | null> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.setBlockedURLs', { urls: BLOCKED });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: PROFILE.latencyMs, downloadThroughput: (PROFILE.downKbps * 1024) / 8, uploadThroughput: (PROFILE.upKbps * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
    await page.goto(site.url + addressOf(path), { waitUntil: 'load', timeout: 120_000 });
    if (when === 'ready') await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, { timeout: 30_000 });
    const button = page.locator(MENU_BUTTON).first();
    if (!(await button.isVisible())) return null;
    await page.evaluate((selector) => {
      const w = window as unknown as { __tap: { down: number; open: number } };
      w.__tap = { down: 0, open: 0 };
      document.addEventListener('pointerdown', () => (w.__tap.down ||= performance.now()), true);
      new MutationObserver(() => {
        if (document.querySelector(selector)?.getAttribute('aria-expanded') === 'true') w.__tap.open ||= performance.now();
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-expanded'] });
    }, MENU_BUTTON);
    await button.tap();
    await page.waitForFunction(() => (window as unknown as { __tap: { open: number } }).__tap.open > 0, null, { timeout: 30_000 });
    const tap = await page.evaluate(() => (window as unknown as { __tap: { down: number; open: number } }).__tap);
    return tap.open - tap.down;
  } finally {
    await context.close();
  }
}

function medianLoad(runs: Load[]): Load {
  const m = (f: (l: Load) => number) => median(runs.map(f));
  return {
    lcp: m((l) => l.lcp),
    tbt: m((l) => l.tbt),
    cls: m((l) => l.cls),
    ready: m((l) => l.ready),
    requests: m((l) => l.requests),
    requestsAll: m((l) => l.requestsAll),
    blocked: m((l) => l.blocked),
    js: m((l) => l.js),
    jsBeforeLoad: m((l) => l.jsBeforeLoad),
    jsAll: m((l) => l.jsAll),
    smallChunks: runs[0]!.smallChunks,
  };
}

function printSmallChunks(label: string, chunks: { path: string; gz: number }[]) {
  if (!chunks.length) return;
  console.log(`  warning: ${label}: ${chunks.length} JS chunk(s) under ${SMALL_CHUNK / 1024} KB gz before ready: ${chunks.map((c) => `${c.path.split('/').pop()} ${kb(c.gz)} KB`).join(', ')}`);
}

/**
 * Whether dist/ holds a development build of React (a build run with NODE_ENV=test or
 * development, as a test runner does): its figures would say nothing about production.
 */
function isDevelopmentBuild(): boolean {
  const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; isEntry?: boolean }>;
  const entry = Object.values(manifest).find((c) => c.isEntry);
  return !!entry && readFileSync(resolve(dist, entry.file), 'utf8').includes('Each child in a list should have a unique');
}

/** When dist/ was last built; NaN while a build has it half written. */
function manifestTime(): number {
  try {
    return statSync(resolve(dist, '.vite/manifest.json')).mtimeMs;
  } catch {
    return NaN;
  }
}

/** The earlier storefront's build served by its own `vite preview` on a free port. */
async function startPeer(dir: string): Promise<{ url: string; commit: string; stop: () => Promise<void> }> {
  const root = resolve(dir);
  if (!existsSync(join(root, 'dist/index.html'))) throw new Error(`${root}/dist/index.html missing: build the peer first (see the header of bench/web.ts).`);
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) throw new Error(`${vite} missing: run npm install in ${root}.`);
  const port = await freePort();
  const child = spawn(process.execPath, [vite, 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`vite preview did not answer in 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  let commit = 'unknown commit';
  for (const f of ['.peer-commit', '.git/HEAD']) {
    if (existsSync(join(root, f))) commit = readFileSync(join(root, f), 'utf8').trim();
  }
  return {
    url,
    commit,
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null || child.signalCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

/** Artım and the earlier storefront, interleaved, medians, one table. */
async function compare(peerDir: string) {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new Error('The comparison needs Chromium (CHROMIUM_PATH).');
  // As deployed: React's production server renderer. Nothing here leaves the machine.
  const app = await startAppProcess({
    NODE_ENV: 'production',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://localhost',
    PROVIDER_KEYS_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: 'smtp://127.0.0.1:2525',
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  });
  const peer = await startPeer(peerDir);
  const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE ?? RUNS);
  const started = Date.now();
  try {
    const artim: Site = { label: 'Artım', url: app.url, root: dist, rule: 'artim' };
    const earlier: Site = { label: 'earlier storefront', url: peer.url, root: resolve(peerDir, 'dist'), rule: 'peer' };
    console.log(`\nSide by side: Artım (${execSync('git rev-parse --short HEAD').toString().trim()}, dist/ as built) and the earlier storefront (${peer.commit}, vite preview)`);
    console.log(`Throttled Chromium, ${PROFILE.name}; 390×844 @3x; ${RUNS} cold runs each, interleaved; medians.\n`);
    const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    const loads = new Map<string, Load>();
    const warnings: [string, { path: string; gz: number }[]][] = [];
    const failures: string[] = [];
    try {
      for (const { artim: a, peer: p } of PAIRS) {
        const runs: { a: Load[]; p: Load[] } = { a: [], p: [] };
        for (let i = 0; i < RUNS; i++) {
          for (const [key, site, path] of [['a', artim, a], ['p', earlier, p]] as const) {
            if (!path) continue;
            try {
              runs[key].push(await measure(browser, site, path));
            } catch (e) {
              failures.push(`${site.label} ${path}: run ${i + 1} failed: ${(e as Error).message.split('\n')[0]}`);
            }
          }
        }
        if (runs.a.length) {
          loads.set(`a${a}`, medianLoad(runs.a));
          warnings.push([`Artım ${a}`, runs.a[0]!.smallChunks]);
        }
        if (p && runs.p.length) {
          loads.set(`p${p}`, medianLoad(runs.p));
          warnings.push([`earlier ${p}`, runs.p[0]!.smallChunks]);
        }
        console.log(`  measured ${a}${p ? ` and ${p}` : ''} (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    } finally {
      await browser.close();
    }

    const scores = new Map<string, LighthouseResult>();
    const notes: string[] = failures;
    if (lighthouseRuns > 0) {
      const lh = await openLighthouse(chromiumPath);
      try {
        for (const { artim: a, peer: p } of PAIRS) {
          const results: { a: LighthouseResult[]; p: LighthouseResult[] } = { a: [], p: [] };
          for (let i = 0; i < lighthouseRuns; i++) {
            for (const [key, site, path] of [['a', artim, a], ['p', earlier, p]] as const) {
              if (!path) continue;
              try {
                results[key].push(await lh.audit(site.url + path));
              } catch (e) {
                notes.push(`${site.label} ${path}: Lighthouse run ${i + 1} failed: ${(e as Error).message.split('\n')[0]}`);
              }
            }
          }
          if (results.a.length) scores.set(`a${a}`, medianByScore(results.a));
          if (p && results.p.length) scores.set(`p${p}`, medianByScore(results.p));
          console.log(`  Lighthouse ${a}${p ? ` and ${p}` : ''} (${Math.round((Date.now() - started) / 1000)} s)`);
        }
      } finally {
        await lh.close();
      }
    }

    const rows: string[][] = [['page', 'site', 'requests until ready (all)', 'JS gz until ready (all)', 'LCP', 'TBT', 'CLS', 'ready', 'Lighthouse', 'LH LCP', 'LH TBT', 'blocked other hosts']];
    for (const { artim: a, peer: p } of PAIRS) {
      for (const [key, label, path] of [['a', 'Artım', a], ['p', 'earlier storefront', p]] as const) {
        const l = path ? loads.get(`${key}${path}`) : undefined;
        const lhr = path ? scores.get(`${key}${path}`) : undefined;
        if (!path || !l) {
          rows.push([key === 'a' ? a : '', path ? `${label}: no figures` : `${label}: no such page`, '—', '—', '—', '—', '—', '—', '—', '—', '—', '—']);
          continue;
        }
        const value = (id: string) => lhr?.audits[id]?.numericValue;
        rows.push([
          key === 'a' ? a : `  ${path}`,
          label,
          `${l.requests} (${l.requestsAll})`,
          `${kb(l.js)} KB (${kb(l.jsAll)} KB)`,
          seconds(l.lcp),
          `${Math.round(l.tbt)} ms`,
          l.cls.toFixed(3),
          seconds(l.ready),
          lhr ? (lhr.categories.performance?.score ?? 0).toFixed(2) : '—',
          value('largest-contentful-paint') === undefined ? '—' : seconds(value('largest-contentful-paint')!),
          value('total-blocking-time') === undefined ? '—' : `${Math.round(value('total-blocking-time')!)} ms`,
          String(l.blocked),
        ]);
      }
    }
    console.log('');
    printTable(rows);
    console.log(
      `\nready — Artım: <html data-hydrated="true"> and every [data-island] hydrated; earlier storefront: React's first commit into #root ` +
        `or the end of its last request before 1 s of network quiet, whichever is later. Requests count the document; "all" is until 1.5 s after ready.`,
    );
    if (lighthouseRuns > 0) {
      const any = [...scores.values()][0];
      console.log(`Lighthouse: median of ${lighthouseRuns} by score, interleaved${any ? `; ${describeSettings(any)}` : ''}. Other hosts blocked in every run.`);
    }
    for (const [label, chunks] of warnings) printSmallChunks(label, chunks);
    for (const n of notes) console.log(`  ${n}`);
    console.log(`\n${Math.round((Date.now() - started) / 1000)} s in all.`);
  } finally {
    await peer.stop();
    await app.stop();
    removeDataDir(app.dataDir);
  }
}

/** Credits the bench's customer through the team's API and places one order as they would; its number. */
async function placeTrackedOrder(url: string, origin: string, cookie: string): Promise<string> {
  const json = { 'content-type': 'application/json', origin };
  const admin = await fetch(`${url}/api/auth/sign-in/email`, { method: 'POST', headers: json, body: JSON.stringify(E2E_ADMIN) });
  if (!admin.ok) throw new Error(`the team's sign-in answered ${admin.status}: ${await admin.text()}`);
  const adminCookie = admin.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { user } = (await (await fetch(`${url}/api/me`, { headers: { cookie } })).json()) as { user: { id: string } };
  const credited = await fetch(`${url}/api/admin/users/${user.id}/balance`, {
    method: 'POST',
    headers: { ...json, cookie: adminCookie },
    body: JSON.stringify({ amountMicros: 100_000_000, reason: 'bench balance' }),
  });
  if (!credited.ok) throw new Error(`the balance answered ${credited.status}: ${await credited.text()}`);
  const { services } = (await (await fetch(`${url}/api/catalog/services?lang=en`)).json()) as { services: { id: string; platform: string; hasParams: boolean; min: number; tiers: unknown[] }[] };
  const plain = services.find((s) => s.platform === 'tiktok' && !s.hasParams && s.tiers.length > 0);
  if (!plain) throw new Error('no TikTok service without parameters to order for the lookup');
  const placed = await fetch(`${url}/api/orders`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ serviceId: plain.id, link: 'https://www.tiktok.com/@bench.web', quantity: plain.min, params: {}, idempotencyKey: `bench-${randomBytes(8).toString('hex')}` }),
  });
  if (placed.status !== 201) throw new Error(`the order answered ${placed.status}: ${await placed.text()}`);
  return ((await placed.json()) as { number: string }).number;
}

async function main() {
  if (process.argv.includes('--build') || !existsSync(resolve(dist, '.vite/manifest.json')) || isDevelopmentBuild()) {
    execSync('npm run build --silent', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  const builtAt = manifestTime();
  const warnIfRebuilt = () => {
    // The server keeps the HTML of the build it started with; a build in between (a test run's
    // global setup, say) deletes the chunks that HTML names, and the figures above mix two builds.
    if (manifestTime() !== builtAt) console.log('\nWarning: dist/ was rebuilt while the bench ran, so these figures are not of one build: run it again.');
  };
  if (PEER_DIR) {
    await compare(PEER_DIR);
    warnIfRebuilt();
    return;
  }
  const app = await startAppProcess();
  try {
    console.log(
      `\nInitial load per page (gzipped), budgets: JS ≤ ${BUDGET.jsKb} KB before interaction, LCP ≤ ${BUDGET.lcpMs / 1000} s, ` +
        `Lighthouse performance ${BUDGET.lighthouseScore.toFixed(1)} (table below)\n`,
    );
    const rows: string[][] = [['page', 'HTML', 'JS (HTML refs)', 'CSS', 'requests until ready', 'JS until ready', 'LCP', 'TBT', 'CLS', 'ready', 'JS budget', 'LCP budget']];
    const publicRows: string[][] = [['page', 'JS before first interaction', 'JS in all (no input)', 'menu tap answered, tapped at load', 'tapped when ready', `budgets ${PUBLIC_BUDGET.beforeKb} KB / ${PUBLIC_BUDGET.allKb} KB / ${PUBLIC_BUDGET.tapMs} ms`]];
    const chromiumPath = findChromium();
    const browser = chromiumPath ? await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS }) : null;
    if (!browser) console.log('No Chromium found: sizes from the server HTML only, no browser timings.\n');
    const site: Site = { label: 'Artım', url: app.url, root: dist, rule: 'artim' };

    // A customer on the bench's database, signed in as a visitor does.
    const origin = app.url.replace('127.0.0.1', 'localhost');
    const account = { email: 'bench-web@example.com', password: 'Bench-web-1!' };
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ ...account, name: 'Bench Web' }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(account),
    });
    if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    if (PAGES.includes(TRACKED)) trackedNumber = await placeTrackedOrder(app.url, origin, cookie);

    const warnings: [string, { path: string; gz: number }[]][] = [];
    for (const path of [...PAGES, ...SIGNED_IN_PAGES]) {
      const signedIn = SIGNED_IN_PAGES.includes(path);
      const res = await fetch(app.url + addressOf(path), { headers: signedIn ? { cookie } : {} });
      const html = await res.text();
      const refs = referencedAssets(html);
      const js = sum(refs.js);
      const css = sum(refs.css);
      const htmlGz = gzipSync(html, { level: 9 }).length;
      let load: Load | null = null;
      if (browser) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, site, path, signedIn ? cookie : undefined));
        load = medianLoad(runs);
        warnings.push([path, load.smallChunks]);
      }
      if (load && !signedIn) {
        const tapAt = async (when: 'load' | 'ready') => {
          const taps: number[] = [];
          for (let i = 0; i < RUNS; i++) {
            const tap = await measureTap(browser!, site, path, when);
            if (tap !== null) taps.push(tap);
          }
          return taps.length ? median(taps) : null;
        };
        const [atLoad, atReady] = [await tapAt('load'), await tapAt('ready')];
        const ms = (t: number | null) => (t === null ? '—' : `${Math.round(t)} ms`);
        const over = [
          load.jsBeforeLoad / 1024 > PUBLIC_BUDGET.beforeKb ? 'before' : '',
          load.jsAll / 1024 > PUBLIC_BUDGET.allKb ? 'all' : '',
          atLoad !== null && atLoad > PUBLIC_BUDGET.tapMs ? 'tap at load' : '',
          atReady !== null && atReady > PUBLIC_BUDGET.tapMs ? 'tap when ready' : '',
        ].filter(Boolean);
        publicRows.push([path, `${kb(load.jsBeforeLoad)} KB`, `${kb(load.jsAll)} KB`, ms(atLoad), ms(atReady), over.length ? `over: ${over.join(', ')}` : 'ok']);
      }
      const jsForBudget = load ? Math.max(js, load.js) : js;
      rows.push([
        path,
        `${kb(htmlGz)} KB`,
        `${kb(js)} KB`,
        `${kb(css)} KB`,
        load ? String(load.requests) : '—',
        load ? `${kb(load.js)} KB` : '—',
        load ? seconds(load.lcp) : '—',
        load ? `${Math.round(load.tbt)} ms` : '—',
        load ? load.cls.toFixed(3) : '—',
        load ? seconds(load.ready) : '—',
        signedIn ? 'n/a (signed in)' : jsForBudget / 1024 <= BUDGET.jsKb ? 'ok' : `over by ${kb(jsForBudget - BUDGET.jsKb * 1024)} KB`,
        load ? (load.lcp <= BUDGET.lcpMs ? 'ok' : `over by ${((load.lcp - BUDGET.lcpMs) / 1000).toFixed(2)} s`) : '—',
      ]);
    }
    const customerRows: string[][] = [['page', 'visitor', 'lands on', 'requests until ready', 'JS until ready', 'JS in all', 'ready', 'TBT', 'LCP', 'budget']];
    for (const path of browser ? CUSTOMER_PAGES : []) {
      for (const signedIn of [false, true]) {
        const landed = new URL((await fetch(app.url + path, { headers: signedIn ? { cookie } : {}, redirect: 'follow' })).url);
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measure(browser!, site, path, signedIn ? cookie : undefined));
        const load = medianLoad(runs);
        warnings.push([`${path} (${signedIn ? 'signed in' : 'signed out'})`, load.smallChunks]);
        const over = [
          load.requests > CUSTOMER_BUDGET.requests ? 'requests' : '',
          load.js / 1024 > CUSTOMER_BUDGET.jsKb ? 'JS' : '',
          load.tbt > CUSTOMER_BUDGET.tbtMs ? 'TBT' : '',
          load.ready > CUSTOMER_BUDGET.readyMs ? 'ready' : '',
        ].filter(Boolean);
        customerRows.push([
          path,
          signedIn ? 'signed in' : 'signed out',
          `${landed.pathname}${landed.search}`,
          String(load.requests),
          `${kb(load.js)} KB`,
          `${kb(load.jsAll)} KB`,
          seconds(load.ready),
          `${Math.round(load.tbt)} ms`,
          seconds(load.lcp),
          over.length ? `over: ${over.join(', ')}` : 'ok',
        ]);
      }
    }
    await browser?.close();

    printTable(rows);
    if (customerRows.length > 1) {
      console.log(
        `\nThe order page and the dashboard (docs/decisions/0024), budgets: ≤ ${CUSTOMER_BUDGET.requests} requests and ≤ ${CUSTOMER_BUDGET.jsKb} KB of JS (gz) until ready, ` +
          `TBT ≤ ${CUSTOMER_BUDGET.tbtMs} ms, ready ≤ ${CUSTOMER_BUDGET.readyMs / 1000} s; requests count the document; "JS in all" until 1.5 s after ready; median of ${RUNS} cold runs\n`,
      );
      printTable(customerRows);
    }
    if (browser) {
      console.log(`\nThrottled run: 390×844 @3x, ${PROFILE.name}; median of ${RUNS} cold runs. Ready: <html data-hydrated="true"> and every [data-island] hydrated.`);
      console.log('\nPublic pages: JS (gz) requested before the load event, and in all until 1.5 s after ready without input; a tap on the header\'s menu button as soon as the page has loaded and once it is ready, from pointerdown until the menu is open (median of the same number of cold runs)\n');
      printTable(publicRows);
      for (const [label, chunks] of warnings) printSmallChunks(label, chunks);
    }

    // Which chunks the home page's JS is made of, largest first.
    const home = referencedAssets(await (await fetch(`${app.url}/en`)).text());
    console.log('\n/en initial JS by chunk (gzipped):');
    for (const p of [...home.js].sort((a, b) => gzSize(b) - gzSize(a))) console.log(`  ${kb(gzSize(p)).padStart(6)} KB  ${p}`);

    const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE || 1);
    if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 0) console.log('\nLighthouse skipped: BENCH_LIGHTHOUSE is 0 (skip) or a number of runs per page.');
    else if (lighthouseRuns === 0) console.log('\nLighthouse skipped (BENCH_LIGHTHOUSE=0).');
    else if (!chromiumPath) console.log('\nLighthouse skipped: no Chromium found.');
    else await lighthouseAudit(chromiumPath, app.url, cookie, lighthouseRuns);
    warnIfRebuilt();
  } finally {
    await app.stop();
    removeDataDir(app.dataDir);
  }
}

await main();

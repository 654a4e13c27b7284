/**
 * `npm run bench:web`: what each public page costs a visitor before it can be used.
 *
 * 1. Builds the app for production when dist/ is missing, holds a development build, or with
 *    `--build`; starts it on a free port.
 * 2. Initial-load weight per page, gzipped: the JS and CSS the server's HTML references (entry
 *    script, module preloads of the matched page chunks, stylesheet), and — where Chromium is
 *    installed — every JS/CSS response the browser actually received until the page hydrated.
 * 3. Where Chromium is installed, a Lighthouse-like mobile run: 390×844 viewport, CPU slowed 4×
 *    and "slow 4G" network (562.5 ms RTT, 1.47 Mbit/s down, as Lighthouse applies them through
 *    DevTools), measuring LCP, TBT (sum of long-task time over 50 ms after first paint) and CLS.
 *    Median of three runs per page.
 * 4. Where Chromium is installed, Lighthouse itself (performance category, its default mobile
 *    preset and simulated throttling) on every page, the dashboard with the customer's session
 *    cookie: one run per page, BENCH_LIGHTHOUSE=3 for the median of three, BENCH_LIGHTHOUSE=0 to
 *    skip it. When it cannot start, the bench says why and goes on. BENCH_PAGES=/en,/en/dashboard
 *    limits every step to the pages named; BENCH_LIGHTHOUSE_REPORTS=dir keeps the reports as JSON.
 *
 * Budgets printed beside the figures: JS ≤ 80 KB gzipped, LCP ≤ 1.0 s, Lighthouse performance
 * 1.0. Nothing fails on them.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { default as runLighthouse, Result as LighthouseResult } from 'lighthouse';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { removeDataDir, startAppProcess } from '../e2e/app-process';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';

/** BENCH_PAGES=/en,/en/dashboard measures only those pages. */
const only = process.env.BENCH_PAGES?.split(',').filter(Boolean);
const chosen = (pages: string[]) => (only ? pages.filter((p) => only.includes(p)) : pages);
const PAGES = chosen(['/en', '/en/about', '/en/services', '/en/services/seo', '/en/contact', '/en/order?platform=instagram', '/terms', '/privacy', '/az', '/tr']);
/** Measured signed in; their code is split off the public pages, so the public budget does not apply. */
const SIGNED_IN_PAGES = chosen(['/en/dashboard']);
const BUDGET = { jsKb: 80, lcpMs: 1000, lighthouseScore: 1 };
/** Lighthouse's order: the pages with a budget of their own first, then the rest of the public ones. */
const LIGHTHOUSE_PAGES = [...chosen(['/en', '/en/order?platform=instagram']), ...SIGNED_IN_PAGES, ...PAGES.filter((p) => p !== '/en' && !p.startsWith('/en/order'))];
/** A Lighthouse run that takes longer than this is reported as failed. */
const LIGHTHOUSE_TIMEOUT_MS = 120_000;
const RUNS = 3;
/** BENCH_LIGHTHOUSE_REPORTS=dir keeps each page's Lighthouse result there as JSON (the median run). */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
const dist = resolve('dist/client');

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Gzipped size of a built asset: its pre-compressed .gz when present, otherwise gzip -9 now. */
function gzSize(urlPath: string): number {
  const file = resolve(dist, urlPath.replace(/^\//, '').split('?')[0]!);
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
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

/** A port nobody listens on right now, for Chromium's DevTools endpoint. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

/**
 * Lighthouse on each page through a Chromium that playwright-core starts with a DevTools port:
 * Lighthouse opens its own tab there, emulates its default mobile device and throttles by
 * simulation. Prints one row per page; a page whose run fails gets its reason instead, and a
 * Lighthouse that cannot start at all is reported and skipped.
 */
async function lighthouseAudit(chromiumPath: string, baseUrl: string, cookie: string, runs: number) {
  console.log(`\nLighthouse, performance category, ${runs === 1 ? 'one run per page' : `median of ${runs} runs per page by score`}\n`);
  const started = Date.now();
  let browser: Browser;
  let cdp: CDPSession;
  let port: number;
  let lighthouse: typeof runLighthouse;
  try {
    lighthouse = (await import('lighthouse')).default;
    port = await freePort();
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
    cdp = await browser.newBrowserCDPSession();
  } catch (e) {
    console.log(`Lighthouse did not start, skipped: ${(e as Error).message.split('\n')[0]}`);
    return;
  }
  const rows: string[][] = [['page', 'performance', 'LCP', 'TBT', 'CLS', 'FCP', 'Speed Index', 'score target', 'LCP budget']];
  const notes: string[] = [];
  let settings: LighthouseResult['configSettings'] | undefined;
  let version = '';
  /** One audit; throws when it fails, times out or ends on another page than the one asked for. */
  const audit = async (url: string, signedIn: boolean): Promise<LighthouseResult> => {
    // Every run starts from an empty cookie jar, as a first visit does; a signed-in one with the
    // session cookie in the jar, expiring in an hour (a session cookie would go with the tab
    // Lighthouse closes). Lighthouse's extraHeaders cookie does not hold: once the page has set a
    // cookie of its own (lang), Chromium sends the jar's cookies instead, and the dashboard's
    // event stream and the next run went out signed out.
    await cdp.send('Storage.clearCookies', {});
    if (signedIn) {
      const expires = Date.now() / 1000 + 3600;
      const cookies = cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url, expires }));
      await cdp.send('Storage.setCookies', { cookies });
    }
    const run = lighthouse(url, { port, logLevel: 'error', onlyCategories: ['performance'] });
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
  };
  try {
    for (const path of LIGHTHOUSE_PAGES) {
      const signedIn = SIGNED_IN_PAGES.includes(path);
      const label = signedIn ? `${path} (signed in)` : path;
      const results: LighthouseResult[] = [];
      // Lighthouse now and then loses the trace of a load (NO_NAVSTART): one try more than asked.
      for (let attempt = 1; attempt <= runs + 1 && results.length < runs; attempt++) {
        try {
          results.push(await audit(baseUrl + path, signedIn));
        } catch (e) {
          notes.push(`${label}: run ${attempt} failed: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      if (!results.length) {
        rows.push([label, 'failed', '', '', '', '', '', '', '']);
        continue;
      }
      const byScore = (r: LighthouseResult) => r.categories.performance?.score ?? 0;
      const lhr = results.sort((a, b) => byScore(a) - byScore(b))[Math.floor(results.length / 2)]!;
      if (results.length < runs) notes.push(`${label}: ${results.length} of ${runs} runs`);
      settings = lhr.configSettings;
      version = lhr.lighthouseVersion;
      if (REPORTS_DIR) {
        mkdirSync(REPORTS_DIR, { recursive: true });
        writeFileSync(join(REPORTS_DIR, `${path.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'root'}.json`), JSON.stringify(lhr));
      }
      const value = (id: string) => lhr.audits[id]?.numericValue;
      const seconds = (id: string) => (value(id) === undefined ? '—' : `${(value(id)! / 1000).toFixed(2)} s`);
      const score = lhr.categories.performance?.score ?? null;
      const lcp = value('largest-contentful-paint');
      const tbt = value('total-blocking-time');
      const cls = value('cumulative-layout-shift');
      rows.push([
        label,
        score === null ? '—' : score.toFixed(2),
        seconds('largest-contentful-paint'),
        tbt === undefined ? '—' : `${Math.round(tbt)} ms`,
        cls === undefined ? '—' : cls.toFixed(3),
        seconds('first-contentful-paint'),
        seconds('speed-index'),
        score !== null && score >= BUDGET.lighthouseScore ? 'ok' : 'missed',
        lcp === undefined ? '—' : lcp <= BUDGET.lcpMs ? 'ok' : `over by ${((lcp - BUDGET.lcpMs) / 1000).toFixed(2)} s`,
      ]);
      for (const w of lhr.runWarnings) notes.push(`${label}: ${w}`);
    }
  } finally {
    await browser.close();
  }
  printTable(rows);
  if (settings) {
    const t = settings.throttling;
    const screen = settings.screenEmulation;
    console.log(
      `\nLighthouse ${version}, ${settings.formFactor} (${screen.width}×${screen.height} @${screen.deviceScaleFactor}x), ` +
        `throttling ${settings.throttlingMethod}: ${t.rttMs} ms RTT, ${((t.throughputKbps ?? 0) / 1024).toFixed(1)} Mbit/s, CPU ×${t.cpuSlowdownMultiplier} slower; ` +
        `${rows.length - 1} pages in ${Math.round((Date.now() - started) / 1000)} s.`,
    );
  }
  for (const n of notes) console.log(`  ${n}`);
}

interface Vitals {
  lcp: number;
  tbt: number;
  cls: number;
  hydrated: number;
}

/** Records LCP, long tasks and layout shifts from the first byte on. */
const OBSERVERS = () => {
  const w = window as unknown as { __vitals: { lcp: number; cls: number; fcp: number; long: { start: number; duration: number }[] } };
  w.__vitals = { lcp: 0, cls: 0, fcp: 0, long: [] };
  new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__vitals.lcp = e.startTime))).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) =>
    l.getEntries().forEach((e) => {
      const shift = e as PerformanceEntry & { value: number; hadRecentInput: boolean };
      if (!shift.hadRecentInput) w.__vitals.cls += shift.value;
    }),
  ).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__vitals.long.push({ start: e.startTime, duration: e.duration }))).observe({
    type: 'longtask',
    buffered: true,
  });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => e.name === 'first-contentful-paint' && (w.__vitals.fcp = e.startTime))).observe({
    type: 'paint',
    buffered: true,
  });
};

async function measure(browser: Browser, url: string, cookie?: string): Promise<{ vitals: Vitals; received: { js: number; css: number } }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  if (cookie) {
    const { hostname } = new URL(url);
    await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), domain: hostname, path: '/' })));
  }
  await context.addInitScript(OBSERVERS);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1474.56 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

  const received = { js: 0, css: 0 };
  let hydratedAt = 0;
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (res) => {
    const path = new URL(res.url()).pathname;
    if (res.status() >= 400) problems.push(`${res.status()} ${path}`);
    if (hydratedAt) return;
    if (path.endsWith('.js')) received.js += gzSize(path);
    else if (path.endsWith('.css')) received.css += gzSize(path);
  });
  const start = Date.now();
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page
    .waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, { timeout: 60_000 })
    .catch((e: Error) => {
      // A rebuild of dist/ while the app runs leaves the served HTML pointing at deleted chunks.
      throw new Error(`${url} did not hydrate: ${problems.join('; ') || e.message}`);
    });
  hydratedAt = Date.now() - start;
  await page.waitForTimeout(1500); // let late long tasks and shifts land
  const raw = await page.evaluate(() => (window as unknown as { __vitals: { lcp: number; cls: number; fcp: number; long: { start: number; duration: number }[] } }).__vitals);
  await context.close();
  const tbt = raw.long.filter((t) => t.start >= raw.fcp).reduce((n, t) => n + Math.max(0, t.duration - 50), 0);
  return { vitals: { lcp: raw.lcp, tbt, cls: raw.cls, hydrated: hydratedAt }, received };
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

async function main() {
  if (process.argv.includes('--build') || !existsSync(resolve(dist, '.vite/manifest.json')) || isDevelopmentBuild()) {
    execSync('npm run build --silent', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  const builtAt = manifestTime();
  const app = await startAppProcess();
  try {
    console.log(
      `\nInitial load per page (gzipped), budgets: JS ≤ ${BUDGET.jsKb} KB before interaction, LCP ≤ ${BUDGET.lcpMs / 1000} s, ` +
        `Lighthouse performance ${BUDGET.lighthouseScore.toFixed(1)} (table below)\n`,
    );
    const rows: string[][] = [['page', 'HTML', 'JS (HTML refs)', 'CSS', 'JS received', 'LCP', 'TBT', 'CLS', 'hydrated', 'JS budget', 'LCP budget']];
    const chromiumPath = findChromium();
    const browser = chromiumPath ? await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS }) : null;
    if (!browser) console.log('No Chromium found: sizes from the server HTML only, no browser timings.\n');

    // A signed-in customer for the dashboard.
    const origin = app.url.replace('127.0.0.1', 'localhost');
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'bench-web@example.com', password: 'Bench-web-1!', name: 'Bench Web' }),
    });
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

    for (const path of [...PAGES, ...SIGNED_IN_PAGES]) {
      const signedIn = SIGNED_IN_PAGES.includes(path);
      const res = await fetch(app.url + path, { headers: signedIn ? { cookie } : {} });
      const html = await res.text();
      const refs = referencedAssets(html);
      const js = sum(refs.js);
      const css = sum(refs.css);
      const htmlGz = gzipSync(html, { level: 9 }).length;
      let receivedJs = NaN;
      let vitals: Vitals | null = null;
      if (browser) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, app.url + path, signedIn ? cookie : undefined));
        receivedJs = runs[0]!.received.js;
        vitals = {
          lcp: median(runs.map((r) => r.vitals.lcp)),
          tbt: median(runs.map((r) => r.vitals.tbt)),
          cls: median(runs.map((r) => r.vitals.cls)),
          hydrated: median(runs.map((r) => r.vitals.hydrated)),
        };
      }
      const jsForBudget = Number.isNaN(receivedJs) ? js : Math.max(js, receivedJs);
      rows.push([
        path,
        `${kb(htmlGz)} KB`,
        `${kb(js)} KB`,
        `${kb(css)} KB`,
        Number.isNaN(receivedJs) ? '—' : `${kb(receivedJs)} KB`,
        vitals ? `${(vitals.lcp / 1000).toFixed(2)} s` : '—',
        vitals ? `${Math.round(vitals.tbt)} ms` : '—',
        vitals ? vitals.cls.toFixed(3) : '—',
        vitals ? `${(vitals.hydrated / 1000).toFixed(2)} s` : '—',
        signedIn ? 'n/a (signed in)' : jsForBudget / 1024 <= BUDGET.jsKb ? 'ok' : `over by ${kb(jsForBudget - BUDGET.jsKb * 1024)} KB`,
        vitals ? (vitals.lcp <= BUDGET.lcpMs ? 'ok' : `over by ${((vitals.lcp - BUDGET.lcpMs) / 1000).toFixed(2)} s`) : '—',
      ]);
    }
    await browser?.close();

    printTable(rows);
    if (browser) console.log(`\nMobile run: 390×844 @3x, CPU ×4 slower, slow 4G (562.5 ms RTT, 1.47 Mbit/s); median of ${RUNS} runs, cold cache.`);

    // Which chunks the home page's JS is made of, largest first.
    const home = referencedAssets(await (await fetch(`${app.url}/en`)).text());
    console.log('\n/en initial JS by chunk (gzipped):');
    for (const p of [...home.js].sort((a, b) => gzSize(b) - gzSize(a))) console.log(`  ${kb(gzSize(p)).padStart(6)} KB  ${p}`);

    const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE || 1);
    if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 0) console.log('\nLighthouse skipped: BENCH_LIGHTHOUSE is 0 (skip) or a number of runs per page.');
    else if (lighthouseRuns === 0) console.log('\nLighthouse skipped (BENCH_LIGHTHOUSE=0).');
    else if (!chromiumPath) console.log('\nLighthouse skipped: no Chromium found.');
    else await lighthouseAudit(chromiumPath, app.url, cookie, lighthouseRuns);

    // The server keeps the HTML of the build it started with; a build in between (a test run's
    // global setup, say) deletes the chunks that HTML names, and the figures above mix two builds.
    if (manifestTime() !== builtAt) {
      console.log('\nWarning: dist/ was rebuilt while the bench ran, so these figures are not of one build: run it again.');
    }
  } finally {
    await app.stop();
    removeDataDir(app.dataDir);
  }
}

await main();

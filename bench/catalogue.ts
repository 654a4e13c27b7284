/**
 * `npm run bench:catalogue`: what the service list costs with a large catalogue.
 *
 * 1. Builds the app when dist/ is missing (or with `--build`), starts it with
 *    SANDBOX_SERVICE_COUNT=5000 on a fresh data folder and waits until the catalogue is synced.
 * 2. The list payload (`GET /api/catalog/services?lang=en`): raw and gzipped bytes on the wire.
 * 3. Time to serve it: median (and p90) of 50 sequential full requests, and of 50 revalidations
 *    with If-None-Match answered 304.
 * 4. Where Chromium is installed, the order page at 1280 px: time until the service select first
 *    shows services after navigation, and the time to switch platform — from the click on a
 *    platform button until the service select lists the new platform's services and a frame
 *    has been painted — median of several switches.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { removeDataDir, startAppProcess } from '../e2e/app-process';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';

const SERVICES = 5000;
const REQUESTS = 50;
const SWITCHES = 3;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

interface Reply {
  status: number;
  bytes: number;
  etag: string | undefined;
  encoding: string | undefined;
  elapsed: number;
}

/** One GET with raw sockets, so the bytes counted are the bytes sent (compressed or not). */
function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          bytes,
          etag: res.headers.etag,
          encoding: res.headers['content-encoding'],
          elapsed: performance.now() - start,
        }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * Runs in the page: clicks a platform button and resolves once the service select lists that
 * platform's services and the next frame is painted. Kept as text so the bundler used to run
 * this script adds nothing to it.
 */
const SWITCH_PLATFORM = `async (p) => {
  const select = () => document.querySelector('#order-service');
  const shows = () => select()?.dataset.platform === p && select().options.length > 1;
  const start = performance.now();
  document.querySelector('[data-platform-option="' + p + '"]').click();
  await new Promise((done) => {
    if (shows()) return done();
    const observer = new MutationObserver(() => {
      if (!shows()) return;
      observer.disconnect();
      done();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return { elapsed: performance.now() - start, options: select().options.length - 1 };
}`;

async function waitForCatalogue(url: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  let count = 0;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/api/catalog/services?lang=en`);
    if (res.ok) count = ((await res.json()) as { services: unknown[] }).services.length;
    if (count >= SERVICES * 0.95) return count;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`catalogue not synced in time (${count} services)`);
}

async function main() {
  if (process.argv.includes('--build') || !existsSync(resolve('dist/server/entry-server.js'))) {
    execSync('npm run build --silent', { stdio: 'inherit' });
  }
  const app = await startAppProcess({ SANDBOX_SERVICE_COUNT: String(SERVICES), JOBS: 'true' });
  try {
    const count = await waitForCatalogue(app.url);
    const listUrl = `${app.url}/api/catalog/services?lang=en`;
    console.log(`\nCatalogue: ${count} services (SANDBOX_SERVICE_COUNT=${SERVICES})\n`);

    const raw = await get(listUrl, { 'accept-encoding': 'identity' });
    const gz = await get(listUrl, { 'accept-encoding': 'gzip' });
    const br = await get(listUrl, { 'accept-encoding': 'br, gzip' });
    console.log('List payload   GET /api/catalog/services?lang=en');
    console.log(`  raw            ${kb(raw.bytes)}`);
    console.log(`  gzip           ${kb(gz.bytes)}${gz.encoding === 'gzip' ? '' : ` (served as ${gz.encoding ?? 'identity'})`}`);
    if (br.encoding && br.encoding !== gz.encoding) console.log(`  ${br.encoding.padEnd(14)} ${kb(br.bytes)}`);

    // Warm the server's per-language cache, then time sequential requests as a browser sends them.
    await get(listUrl, { 'accept-encoding': 'gzip' });
    const full: number[] = [];
    for (let i = 0; i < REQUESTS; i++) full.push((await get(listUrl, { 'accept-encoding': 'gzip' })).elapsed);
    const revalidations: number[] = [];
    let notModified = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const r = await get(listUrl, { 'accept-encoding': 'gzip', 'if-none-match': gz.etag ?? '' });
      if (r.status === 304) notModified++;
      revalidations.push(r.elapsed);
    }
    console.log(`\nTime to serve (${REQUESTS} sequential requests each)`);
    console.log(`  200 full list  median ${ms(median(full))}, p90 ${ms(p90(full))}`);
    console.log(`  304 revalidate median ${ms(median(revalidations))}, p90 ${ms(p90(revalidations))} (${notModified}/${REQUESTS} answered 304)`);

    const chromiumPath = findChromium();
    if (!chromiumPath) {
      console.log('\nNo Chromium found: the order page timings are skipped.');
      return;
    }
    const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const loads: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = Date.now();
        await page.goto(`${app.url}/en/order?platform=instagram`);
        await page.waitForFunction(() => {
          const s = document.querySelector<HTMLSelectElement>('#order-service');
          return s?.dataset.platform === 'instagram' && s.options.length > 1;
        });
        loads.push(Date.now() - start);
      }
      const platforms = await page.$$eval('[data-platform-option]', (els) => els.map((e) => e.getAttribute('data-platform-option')!));
      const switches: number[] = [];
      const perPlatform: string[] = [];
      for (let round = 0; round < SWITCHES; round++) {
        for (const platform of [...platforms.slice(1), platforms[0]!]) {
          const result = (await page.evaluate(`(${SWITCH_PLATFORM})(${JSON.stringify(platform)})`)) as { elapsed: number; options: number };
          switches.push(result.elapsed);
          if (round === 0) perPlatform.push(`${platform} ${result.options}`);
        }
      }
      console.log('\nOrder page in Chromium (1280 px, page /en/order?platform=instagram)');
      console.log(`  navigation → services listed   median ${ms(median(loads))} of ${loads.length} loads`);
      console.log(`  switch platform → new services listed and painted   median ${ms(median(switches))}, p90 ${ms(p90(switches))} of ${switches.length} switches`);
      console.log(`  services in the first group per platform: ${perPlatform.join(', ')}`);
    } finally {
      await browser.close();
    }
  } finally {
    await app.stop();
    removeDataDir(app.dataDir);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

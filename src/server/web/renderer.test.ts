import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISLAND_PRELOADS } from '../../web/islands/attrs';
import { CAPTURE_SCRIPT } from '../../web/islands/capture';
import { compileTemplate, createBuiltRenderer, inlineIcon, inlineStylesheets, preloadLinks } from './renderer';

describe('inlineStylesheets', () => {
  it('replaces each stylesheet link by its file as a style block, keeping the rest of the template', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'artim-renderer-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets/index-abc.css'), 'body{color:red}.a:after{content:"</style>$&"}');
    const template = [
      '<head>',
      '<script type="module" crossorigin src="/assets/index-xyz.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
      '</head>',
    ].join('\n');

    const html = await inlineStylesheets(template, dir);

    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-xyz.js"></script>');
    // The CSS arrives whole; a "</" inside it cannot close the style element early.
    expect(html).toContain('<style>body{color:red}.a:after{content:"<\\/style>$&"}</style>');
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('fails loudly when the built stylesheet is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'artim-renderer-'));
    await expect(inlineStylesheets('<link rel="stylesheet" href="/assets/gone.css">', dir)).rejects.toThrow(/ENOENT/);
  });
});

describe('inlineIcon', () => {
  it('puts the linked SVG icon into the page as a data address the browser reads back to the same markup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'artim-renderer-'));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#6366f1"/><path d="M9 22l5-12"/></svg>';
    writeFileSync(join(dir, 'favicon.svg'), `${svg}\n`);
    const html = await inlineIcon('<head>\n<link rel="icon" href="/favicon.svg" type="image/svg+xml" />\n</head>', dir);
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml" \/>/.exec(html)?.[1];
    expect(href?.startsWith('data:image/svg+xml,')).toBe(true);
    // No quote, angle bracket or # left raw: the attribute and the address stay whole.
    expect(href).not.toMatch(/[<>"#]/);
    expect(decodeURIComponent(href!.slice('data:image/svg+xml,'.length))).toBe(svg);
    // A template without an SVG icon is left as it is.
    expect(await inlineIcon('<head></head>', dir)).toBe('<head></head>');
  });
});

describe('preloadLinks', () => {
  it('lists the matched pages’ chunks and their imports, never the entry, each once; other routes add nothing', () => {
    const manifest = {
      'entry.tsx': { file: 'assets/entry.js', isEntry: true },
      'features/home/HomePage.tsx': { file: 'assets/Home.js', imports: ['_Button.js', 'entry.tsx'], css: ['assets/home.css'] },
      '_Button.js': { file: 'assets/Button.js', imports: ['_cn.js'] },
      '_cn.js': { file: 'assets/cn.js' },
      'features/about/AboutPage.tsx': { file: 'assets/About.js' },
    };
    const links = preloadLinks(manifest, ['root', 'public', 'features/home/HomePage.tsx', 'features/home/HomePage.tsx#x']).split('\n').map((l) => l.trim());
    expect(links).toEqual([
      '<link rel="stylesheet" href="/assets/home.css" />',
      '<link rel="modulepreload" crossorigin href="/assets/Home.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/Button.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/cn.js" />',
    ]);
    expect(preloadLinks(manifest, ['root', 'no-such-page'])).toBe('');
  });
});

describe('page assembly', () => {
  const TRICKY = "a$`b$'c$&d$$e$1";

  it('puts every rendered part in its slot verbatim, replacement patterns included', () => {
    const template = compileTemplate('<html lang="<!--lang-->"><head><!--head--></head><body><div id="root"><!--app--></div><!--data--></body></html>');
    const html = template.fill({ lang: 'az', head: `<title>${TRICKY}</title>`, body: `<p>${TRICKY}</p><!--data-->`, data: `<script>{"name":"${TRICKY}"}</script>` });
    expect(html).toBe(
      `<html lang="az"><head><title>${TRICKY}</title></head><body><div id="root"><p>${TRICKY}</p><!--data--></div><script>{"name":"${TRICKY}"}</script></body></html>`,
    );
  });

  it('refuses a template that lacks a slot', () => {
    expect(() => compileTemplate('<html><!--lang--><!--head--><!--app--></html>')).toThrow(/<!--data-->/);
  });

  it('a built page whose path and data hold $ patterns comes back the size it was rendered', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'artim-dist-'));
    mkdirSync(join(dist, 'client'));
    mkdirSync(join(dist, 'server'));
    const template = `<!doctype html><html lang="<!--lang-->"><head><!--head--><script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"><!--app--></div><!--data-->${'<!-- padding -->'.repeat(200)}</body></html>`;
    writeFileSync(join(dist, 'client/index.html'), template);
    writeFileSync(join(dist, 'client/islands-manifest.json'), JSON.stringify({ 'entry-islands.tsx': { file: 'assets/islands-abc.js', isEntry: true } }));
    // A stand-in for the built server entry that echoes the path into every part, as a 404 page
    // and a customer's boot data would.
    writeFileSync(
      join(dist, 'server/entry-server.js'),
      `export async function render(request) {
        const path = decodeURIComponent(new URL(request.url).pathname);
        return { type: 'html', status: 404, lang: 'en', head: '<title>' + path + '</title>', body: '<h1>' + path + '</h1>', data: '<script type="application/json">' + JSON.stringify({ path }) + '</script>', routeIds: [] };
      }`,
    );
    const renderer = await createBuiltRenderer(dist);
    const path = '/en/' + "$'$`$&".repeat(30);
    const res = await renderer.render(new Request(`http://localhost${encodeURI(path)}`), { publicUrl: 'http://localhost', fetch: () => Promise.reject(new Error('unused')) });
    const html = await res.text();
    expect(html.length).toBeLessThan(template.length + CAPTURE_SCRIPT.length + 4 * path.length + 250);
    const boot = /<script type="application\/json">(.*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(boot)).toEqual({ path });
  });
});

describe('the public pages’ stylesheet', () => {
  it('is inline in a page of islands, cut to the rules its HTML uses with the whole one’s address (its loader named for after the first paint), or whole when its islands wake at load; the app’s in the app’s pages', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'artim-dist-'));
    mkdirSync(join(dist, 'client/assets'), { recursive: true });
    mkdirSync(join(dist, 'client/.vite'));
    mkdirSync(join(dist, 'server'));
    writeFileSync(join(dist, 'client/assets/index-app.css'), '.app-only{color:red}.shared{color:blue}');
    writeFileSync(join(dist, 'client/assets/public-pub.css'), '.shared{color:blue}.other{color:green}h1{margin:0}');
    writeFileSync(
      join(dist, 'client/index.html'),
      `<!doctype html><html lang="<!--lang-->"><head><!--head--><script type="module" crossorigin src="/assets/index-abc.js"></script><link rel="stylesheet" crossorigin href="/assets/index-app.css"></head><body><div id="root"><!--app--></div><!--data--></body></html>`,
    );
    writeFileSync(join(dist, 'client/islands-manifest.json'), JSON.stringify({ 'entry-islands.tsx': { file: 'assets/islands-abc.js', isEntry: true } }));
    writeFileSync(join(dist, 'client/.vite/manifest.json'), JSON.stringify({ 'styles.public.css': { file: 'assets/public-pub.css', isEntry: true } }));
    writeFileSync(
      join(dist, 'server/entry-server.js'),
      `export async function render(request) {
        const path = new URL(request.url).pathname;
        const islands = path === '/en' || path === '/en/wakes';
        return { type: 'html', status: 200, lang: 'en', head: '', body: '<h1 class="shared">x</h1>', data: '', routeIds: [], islands, wakesAtLoad: path === '/en/wakes' };
      }`,
    );
    const renderer = await createBuiltRenderer(dist);
    const page = async (path: string) => (await renderer.render(new Request(`http://localhost${path}`), { publicUrl: 'http://localhost', fetch: () => Promise.reject(new Error('unused')) })).text();

    const islands = await page('/en');
    expect(islands).toContain('<style data-stylesheet="/assets/public-pub.css">.shared{color:blue}h1{margin:0}</style>');
    expect(islands).not.toContain('app-only');
    expect(islands).not.toContain('.other');
    // A page whose islands wake at load carries the whole stylesheet: they would ask for it at once.
    expect(await page('/en/wakes')).toContain('<style>.shared{color:blue}.other{color:green}h1{margin:0}</style>');
    // A page whose islands all wait names its loader for the capture script to add after the
    // first paint; one whose islands wake at load has its script tag.
    expect(islands).toContain('<meta name="artim-islands" content="/assets/islands-abc.js" />');
    expect(islands).not.toContain('<script type="module"');
    expect(await page('/en/wakes')).toContain('<script type="module" crossorigin src="/assets/islands-abc.js">');
    expect(await page('/en/wakes')).not.toContain('<meta name="artim-islands"');
    const app = await page('/en/order');
    expect(app).toContain('<style>.app-only{color:red}.shared{color:blue}</style>');
    expect(app).toContain('src="/assets/index-abc.js"');
  });
});

describe('the scripts of islands that wake at load', () => {
  it('are named in the page at low priority, each once, React’s with the first; a page whose islands all wait names none', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'artim-dist-'));
    mkdirSync(join(dist, 'client/assets'), { recursive: true });
    mkdirSync(join(dist, 'server'));
    writeFileSync(
      join(dist, 'client/index.html'),
      `<!doctype html><html lang="<!--lang-->"><head><!--head--><script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"><!--app--></div><!--data--></body></html>`,
    );
    writeFileSync(join(dist, 'client/islands-manifest.json'), JSON.stringify({ 'entry-islands.tsx': { file: 'assets/islands-abc.js', isEntry: true } }));
    writeFileSync(
      join(dist, 'client', ISLAND_PRELOADS),
      JSON.stringify({ Order: ['assets/frame-1.js', 'assets/OrderPage-2.js', 'assets/orderForm-3.js'], Dashboard: ['assets/frame-1.js', 'assets/DashboardPage-4.js', 'assets/orderForm-3.js'], Header: ['assets/frame-1.js', 'assets/Header-5.js'] }),
    );
    writeFileSync(
      join(dist, 'server/entry-server.js'),
      `export async function render(request) {
        const path = new URL(request.url).pathname;
        const waking = { '/en/order': ['Order'], '/en/both': ['Order', 'Dashboard'] }[path];
        return { type: 'html', status: 200, lang: 'en', head: '', body: '<h1>x</h1>', data: '', routeIds: [], islands: true, wakesAtLoad: !!waking, ...(waking ? { wakingIslands: waking } : {}) };
      }`,
    );
    const renderer = await createBuiltRenderer(dist);
    const page = async (path: string) => (await renderer.render(new Request(`http://localhost${path}`), { publicUrl: 'http://localhost', fetch: () => Promise.reject(new Error('unused')) })).text();
    const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)" \/>/g)].map((m) => m[1]);

    expect(preloads(await page('/en/order'))).toEqual(['/assets/frame-1.js', '/assets/OrderPage-2.js', '/assets/orderForm-3.js']);
    expect(preloads(await page('/en/both'))).toEqual(['/assets/frame-1.js', '/assets/OrderPage-2.js', '/assets/orderForm-3.js', '/assets/DashboardPage-4.js']);
    // The header waits to be touched: nothing of it, nor React, before.
    expect(await page('/en')).not.toContain('modulepreload');
  });
});

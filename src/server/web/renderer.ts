import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import type { ViteDevServer } from 'vite';
import type { RenderResult, ServerRenderContext } from '../../web/lib/serverRender';
import { CAPTURE_SCRIPT } from '../../web/islands/capture';
import { ISLAND_PRELOADS, LOADER_META, STYLESHEET_ATTR } from '../../web/islands/attrs';
import { STREAM_POINT } from '../../web/app/streamed';
import { criticalCss, parseStylesheet } from './criticalCss';

/** Renders a page request into a full HTML response (or a redirect) using the web app's server entry. */
export interface WebRenderer {
  render(request: Request, ctx: ServerRenderContext): Promise<Response>;
}

type RenderFn = (request: Request, ctx: ServerRenderContext) => Promise<RenderResult>;

/** Vite's build manifest: each source module's chunk and the chunks it imports statically. */
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;

/**
 * `<link rel="modulepreload">` for the chunks of the matched pages, so the browser fetches them
 * while it parses the HTML instead of after the entry has run. Page routes have their module path
 * as route id (src/web/app/routes.tsx); other ids match nothing in the manifest.
 */
export function preloadLinks(manifest: Manifest, routeIds: readonly string[]): string {
  const files = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.forEach((c) => css.add(c));
    chunk.imports?.forEach(visit);
  };
  for (const id of routeIds) visit(id.split('#')[0]!);
  return [
    ...[...css].map((f) => `<link rel="stylesheet" href="/${f}" />`),
    ...[...files].map((f) => `<link rel="modulepreload" crossorigin href="/${f}" />`),
  ].join('\n    ');
}

/** The scripts each island loads as it wakes, by island name: the islands build's `islands-preloads.json` (vite.islands.config.ts). */
export type IslandPreloads = Record<string, string[]>;

/**
 * `<link rel="modulepreload">` for the scripts of the islands a page wakes at load (React and the
 * runtime with them), so that the browser fetches them while it reads the page rather than once
 * its loader has run after the whole page was read (docs/decisions/0038). At low priority: the
 * page's own paint comes first. A page whose islands all wait names nothing.
 */
export function islandPreloadLinks(preloads: IslandPreloads, names: readonly string[]): string {
  const files = new Set(names.flatMap((name) => preloads[name] ?? []));
  return [...files].map((f) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${f}" />`).join('\n    ');
}

/** The template's four slots, in the order they appear in src/web/index.html. */
const SLOTS = ['<!--lang-->', '<!--head-->', '<!--app-->', '<!--data-->'] as const;

/**
 * The page template cut once at its slots: a page is the pieces and the rendered parts joined,
 * so nothing in a rendered part (a URL path, a customer's name, a blog post) is ever read as a
 * replacement pattern (`$&`, `$'`, `` $` ``) or searched for the next slot.
 */
export interface PageTemplate {
  fill(parts: { lang: string; head: string; body: string; data: string }): string;
}

export function compileTemplate(template: string): PageTemplate {
  const pieces: string[] = [];
  let rest = template;
  for (const slot of SLOTS) {
    const at = rest.indexOf(slot);
    if (at < 0) throw new Error(`The page template has no ${slot} slot`);
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at + slot.length);
  }
  pieces.push(rest);
  const [beforeLang, beforeHead, beforeApp, beforeData, end] = pieces as [string, string, string, string, string];
  return {
    fill: ({ lang, head, body, data }) => beforeLang + lang + beforeHead + head + beforeApp + body + beforeData + data + end,
  };
}

/**
 * The page templates: the app's, and the one of public pages whose islands alone hydrate; with
 * the public pages' own stylesheet, the `<style>` block of a page of islands, cut to its HTML.
 */
export interface PageTemplates {
  app: PageTemplate;
  islands: PageTemplate;
  /**
   * A page of islands none of which wakes by itself: it names its loader in a `<meta>`, which the
   * capture script adds once the page has painted (web/islands/capture.ts, docs/decisions/0034).
   * Nothing on it runs before a visitor's first touch or the browser's idle time, and what the
   * visitor does before is held; a script tag would be fetched beside the document, as if the
   * paint waited for it.
   */
  islandsWaiting: PageTemplate;
  /** A page of islands with the app's stylesheet, whole, as the app's pages have it. */
  islandsAppStyle: PageTemplate;
  islandsStyle?: (body: string, whole: boolean) => string;
}

/** The public pages' stylesheet (web/styles.public.css): its text, and its address for the whole of it. */
export interface IslandsStylesheet {
  css: string;
  href: string;
}

/**
 * A page of islands' `<style>` block: the rules of the public pages' stylesheet that can apply to
 * its HTML (./criticalCss.ts), with the whole stylesheet's address, which the islands load before
 * they render anything the server did not; or, for a page whose islands wake at load (`whole`),
 * the whole stylesheet, which they would load at once (docs/decisions/0030).
 */
export function islandsStyleBlock(stylesheet: IslandsStylesheet): (body: string, whole: boolean) => string {
  const sheet = parseStylesheet(stylesheet.css);
  const escape = (css: string) => css.replaceAll('</', '<\\/');
  const everything = `<style>${escape(stylesheet.css)}</style>`;
  return (body, whole) => (whole ? everything : `<style ${STYLESHEET_ATTR}="${stylesheet.href}">${escape(criticalCss(sheet, body))}</style>`);
}

const APP_ENTRY_SCRIPT = /<script type="module"[^>]*src="[^"]*(?:entry-client\.tsx|\/assets\/index-[\w-]+\.js)"[^>]*><\/script>\s*/;
const MODULE_PRELOADS = /<link rel="modulepreload"[^>]*>\s*/g;

/** The app's stylesheet as inlineStylesheets put it into the template. */
const INLINE_STYLE = /<style>[\s\S]*?<\/style>/;

/**
 * Both templates from the app's HTML: the inline script that holds early clicks
 * (web/islands/capture.ts) first in <head>; the app's root marked as waiting for hydration; for
 * islands pages, the app's entry and its preloads replaced by the islands script (a module
 * script: fetched while the page is parsed, run once it is, holding up neither) and, given
 * `islandsStylesheet` (the public pages' own, web/styles.public.css), the app's stylesheet
 * replaced by the part of it each page uses (`islandsStyleBlock`, put in with the page's head).
 */
export function pageTemplates(html: string, islandsScript: string, islandsStylesheet?: IslandsStylesheet): PageTemplates {
  const withCapture = html.replace('<!--head-->', () => `<script>${CAPTURE_SCRIPT}</script>\n    <!--head-->`);
  if (!APP_ENTRY_SCRIPT.test(withCapture)) throw new Error('The page template has no app entry script');
  if (islandsStylesheet !== undefined && !INLINE_STYLE.test(withCapture)) throw new Error('The page template has no inline stylesheet to replace');
  const withLoader = (loader: string) => withCapture.replace(APP_ENTRY_SCRIPT, () => `${loader}\n    `).replace(MODULE_PRELOADS, '');
  const islandsAppStyle = withLoader(`<script type="module" crossorigin src="${islandsScript}"></script>`);
  const ownStyle = (template: string) => template.replace(INLINE_STYLE, (style) => (islandsStylesheet ? '' : style));
  return {
    app: compileTemplate(withCapture.replace('<div id="root">', '<div id="root" data-island="app">')),
    islands: compileTemplate(ownStyle(islandsAppStyle)),
    islandsWaiting: compileTemplate(ownStyle(withLoader(`<meta name="${LOADER_META}" content="${islandsScript}" />`))),
    islandsAppStyle: compileTemplate(islandsAppStyle),
    islandsStyle: islandsStylesheet && islandsStyleBlock(islandsStylesheet),
  };
}

/**
 * Pages rendered by a page whose render reads the visitor's own data (app/page.ts `perVisitor`)
 * or asks afresh for each request (`perRequest`, a loader's `Cache-Control: no-store`).
 */
const perVisitorPages = new WeakSet<Response>();
/** Whether `response` is a page that must be rendered for each visitor, never cut into a shared shell. */
export const rendersPerVisitor = (response: Response) => perVisitorPages.has(response);

/**
 * A page's bytes kept in memory (web/pageCache.ts, web/personalPages.ts) as a response's body: a
 * view of them, not a copy (`new Uint8Array(buffer)` copies). Nothing writes to a kept page.
 */
export const keptBody = (bytes: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

/** A render result as the HTTP answer: the page (with its cache headers) or the redirect. */
export function pageResponse(result: RenderResult, templates: PageTemplates, manifest?: Manifest, request?: Request, islandPreloads?: IslandPreloads): Response {
  if (result.type === 'redirect') return new Response(null, { status: result.status, headers: { Location: result.location } });
  if (result.type === 'response') return result.response;
  const template = !result.islands ? templates.app : result.appStylesheet ? templates.islandsAppStyle : result.wakesAtLoad ? templates.islands : templates.islandsWaiting;
  const preload = result.islands ? islandPreloadLinks(islandPreloads ?? {}, result.wakingIslands ?? []) : manifest ? preloadLinks(manifest, result.routeIds) : '';
  // A page that goes on after its first render carries the whole stylesheet: its later states use
  // rules its first HTML does not.
  const style = result.islands && !result.appStylesheet && templates.islandsStyle ? templates.islandsStyle(result.body, result.wakesAtLoad === true || result.stream !== undefined) : '';
  const html = template.fill({
    lang: result.lang,
    head: [style, result.head, preload].filter(Boolean).join('\n    '),
    body: result.body,
    data: result.data,
  });
  // A page rendered for a signed-in visitor holds their name and balance: never stored by a
  // shared cache. Pages for visitors without a session are the same for all of them, unless
  // what they show is asked afresh for each request (`perRequest`: the order lookup).
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': result.personal || result.stream ? 'private, no-store' : result.perRequest ? 'no-store' : 'no-cache',
    Vary: 'Cookie',
    ...(result.retryAfter ? { 'Retry-After': result.retryAfter } : {}),
  };
  const cut = result.stream ? STREAM_POINT.exec(html) : null;
  const response = cut
    ? streamedPage(html.slice(0, cut.index), result.stream!(), html.slice(cut.index + cut[0].length), headers, request, result.status)
    : new Response(html, { status: result.status, headers });
  if (result.perVisitor || result.perRequest || result.stream) perVisitorPages.add(response);
  return response;
}

/**
 * A page written in parts (docs/decisions/0035): `first` at once, each of `later` as it comes,
 * then `last`. Compressed here, each part flushed as it is written (the answers' compression
 * middleware would hold them back to fill its blocks); `X-Accel-Buffering: no` asks a proxy in
 * front not to hold them either. Nothing runs until the answer is read, and a visitor who leaves
 * ends `later`.
 */
function streamedPage(first: string, later: AsyncIterable<string>, last: string, headers: Record<string, string>, request: Request | undefined, status: number): Response {
  const gzip = /\bgzip\b/i.test(request?.headers.get('accept-encoding') ?? '');
  async function* parts() {
    yield first;
    yield* later;
    yield last;
  }
  async function* encoded(): AsyncGenerator<Uint8Array> {
    if (!gzip) {
      for await (const part of parts()) yield Buffer.from(part);
      return;
    }
    const zip = createGzip();
    const out: Buffer[] = [];
    zip.on('data', (chunk: Buffer) => out.push(chunk));
    const ended = once(zip, 'end');
    try {
      for await (const part of parts()) {
        zip.write(part);
        await new Promise<void>((done) => zip.flush(zlibConstants.Z_SYNC_FLUSH, () => done()));
        // What the flush pushed reaches the 'data' listener on the ticks that follow.
        await new Promise<void>((done) => setImmediate(done));
        yield Buffer.concat(out.splice(0));
      }
      zip.end();
      await ended;
      yield Buffer.concat(out.splice(0));
    } finally {
      zip.destroy();
    }
  }
  const iterator = encoded();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return new Response(body, {
    status,
    // `no-transform`: nothing on the way compresses it again, which would hold its parts back.
    headers: { ...headers, 'Cache-Control': `${headers['Cache-Control']}, no-transform`, Vary: 'Cookie, Accept-Encoding', 'X-Accel-Buffering': 'no', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
  });
}

/**
 * Puts the built stylesheet into the page as a `<style>` block: the first paint then waits for
 * the HTML alone, not for a second request (one round trip — over half a second on a slow mobile
 * network). The CSS is ~10 KB gzipped and compresses with the HTML; later pages are client-side
 * navigations that do not fetch HTML again.
 */
export async function inlineStylesheets(template: string, clientDir: string): Promise<string> {
  let html = template;
  for (const match of template.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)) {
    const css = await readFile(resolve(clientDir, match[1]!), 'utf8');
    html = html.replace(match[0], () => `<style>${css.replaceAll('</', '<\\/')}</style>`);
  }
  return html;
}

/**
 * The SVG icon a template links (`<link rel="icon" href="/x.svg">`) put into the page as a `data:`
 * address: 245 bytes that would otherwise be one more request of a first visit. The file is still
 * served for whatever asks for it by name.
 */
export async function inlineIcon(template: string, clientDir: string): Promise<string> {
  const link = /(<link rel="icon" href=")\/([\w.-]+\.svg)(")/.exec(template);
  if (!link) return template;
  const svg = (await readFile(resolve(clientDir, link[2]!), 'utf8')).trim();
  // Percent-encoded where a URL or the attribute needs it; the rest of the markup stays readable.
  const address = `data:image/svg+xml,${svg.replace(/[%#<>"\s]/g, (c) => (c === ' ' ? ' ' : encodeURIComponent(c)))}`;
  return template.replace(link[0], () => `${link[1]}${address}${link[3]}`);
}

/** The public pages' stylesheet in the app build's manifest (vite.config.ts, docs/decisions/0026). */
export const PUBLIC_STYLESHEET = 'styles.public.css';

/** Production: the built client template and the built server entry from `dist/`. */
export async function createBuiltRenderer(distDir = resolve('dist')): Promise<WebRenderer> {
  const clientDir = resolve(distDir, 'client');
  const islandsManifest = JSON.parse(await readFile(resolve(clientDir, 'islands-manifest.json'), 'utf8')) as Manifest;
  const islandsEntry = islandsManifest['entry-islands.tsx'];
  if (!islandsEntry) throw new Error('The islands build has no entry-islands.tsx');
  // Without a manifest the pages still work; they only lose their preload hints, and public pages
  // their own stylesheet (they get the app's).
  const manifest = await readFile(resolve(clientDir, '.vite/manifest.json'), 'utf8').then(
    (text) => JSON.parse(text) as Manifest,
    () => undefined,
  );
  const publicCss = manifest?.[PUBLIC_STYLESHEET]?.file;
  const islandsStylesheet = publicCss ? { css: await readFile(resolve(clientDir, publicCss), 'utf8'), href: `/${publicCss}` } : undefined;
  // Without it, a page whose islands wake at load only loses their scripts' early fetch.
  const islandPreloads = await readFile(resolve(clientDir, ISLAND_PRELOADS), 'utf8').then(
    (text) => JSON.parse(text) as IslandPreloads,
    () => undefined,
  );
  const template = await inlineIcon(await inlineStylesheets(await readFile(resolve(clientDir, 'index.html'), 'utf8'), clientDir), clientDir);
  const templates = pageTemplates(template, `/${islandsEntry.file}`, islandsStylesheet);
  const entry = (await import(pathToFileURL(resolve(distDir, 'server/entry-server.js')).href)) as { render: RenderFn };
  return { render: async (request, ctx) => pageResponse(await entry.render(request, ctx), templates, manifest, request, islandPreloads) };
}

/** Development: Vite transforms the template and loads the server entry with hot reload. */
export function createDevRenderer(vite: ViteDevServer): WebRenderer {
  return {
    async render(request, ctx) {
      const url = new URL(request.url);
      const raw = await readFile(resolve('src/web/index.html'), 'utf8');
      const template = await vite.transformIndexHtml(url.pathname, raw);
      const entry = (await vite.ssrLoadModule('/entry-server.tsx')) as { render: RenderFn };
      return pageResponse(await entry.render(request, ctx), pageTemplates(template, '/entry-islands.tsx'), undefined, request);
    },
  };
}

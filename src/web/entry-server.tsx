import { StrictMode } from 'react';
import { hasSessionCookie, type Me } from '../core/contracts/account';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouter,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import { createI18n, loadNamespaces, usedResources } from './i18n';
import { BOOT_DATA_ID, headTags, scriptJson, type BootData, type IslandsBootData } from './app/document';
import { answerKey, pageAnswers, routeLanguage, type PageHandle } from './app/page';
import { STREAM_POINT, streamStep } from './app/streamed';
import { Providers } from './app/Providers';
import { routes } from './app/routes';
import { DEFAULT_SITE, SITE_ROUTE_ID, type SiteSettings } from './app/site';
import type { RenderResult, ServerRenderContext } from './lib/serverRender';
import { loaderApi } from './lib/loaderFetch';
import { ISLAND_ATTR, ISLAND_TEXT_ATTR, ISLAND_WAKE_ATTR, ISLAND_WAKE_QUERY_ATTR, wakesByItself } from './islands/attrs';
import { ISLAND_TEXT } from './i18n/islandText';

export type { RenderResult, ServerRenderContext };

const handler = createStaticHandler(routes);

/** The visitor a session cookie belongs to (in process, with the request's cookies); null when it is not valid. */
async function currentUser(ctx: ServerRenderContext): Promise<Me | null> {
  try {
    const res = await loaderApi({ context: ctx }).me.$get();
    return res.ok ? (await res.json()).user : null;
  } catch {
    return null;
  }
}

function serializeErrors(errors: StaticHandlerContext['errors']) {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [id, err] of Object.entries(errors)) {
    out[id] = isRouteErrorResponse(err)
      ? { ...err, __type: 'RouteErrorResponse' }
      : { message: err instanceof Error ? err.message : String(err), __type: 'Error' };
  }
  return out;
}

/** An island's wrapper as islands/island.tsx renders it, its two wake attributes and its text (plain words: nothing to decode). */
const ISLAND_TAG = new RegExp(`<div ${ISLAND_ATTR}="[^"]*"[^>]*>`, 'g');
const ISLAND_NAME = new RegExp(`^<div ${ISLAND_ATTR}="([^"]*)"`);
const WAKE = new RegExp(`\\s${ISLAND_WAKE_ATTR}="([^"]*)"`);
const WAKE_QUERY = new RegExp(`\\s${ISLAND_WAKE_QUERY_ATTR}="([^"]*)"`);
const TEXT = new RegExp(`\\s${ISLAND_TEXT_ATTR}="([^"]*)"`);

/**
 * The islands of a rendered page that wake by themselves at `query` (islands/attrs.ts
 * `wakesByItself`): null if none does, else their names and the namespaces those woken by the
 * address show at once.
 */
function wokenIslands(body: string, query: URLSearchParams): { names: string[]; text: string[] } | null {
  let woken: { names: string[]; text: string[] } | null = null;
  for (const [tag] of body.matchAll(ISLAND_TAG)) {
    const asked = WAKE_QUERY.exec(tag)?.[1] ?? null;
    if (!wakesByItself(WAKE.exec(tag)?.[1] ?? null, asked, query)) continue;
    woken ??= { names: [], text: [] };
    const name = ISLAND_NAME.exec(tag)?.[1];
    if (name && !woken.names.includes(name)) woken.names.push(name);
    if (asked) woken.text.push(...(TEXT.exec(tag)?.[1] ?? '').split(' ').filter(Boolean));
  }
  return woken;
}

export async function render(request: Request, ctx: ServerRenderContext): Promise<RenderResult> {
  const result = await handler.query(request, { requestContext: ctx as never });
  if (result instanceof Response) {
    const location = result.headers.get('Location');
    if (location && result.status >= 300 && result.status < 400) return { type: 'redirect', status: result.status, location };
    return { type: 'response', response: result };
  }

  const leaf = result.matches.at(-1);
  const lang = routeLanguage(leaf?.params ?? {}, request);
  const handles = result.matches.map((m) => m.route.handle as PageHandle | undefined);
  const namespaces = [...new Set(handles.flatMap((h) => h?.ns ?? []))];
  const i18n = createI18n(lang);
  await loadNamespaces(i18n, lang, ['common', ...namespaces]);

  const leafHandle = [...handles].reverse().find((h) => h?.meta);
  let status = result.statusCode;
  if (status === 200) status = [...handles].reverse().find((h) => h?.status)?.status ?? 200;

  const me = hasSessionCookie(request.headers.get('cookie')) ? await currentUser(ctx) : null;
  const router = createStaticRouter(handler.dataRoutes, result);
  // A page of islands needs no router state in the browser: only what its islands render with.
  const islands = !result.errors && handles.at(-1)?.islands === true;
  // The API's answers it sends with itself (app/page.ts `PageAnswer`): rendered with here, and in
  // the boot data for its islands, which then render the same without asking.
  const answers = islands && leaf ? pageAnswers(result.loaderData[leaf.route.id]) : [];
  const body = renderToString(
    <StrictMode>
      <Providers i18n={i18n} me={me} answers={answers}>
        <StaticRouterProvider router={router} context={result} hydrate={false} />
      </Providers>
    </StrictMode>,
  );

  const leafData = leaf ? result.loaderData[leaf.route.id] : undefined;
  const site = (result.loaderData[SITE_ROUTE_ID] as SiteSettings | undefined) ?? DEFAULT_SITE;
  const meta = leafHandle?.meta?.({ t: i18n.t, lang, data: leafData, site }) ?? { title: site.site_name };
  const url = new URL(request.url);
  const head = headTags({ title: meta.title, description: meta.description ?? (site.site_description || undefined), publicUrl: ctx.publicUrl, pathname: url.pathname });
  // The islands' text comes with the page when one wakes by itself; otherwise the first to wake
  // loads it (islands/text.ts): a visitor who does not act does not download it (docs/decisions/0030).
  const woken = islands ? wokenIslands(body, url.searchParams) : null;
  const wakesAtLoad = woken !== null;
  const islandText = [...new Set(['common', ...(handles.at(-1)?.islandNs ?? []), ...(woken?.text ?? [])])];
  if (woken?.text.length) await loadNamespaces(i18n, lang, woken.text);
  const textLater = islands && !wakesAtLoad && islandText.every((ns) => ISLAND_TEXT.includes(ns));
  const boot: BootData | IslandsBootData = islands
    ? {
        lang,
        ...(textLater ? { text: islandText } : { resources: usedResources(i18n, lang, islandText) }),
        me,
        site,
        ...(answers.length ? { answers: Object.fromEntries(answers.map((a) => [answerKey(a.queryKey), a.data])) } : {}),
        ...(answers.some((a) => a.etag) ? { answerTags: Object.fromEntries(answers.flatMap((a) => (a.etag ? [[answerKey(a.queryKey), a.etag]] : []))) } : {}),
      }
    : {
        lang,
        resources: usedResources(i18n, lang),
        me,
        hydration: { loaderData: result.loaderData, actionData: result.actionData, errors: serializeErrors(result.errors) },
      };
  const data = `<script type="application/json" id="${BOOT_DATA_ID}">${scriptJson(boot)}</script>`;
  const perRequest = Object.values(result.loaderHeaders).some((headers) => /\bno-store\b/.test(headers.get('Cache-Control') ?? ''));
  const retryAfter = Object.values(result.loaderHeaders)
    .map((headers) => headers.get('Retry-After'))
    .find(Boolean);
  // A page that goes on after its first render (app/page.ts `PageStream`): each later state is
  // rendered here as it comes, with the page's text, for the visitor it was rendered for.
  const pageStream = handles.at(-1)?.stream;
  const stream =
    pageStream && STREAM_POINT.test(body) && !ctx.shared
      ? async function* () {
          let n = 0;
          for await (const node of pageStream({ url, lang, t: i18n.t, signedIn: me !== null, fetch: ctx.fetch })) {
            n += 1;
            const html = renderToString(
              <Providers i18n={i18n} me={me}>
                <StaticRouter location={url.pathname + url.search}>{node}</StaticRouter>
              </Providers>,
            );
            yield streamStep(n, html);
          }
        }
      : undefined;
  return {
    type: 'html',
    status,
    lang,
    head,
    body,
    data,
    ...(stream ? { stream } : {}),
    routeIds: result.matches.map((m) => m.route.id),
    personal: me !== null,
    islands,
    wakesAtLoad,
    ...(woken ? { wakingIslands: woken.names } : {}),
    ...(islands && handles.at(-1)?.stylesheet === 'app' ? { appStylesheet: true } : {}),
    perVisitor: handles.some((h) => h?.perVisitor === true),
    perRequest,
    ...(retryAfter ? { retryAfter } : {}),
  };
}

import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { island } from '../../islands/island';
import { ApiError, apiClient, unwrap } from '../../lib/api';
import type { ServerRenderContext } from '../../lib/serverRender';
import { TrackView, type TrackLookup } from './TrackView';

export const ns = ['tracking'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('tracking:title')} · ${site.site_name}`, description: t('tracking:intro') });

/**
 * What the page shows is asked afresh for each request and counted on the visitor's address by
 * the tracking endpoint's limit: never kept by a cache, nor cut into a shell customers share
 * (server/web/renderer.ts reads this header).
 */
const PER_REQUEST = { headers: { 'Cache-Control': 'no-store' } };

/**
 * /track?order=…: the server looks the address's number up through the tracking endpoint, in
 * process and as the visitor (the same rule and limit as the browser's lookup: docs/rules.md#tracking),
 * so the page arrives with the result or its refusal and the lookup's island waits to be touched.
 * In the browser (the app's own navigation to this page) the view looks the number up itself.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!import.meta.env.SSR) return null;
  const number = (new URL(request.url).searchParams.get('order') ?? '').trim().toUpperCase();
  if (!number) return null;
  const server = context as unknown as ServerRenderContext;
  // A page rendered once for many visitors asks nothing counted per visitor.
  if (server.shared) return data(null, PER_REQUEST);
  let lookup: TrackLookup;
  try {
    lookup = { number, result: await unwrap((o) => apiClient(server.fetch).track[':number'].$get({ param: { number: encodeURIComponent(number) } }, o)) };
  } catch (err) {
    const refusal = err instanceof ApiError ? err : new ApiError('INTERNAL', 500);
    lookup = { number, error: { code: refusal.code, status: refusal.status, ...(refusal.details ? { details: refusal.details } : {}) } };
    // Past the lookup's limit the page says so, and answers as the endpoint does: 429, and when to come back.
    if (refusal.status === 429) {
      const wait = Number(refusal.details?.retryAfterSeconds);
      return data(lookup, { status: 429, headers: { ...PER_REQUEST.headers, ...(wait > 0 ? { 'Retry-After': String(Math.ceil(wait)) } : {}) } });
    }
  }
  return data(lookup, PER_REQUEST);
}

// Woken at the first touch: a number in the address was looked up by the server.
const TrackViewIsland = island('Track', TrackView, { wake: 'touched' });

/** The page is static around its one island, which holds all of it that changes. */
export default function TrackPage() {
  const lookup = useLoaderData<typeof loader>();
  return <TrackViewIsland {...(lookup ? { initial: lookup } : {})} />;
}

export const islands = true;
/** What its islands read besides `common`: the rest of the page's text is in its HTML. */
export const islandNs = ['tracking'];

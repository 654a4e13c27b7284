import type { ClientResponse } from 'hono/client';
import type { LoaderFunctionArgs } from 'react-router';
import { api, apiClient, type Answer } from './api';

type LoaderContext = { fetch?: (path: string, init?: RequestInit) => Promise<Response> } | undefined;

/**
 * The typed API client inside a route loader: answered in process on the server (through the
 * render context's fetch), over HTTP in the browser.
 */
export function loaderApi(args: Pick<LoaderFunctionArgs, 'context'>): typeof api {
  const ctx = args.context as LoaderContext;
  return ctx?.fetch ? apiClient(ctx.fetch) : api;
}

/**
 * A public read inside a route loader, through `loaderApi`: its body, null for 404; other
 * failures throw to the error page.
 *
 *   const post = await contentGet(loaderApi(args).content.blog[':slug'].$get({ param: { slug }, query: { lang } }));
 */
export async function contentGet<R extends ClientResponse<unknown, number, string>>(sent: Promise<R>): Promise<Answer<R> | null> {
  const res = await sent;
  if (res.status === 404) return null;
  if (!res.ok) throw new Response(null, { status: res.status, statusText: res.statusText });
  return (await res.json()) as Answer<R>;
}

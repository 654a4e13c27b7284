import type { LoaderFunctionArgs } from 'react-router';

/**
 * A public API request inside a route loader: answered in process on the server (through the
 * render context), over HTTP in the browser. Null for 404; other failures throw to the error page.
 */
export async function contentGet<T>(args: Pick<LoaderFunctionArgs, 'context'>, path: string): Promise<T | null> {
  const ctx = args.context as { fetch?: (path: string, init?: RequestInit) => Promise<Response> } | undefined;
  // In process the answer must not be compressed: the page's Accept-Encoding is forwarded otherwise.
  const res = ctx?.fetch
    ? await ctx.fetch(path, { headers: { accept: 'application/json', 'accept-encoding': 'identity' } })
    : await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (res.status === 404) return null;
  if (!res.ok) throw new Response(null, { status: res.status, statusText: res.statusText });
  return (await res.json()) as T;
}

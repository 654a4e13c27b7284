import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { Me } from './api';

/** The signed-in user inside a route loader: in process on the server, over HTTP in the browser. */
export async function loadMe(args: Pick<LoaderFunctionArgs, 'context'>): Promise<Me | null> {
  const ctx = args.context as { fetch?: (path: string, init?: RequestInit) => Promise<Response> } | undefined;
  // In process the answer must not be compressed: the page's Accept-Encoding is forwarded otherwise.
  const res = ctx?.fetch
    ? await ctx.fetch('/api/me', { headers: { 'accept-encoding': 'identity' } })
    : await fetch('/api/me', { credentials: 'same-origin' });
  if (!res.ok) return null;
  return ((await res.json()) as { user: Me | null }).user;
}

/** A protected page's loader: signed-out visitors go to the home page with the sign-in dialog. */
export async function requireMe(args: Pick<LoaderFunctionArgs, 'context'>, lang: string): Promise<Me> {
  const me = await loadMe(args);
  if (!me) throw redirect(`/${lang}?auth=required`);
  return me;
}

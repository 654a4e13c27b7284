import { redirect, type LoaderFunctionArgs } from 'react-router';
import { loaderApi } from '../../lib/loaderFetch';
import type { Me } from './api';

/** The signed-in user inside a route loader: in process on the server, over HTTP in the browser. */
export async function loadMe(args: Pick<LoaderFunctionArgs, 'context'>): Promise<Me | null> {
  const res = await loaderApi(args).me.$get();
  if (!res.ok) return null;
  return (await res.json()).user;
}

/** A protected page's loader: signed-out visitors go to the home page with the sign-in dialog. */
export async function requireMe(args: Pick<LoaderFunctionArgs, 'context'>, lang: string): Promise<Me> {
  const me = await loadMe(args);
  if (!me) throw redirect(`/${lang}?auth=required`);
  return me;
}

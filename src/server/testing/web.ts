import { Window } from 'happy-dom';
import type { Hono } from 'hono';
import { render } from '../../web/entry-server';
import { pageResponse, pageTemplates, type WebRenderer } from '../web/renderer';

/** The page template's slots without the built assets: enough to read what a page renders. */
const TEMPLATES = pageTemplates(
  '<!doctype html><html lang="<!--lang-->"><head><!--head--><script type="module" src="/entry-client.tsx"></script></head><body><div id="root"><!--app--></div><!--data--></body></html>',
  '/entry-islands.tsx',
);

/**
 * Server rendering straight from the web app's source (no `npm run build`): the same render
 * function the built server entry exports, for tests that read a page's HTML.
 */
export const sourceRenderer = (): WebRenderer => ({
  render: async (request, ctx) => pageResponse(await render(request, ctx), TEMPLATES, undefined, request),
});

let asked = 0;
/** A page as the app renders it, read as a document; a query string of its own each time, so no kept copy answers. */
export async function renderedPage(app: Hono, path: string, cookie?: string): Promise<Document> {
  const res = await app.request(`${path}${path.includes('?') ? '&' : '?'}n=${++asked}`, { headers: cookie ? { cookie } : {} });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  const window = new Window();
  return new window.DOMParser().parseFromString(await res.text(), 'text/html') as unknown as Document;
}

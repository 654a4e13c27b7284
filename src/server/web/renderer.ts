import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';
import type { RenderResult, ServerRenderContext } from '../../web/entry-server';

/** Renders a page request into a full HTML response (or a redirect) using the web app's server entry. */
export interface WebRenderer {
  render(request: Request, ctx: ServerRenderContext): Promise<Response>;
}

type RenderFn = (request: Request, ctx: ServerRenderContext) => Promise<RenderResult>;

function toResponse(result: RenderResult, template: string): Response {
  if (result.type === 'redirect') return new Response(null, { status: result.status, headers: { Location: result.location } });
  if (result.type === 'response') return result.response;
  const html = template
    .replace('<!--lang-->', result.lang)
    .replace('<!--head-->', result.head)
    .replace('<!--app-->', result.body)
    .replace('<!--data-->', result.data);
  return new Response(html, {
    status: result.status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}

/** Production: the built client template and the built server entry from `dist/`. */
export async function createBuiltRenderer(distDir = resolve('dist')): Promise<WebRenderer> {
  const template = await readFile(resolve(distDir, 'client/index.html'), 'utf8');
  const entry = (await import(pathToFileURL(resolve(distDir, 'server/entry-server.js')).href)) as { render: RenderFn };
  return { render: async (request, ctx) => toResponse(await entry.render(request, ctx), template) };
}

/** Development: Vite transforms the template and loads the server entry with hot reload. */
export function createDevRenderer(vite: ViteDevServer): WebRenderer {
  return {
    async render(request, ctx) {
      const url = new URL(request.url);
      const raw = await readFile(resolve('src/web/index.html'), 'utf8');
      const template = await vite.transformIndexHtml(url.pathname, raw);
      const entry = (await vite.ssrLoadModule('/entry-server.tsx')) as { render: RenderFn };
      return toResponse(await entry.render(request, ctx), template);
    },
  };
}

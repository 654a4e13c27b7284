import { render } from '../../web/entry-server';
import { compileTemplate, pageResponse, type WebRenderer } from '../web/renderer';

/** The page template's slots without the built assets: enough to read what a page renders. */
const TEMPLATE = compileTemplate('<!doctype html><html lang="<!--lang-->"><head><!--head--></head><body><div id="root"><!--app--></div><!--data--></body></html>');

/**
 * Server rendering straight from the web app's source (no `npm run build`): the same render
 * function the built server entry exports, for tests that read a page's HTML.
 */
export const sourceRenderer = (): WebRenderer => ({
  render: async (request, ctx) => pageResponse(await render(request, ctx), TEMPLATE),
});

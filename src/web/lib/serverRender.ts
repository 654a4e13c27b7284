/**
 * What the server renderer and the page loaders share, apart from the renderer itself (so a
 * loader can name its server context without importing the entry that imports every page).
 */

/** What loaders receive as `context` on the server: the API answered in-process. */
export interface ServerRenderContext {
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  publicUrl: string;
  /**
   * Rendered once for many visitors (a shell customers share: server/web/personalPages.ts), not
   * for one request: a loader asks nothing the API counts per visitor, and marks the page as
   * rendered per request instead (`perRequest`).
   */
  shared?: boolean;
}

export type RenderResult =
  | { type: 'redirect'; status: number; location: string }
  | { type: 'response'; response: Response }
  | {
      type: 'html';
      status: number;
      lang: string;
      head: string;
      body: string;
      data: string;
      /** Ids of the matched routes; page routes have their module path as id (app/routes.tsx). */
      routeIds: string[];
      /** Rendered for a signed-in visitor: the page must not be stored by shared caches. */
      personal: boolean;
      /** A page whose islands alone hydrate (entry-islands.tsx), not the app (entry-client.tsx). */
      islands: boolean;
      /**
       * On such a page, whether an island wakes by itself after load (islands/attrs.ts
       * `wakesByItself`): the page then carries what its islands need at once — their text and the
       * whole stylesheet — rather than leaving them to the first touch (docs/decisions/0030).
       */
      wakesAtLoad?: boolean;
      /** The islands that wake by themselves (their names, islands/registry.ts): their scripts are named in the page (docs/decisions/0038). */
      wakingIslands?: string[];
      /** A page of islands styled by the app's stylesheet (app/page.ts `stylesheet`). */
      appStylesheet?: boolean;
      /** A page whose render reads the visitor's own data beyond who they are (app/page.ts). */
      perVisitor: boolean;
      /**
       * A page a loader answered with `Cache-Control: no-store` (what it shows is asked afresh for
       * each request, counted per visitor: the order lookup): never kept, nor cut into a shell.
       */
      perRequest: boolean;
      /** A loader's `Retry-After` (the order lookup past its limit answers 429 with it). */
      retryAfter?: string;
      /**
       * The HTML of the page's later states, written where `body` holds app/streamed.tsx's
       * `STREAM_POINT`, each as it comes (app/page.ts `PageStream`, docs/decisions/0035).
       */
      stream?: () => AsyncIterable<string>;
    };

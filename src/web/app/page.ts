import type { I18n, TFunction } from '../i18n';
import type { ComponentType, ReactNode } from 'react';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { isLanguage, type Language } from '../../core/i18n';
import { loadNamespaces } from '../i18n';
import { preferredLanguage } from '../lib/language';
import type { SiteSettings } from './site';

/**
 * An answer of the API a page of islands sends with itself, so that its islands render with it at
 * once and do not ask for it (docs/decisions/0033): what a page's server loader returns as
 * `answers`. The server's render reads it from the query cache under `queryKey`; the islands, from
 * the boot data under `answerKey(queryKey)`, the key islands/answers.ts keeps it by.
 */
export interface PageAnswer {
  queryKey: readonly (string | number)[];
  data: unknown;
  /** The answer's ETag, when the API gave one: the islands ask again with it, and a 304 keeps what they have. */
  etag?: string;
}
/** The key of an answer a page of islands holds (islands/answers.ts): its query key, words joined by colons. */
export const answerKey = (queryKey: PageAnswer['queryKey']) => queryKey.join(':');
/** The answers in a page loader's data (`{ answers: PageAnswer[] }`), if any. */
export const pageAnswers = (data: unknown): PageAnswer[] =>
  data && typeof data === 'object' && Array.isArray((data as { answers?: unknown }).answers) ? (data as { answers: PageAnswer[] }).answers : [];

/** What a page module exports: its component, and optionally data, text namespaces and meta. */
export interface PageModule {
  default: ComponentType;
  loader?: (args: LoaderFunctionArgs) => unknown;
  ns?: readonly string[];
  meta?: PageMeta;
  /** HTTP status the server answers with when this page is the deepest match (e.g. 404). */
  status?: number;
  /**
   * A page that is static apart from its islands (islands/island.tsx): the browser hydrates only
   * those, without the router or the page's own code. Pages without it are parts of the app.
   */
  islands?: boolean;
  /**
   * The text namespaces the page's islands read, besides `common` (which every island may). Only
   * these travel in the boot data of a page of islands: the rest of the page's text is already in
   * its HTML and is not sent twice.
   */
  islandNs?: readonly string[];
  /**
   * A page of islands styled by the app's stylesheet, whole in the page as on the app's pages,
   * rather than by the public pages' (web/styles.public.css): the dashboard, whose tabs and
   * dialogs would otherwise grow every public page's stylesheet (docs/decisions/0032).
   */
  stylesheet?: 'app';
  /**
   * The page's server render reads more of the signed-in visitor's own data than who they are
   * (their own prices, say): it is rendered for each of their requests, never cut from the shell
   * that customers share (server/web/personalPages.ts).
   */
  perVisitor?: boolean;
  /**
   * What the page shows after its first render, which the server streams into the same answer
   * (./streamed.tsx, docs/decisions/0035): the payment return page's later checks.
   */
  stream?: PageStream;
}

/** What a page's stream is given on the server: the address, the language and text, the visitor, and the API in process. */
export interface PageStreamArgs {
  url: URL;
  lang: Language;
  t: TFunction;
  signedIn: boolean;
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
}
/**
 * A page's later states, each replacing the one before where the page rendered `<StreamedSteps>`
 * (./streamed.tsx). Runs on the server once the page's first part is sent; ends with the page.
 */
export type PageStream = (args: PageStreamArgs) => AsyncIterable<ReactNode>;
/**
 * A page's title and description. `site` holds the site settings (name, description, contacts):
 * titles end with the site name, and a page without a description of its own gets the site's.
 */
export type PageMeta = (args: { t: TFunction; lang: Language; data: unknown; site: SiteSettings }) => { title: string; description?: string };

export interface PageHandle {
  ns: readonly string[];
  meta?: PageMeta;
  status?: number;
  islands?: boolean;
  islandNs?: readonly string[];
  stylesheet?: 'app';
  perVisitor?: boolean;
  stream?: PageStream;
}

let clientI18n: I18n | null = null;
/** The browser's single i18n instance; set once by entry-client. */
export function setClientI18n(instance: I18n): void {
  clientI18n = instance;
}

export function routeLanguage(params: Record<string, string | undefined>, request?: Request): Language {
  return isLanguage(params.lang) ? params.lang : preferredLanguage(request);
}

/**
 * A lazily loaded page route. Before the page renders in the browser its text namespaces are
 * loaded and the language is switched; on the server, entry-server loads them for all matches.
 */
export function page(load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const mod = await load();
      const handle: PageHandle = { ns: mod.ns ?? [], meta: mod.meta, status: mod.status, islands: mod.islands, islandNs: mod.islandNs, stylesheet: mod.stylesheet, perVisitor: mod.perVisitor, stream: mod.stream };
      return {
        Component: mod.default,
        handle,
        loader: async (args: LoaderFunctionArgs) => {
          if (!import.meta.env.SSR && clientI18n) {
            const lang = routeLanguage(args.params, args.request);
            await loadNamespaces(clientI18n, lang, ['common', ...handle.ns]);
            if (clientI18n.language !== lang) await clientI18n.changeLanguage(lang);
          }
          return mod.loader ? mod.loader(args) : null;
        },
      };
    },
  };
}

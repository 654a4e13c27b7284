import { createContext, useContext } from 'react';
import { UNSAFE_DataRouterStateContext, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { PublicSettings } from '../../core/settings';
import { DEFAULT_SETTINGS, PUBLIC_SETTING_KEYS } from '../../core/settingsDefaults';
import { contentGet, loaderApi } from '../lib/loaderFetch';

/**
 * The site settings a visitor sees (name, description, contact e-mail and phone, fees): loaded
 * once by the root route, on the server for the first page and over `GET /api/settings` in the
 * browser when revalidated; every page and the document head read them from there.
 */
export type SiteSettings = PublicSettings;

export const DEFAULT_SITE: SiteSettings = Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, DEFAULT_SETTINGS[k]])) as SiteSettings;

/** The root route's loader. Settings that cannot be read leave the stored defaults in place. */
export async function siteLoader(args: Pick<LoaderFunctionArgs, 'context'>): Promise<SiteSettings> {
  try {
    return { ...DEFAULT_SITE, ...(await contentGet(loaderApi(args).settings.$get())) };
  } catch (err) {
    console.warn('settings not loaded', err);
    return DEFAULT_SITE;
  }
}

/** Settings change rarely: read again on an explicit revalidation (same address), not on every navigation. */
export const siteShouldRevalidate = ({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
  currentUrl.href === nextUrl.href ? defaultShouldRevalidate : false;

export const SITE_ROUTE_ID = 'root';

/** The settings an island was rendered with, where there is no router to hold them (entry-islands). */
export const SiteContext = createContext<SiteSettings | null>(null);

export function useSite(): SiteSettings {
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const islandSite = useContext(SiteContext);
  return (routerState?.loaderData[SITE_ROUTE_ID] as SiteSettings | undefined) ?? islandSite ?? DEFAULT_SITE;
}

/** A phone number as a `tel:` link: digits and a leading plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;


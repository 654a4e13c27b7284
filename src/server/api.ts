import type { Hono } from 'hono';
import type { AppDeps } from './app';
import { catalogRoutes } from './catalog/routes';

/**
 * Every feature's API router is mounted here, under `/api`. Keep it a flat list: one line per
 * feature, in the order a reader would look for them.
 */
export function mountApi(api: Hono, deps: AppDeps): void {
  api.get('/ping', (c) => c.json({ ok: true }));
  api.route('/catalog', catalogRoutes(deps));
}

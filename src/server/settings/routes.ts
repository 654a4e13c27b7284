import { Hono } from 'hono';
import { PUBLIC_SETTING_KEYS, type PublicSettings } from '../../core/settings';
import type { AppDeps } from '../deps';
import { getSettings } from './service';

/** `GET /api/settings`: the public subset of the site settings, for everyone. Mount at `/settings`. */
export function publicSettingsRoutes(deps: AppDeps) {
  return new Hono().get('/', async (c) => {
    const all = await getSettings(deps.database.db);
    const out = Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, all[k]])) as PublicSettings;
    c.header('Cache-Control', 'no-cache');
    return c.json(out);
  });
}

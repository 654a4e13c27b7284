import { Hono } from 'hono';
import { settingsInputSchema } from '../../core/contracts/admin';
import type { AppDeps } from '../deps';
import { countUsers, staffActor } from '../auth';
import { orderCounts } from '../orders';
import { topUpsAllTime } from '../analytics';
import { changeSettings, getSettings, settingsChanged } from '../settings';
import { countOpenTickets } from '../support';
import { jsonBody } from '../http/body';
import { audit } from './audit';

/** Site settings: all of them for admins (audited); the public subset is settings/routes.ts. */
export function adminSettingsRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/', async (c) => c.json(await getSettings(db)))

    .put('/', jsonBody(settingsInputSchema), async (c) => {
      const actor = staffActor(c);
      const changes = c.req.valid('json');
      const before = await getSettings(db);
      await db.transaction(async (tx) => {
        const diff = await changeSettings(tx, before, changes);
        await audit(tx, actor, 'settings.update', { type: 'settings' }, diff);
      });
      await settingsChanged(db);
      // Every open page merges the new values (docs/rules.md#settings).
      await deps.realtime?.publish('*', { type: 'settings' }).catch(() => {});
      return c.json(await getSettings(db));
    })

    .get('/stats', async (c) => {
      const [users, orders, topUps, openTickets] = await Promise.all([countUsers(db), orderCounts(db), topUpsAllTime(db), countOpenTickets(db)]);
      return c.json({ users, orders: orders.total, topUpsQepik: topUps.topUpsQepik, openTickets });
    });
}

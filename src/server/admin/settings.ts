import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { settingsInputSchema } from '../../core/contracts/admin';
import type { AppDeps } from '../deps';
import { requireAdmin } from '../auth';
import { orders, payments, users } from '../db/schema';
import { changeSettings, getSettings } from '../settings';
import { jsonBody } from '../http/body';
import { audit } from './audit';

/** Site settings: all of them for admins (audited); the public subset is settings/routes.ts. */
export function adminSettingsRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/', async (c) => c.json(await getSettings(db)))

    .put('/', jsonBody(settingsInputSchema), async (c) => {
      const actor = await requireAdmin(c);
      const changes = c.req.valid('json');
      const before = await getSettings(db);
      await db.transaction(async (tx) => {
        const diff = await changeSettings(tx, before, changes);
        await audit(tx, actor, 'settings.update', { type: 'settings' }, diff);
      });
      // Every open page merges the new values (docs/rules.md#settings).
      await deps.realtime?.publish('*', { type: 'settings' }).catch(() => {});
      return c.json(await getSettings(db));
    })

    .get('/stats', async (c) => {
      const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      const [o] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
      const [r] = await db
        .select({ q: sql<string>`coalesce(sum(${payments.amountQepik}), 0)::text` })
        .from(payments)
        .where(sql`${payments.status} = 'completed'`);
      const open = await db.execute<{ n: number }>(sql`select count(*)::int as n from support_tickets where status in ('open', 'in_progress')`).catch(() => null);
      const openRows = open ? ((Array.isArray(open) ? open : (open as { rows: { n: number }[] }).rows) as { n: number }[]) : [];
      return c.json({ users: u?.n ?? 0, orders: o?.n ?? 0, revenueQepik: Number(r?.q ?? 0), openTickets: openRows[0]?.n ?? 0 });
    });
}

import { desc, ilike, inArray, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { adminUsersQuerySchema, balanceAdjustmentSchema, roleInputSchema, userIdParamsSchema, userRoleParamsSchema } from '../../core/contracts/admin';
import { apiAccessInputSchema } from '../../core/contracts/reseller';
import type { AppDeps } from '../deps';
import { addRole, assertUserExists, removeRole, requireAdmin } from '../auth';
import { apiAccessBlocks, userRoles, users } from '../db/schema';
import { setApiAccess } from '../reseller';
import { jsonBody, param, query } from '../http/body';
import { adjustBalance } from '../wallet';
import { audit } from './audit';

/** Users and roles (docs/rules.md#admin), and balance adjustments through the ledger. */
export function adminUsersRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return (
    new Hono()
      .get('/', query(adminUsersQuerySchema), async (c) => {
        const { q } = c.req.valid('query');
        const pattern = `%${q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
        const rows = await db
          .select({ id: users.id, name: users.name, email: users.email, balanceCents: users.balanceCents, createdAt: users.createdAt })
          .from(users)
          .where(q ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
          .orderBy(desc(users.createdAt))
          .limit(200);
        const roles = rows.length
          ? await db.select().from(userRoles).where(inArray(userRoles.userId, rows.map((r) => r.id)))
          : [];
        const blocked = rows.length
          ? new Set((await db.select({ userId: apiAccessBlocks.userId }).from(apiAccessBlocks).where(inArray(apiAccessBlocks.userId, rows.map((r) => r.id)))).map((b) => b.userId))
          : new Set<string>();
        const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
        return c.json({
          total: count?.n ?? 0,
          users: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), roles: roles.filter((x) => x.userId === r.id).map((x) => x.role).sort(), apiAccess: !blocked.has(r.id) })),
        });
      })

      .post('/:id/roles', param(userIdParamsSchema), jsonBody(roleInputSchema), async (c) => {
        const actor = await requireAdmin(c);
        const { role } = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        await db.transaction(async (tx) => {
          await addRole(tx, userId, role);
          await audit(tx, actor, 'role.add', { type: 'user', id: userId }, { role });
        });
        return c.json({ ok: true as const }, 201);
      })

      .delete('/:id/roles/:role', param(userRoleParamsSchema), async (c) => {
        const actor = await requireAdmin(c);
        const { id: userId, role } = c.req.valid('param');
        await db.transaction(async (tx) => {
          await removeRole(tx, userId, role);
          await audit(tx, actor, 'role.remove', { type: 'user', id: userId }, { role });
        });
        return c.body(null, 204);
      })

      .post('/:id/balance', param(userIdParamsSchema), jsonBody(balanceAdjustmentSchema), async (c) => {
        const actor = await requireAdmin(c);
        const input = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        const balance = await db.transaction(async (tx) => {
          const after = await adjustBalance(tx, { userId, ...input });
          await audit(tx, actor, 'balance.adjust', { type: 'user', id: userId }, { amountCents: input.amountCents, reason: input.reason });
          return after;
        });
        await deps.realtime?.publish(userId, { type: 'balance', balanceCents: balance, deltaCents: input.amountCents }).catch(() => {});
        return c.json({ balanceCents: balance });
      })

      // Reseller API access: off refuses every key of the customer at once (the keys stay).
      .put('/:id/api-access', param(userIdParamsSchema), jsonBody(apiAccessInputSchema), async (c) => {
        const actor = await requireAdmin(c);
        const { enabled } = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        await db.transaction(async (tx) => {
          await assertUserExists(tx, userId);
          if (await setApiAccess(tx, userId, enabled, actor.id)) await audit(tx, actor, enabled ? 'api.enable' : 'api.disable', { type: 'user', id: userId });
        });
        return c.json({ apiAccess: enabled });
      })
  );
}

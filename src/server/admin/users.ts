import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { balanceAdjustmentSchema, roleInputSchema, roleSchema } from '../../core/contracts/admin';
import { apiAccessInputSchema } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireAdmin } from '../auth';
import { apiAccessBlocks, userRoles, users, type Role } from '../db/schema';
import { setApiAccess } from '../reseller';
import { readJson } from '../http/body';
import { credit, debit } from '../wallet';
import { audit } from './audit';

/** Users and roles (docs/rules.md#admin), and balance adjustments through the ledger. */
export function adminUsersRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;

  app.get('/', async (c) => {
    const q = (c.req.query('q') ?? '').trim().slice(0, 200);
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
  });

  app.post('/:id/roles', async (c) => {
    const actor = await requireAdmin(c);
    const { role } = roleInputSchema.parse(await readJson(c));
    const userId = c.req.param('id');
    await db.transaction(async (tx) => {
      const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!u) throw new AppError('NOT_FOUND', 'User not found.');
      const added = await tx.insert(userRoles).values({ userId, role }).onConflictDoNothing().returning();
      if (!added.length) throw new AppError('ROLE_EXISTS', 'The user already has this role.');
      await audit(tx, actor, 'role.add', { type: 'user', id: userId }, { role });
    });
    return c.json({ ok: true }, 201);
  });

  app.delete('/:id/roles/:role', async (c) => {
    const actor = await requireAdmin(c);
    const role = roleSchema.parse(c.req.param('role')) as Role;
    const userId = c.req.param('id');
    await db.transaction(async (tx) => {
      if (role === 'admin') {
        // Serialize admin removals so two admins cannot remove each other at once.
        await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
        const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(userRoles).where(eq(userRoles.role, 'admin'));
        const [has] = await tx.select().from(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, 'admin')));
        if (has && (n?.n ?? 0) <= 1) throw new AppError('LAST_ADMIN', 'The last admin cannot lose the admin role.');
      }
      const removed = await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, role))).returning();
      if (!removed.length) throw new AppError('NOT_FOUND', 'The user does not have this role.');
      await audit(tx, actor, 'role.remove', { type: 'user', id: userId }, { role });
    });
    return c.body(null, 204);
  });

  app.post('/:id/balance', async (c) => {
    const actor = await requireAdmin(c);
    const input = balanceAdjustmentSchema.parse(await readJson(c));
    const userId = c.req.param('id');
    const balance = await db.transaction(async (tx) => {
      const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!u) throw new AppError('NOT_FOUND', 'User not found.');
      const move = { userId, amountCents: Math.abs(input.amountCents), kind: 'admin_adjustment' as const, reference: `adj-${randomUUID()}`, note: input.reason };
      const after = input.amountCents > 0 ? await credit(tx, move) : await debit(tx, move);
      await audit(tx, actor, 'balance.adjust', { type: 'user', id: userId }, { amountCents: input.amountCents, reason: input.reason });
      return after!;
    });
    await deps.realtime?.publish(userId, { type: 'balance', balanceCents: balance, deltaCents: input.amountCents }).catch(() => {});
    return c.json({ balanceCents: balance });
  });

  // Reseller API access: off refuses every key of the customer at once (the keys stay).
  app.put('/:id/api-access', async (c) => {
    const actor = await requireAdmin(c);
    const { enabled } = apiAccessInputSchema.parse(await readJson(c));
    const userId = c.req.param('id');
    await db.transaction(async (tx) => {
      const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!u) throw new AppError('NOT_FOUND', 'User not found.');
      if (await setApiAccess(tx, userId, enabled, actor.id)) await audit(tx, actor, enabled ? 'api.enable' : 'api.disable', { type: 'user', id: userId });
    });
    return c.json({ apiAccess: enabled });
  });

  return app;
}

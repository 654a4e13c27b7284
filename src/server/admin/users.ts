import { Hono } from 'hono';
import { adminUsersQuerySchema, balanceAdjustmentSchema, roleInputSchema, userIdParamsSchema, userRoleParamsSchema } from '../../core/contracts/admin';
import { apiAccessInputSchema } from '../../core/contracts/reseller';
import type { AppDeps } from '../deps';
import { addRole, assertUserExists, recentSignIns, removeRole, searchUsers, staffActor, twoFactorEnabledAmong } from '../auth';
import { apiAccessBlockedAmong, setApiAccess } from '../reseller';
import { pricingAmong } from '../discounts';
import { jsonBody, param, query } from '../http/body';
import { adjustBalance } from '../wallet';
import { audit } from './audit';

/** Users and roles (docs/rules.md#admin), and balance adjustments through the ledger. */
export function adminUsersRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return (
    new Hono()
      .get('/', query(adminUsersQuerySchema), async (c) => {
        const { total, users } = await searchUsers(db, c.req.valid('query').q);
        const ids = users.map((u) => u.id);
        const [blocked, pricing, secondFactor] = await Promise.all([apiAccessBlockedAmong(db, ids), pricingAmong(db, ids), twoFactorEnabledAmong(db, ids)]);
        return c.json({
          total,
          users: users.map((u) => ({
            ...u,
            apiAccess: !blocked.has(u.id),
            pricing: pricing.get(u.id) ?? { discountPercent: null, groupId: null },
            twoFactorEnabled: secondFactor.has(u.id),
          })),
        });
      })

      // The user's recent sign-ins: when, from where, on which device (docs/rules.md#second-factor).
      .get('/:id/sign-ins', param(userIdParamsSchema), async (c) => {
        const { id: userId } = c.req.valid('param');
        await assertUserExists(db, userId);
        const [signIns, secondFactor] = await Promise.all([recentSignIns(db, userId), twoFactorEnabledAmong(db, [userId])]);
        return c.json({ twoFactorEnabled: secondFactor.has(userId), signIns });
      })

      .post('/:id/roles', param(userIdParamsSchema), jsonBody(roleInputSchema), async (c) => {
        const actor = staffActor(c);
        const { role } = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        await db.transaction(async (tx) => {
          await addRole(tx, userId, role);
          await audit(tx, actor, 'role.add', { type: 'user', id: userId }, { role });
        });
        return c.json({ ok: true as const }, 201);
      })

      .delete('/:id/roles/:role', param(userRoleParamsSchema), async (c) => {
        const actor = staffActor(c);
        const { id: userId, role } = c.req.valid('param');
        await db.transaction(async (tx) => {
          await removeRole(tx, userId, role);
          await audit(tx, actor, 'role.remove', { type: 'user', id: userId }, { role });
        });
        return c.body(null, 204);
      })

      .post('/:id/balance', param(userIdParamsSchema), jsonBody(balanceAdjustmentSchema), async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        const balance = await db.transaction(async (tx) => {
          const after = await adjustBalance(tx, { userId, ...input });
          await audit(tx, actor, 'balance.adjust', { type: 'user', id: userId }, { amountMicros: input.amountMicros, reason: input.reason });
          return after;
        });
        await deps.realtime?.publish(userId, { type: 'balance', balanceMicros: balance, deltaMicros: input.amountMicros }).catch(() => {});
        return c.json({ balanceMicros: balance });
      })

      // Reseller API access: off refuses every key of the customer at once (the keys stay).
      .put('/:id/api-access', param(userIdParamsSchema), jsonBody(apiAccessInputSchema), async (c) => {
        const actor = staffActor(c);
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

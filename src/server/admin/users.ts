import { Hono } from 'hono';
import { adminUsersQuerySchema, balanceAdjustmentSchema, roleInputSchema, secondFactorResetSchema, userIdParamsSchema, userRoleParamsSchema } from '../../core/contracts/admin';
import { apiAccessInputSchema } from '../../core/contracts/reseller';
import type { AppDeps } from '../deps';
import { accounts, addRole, assertUserExists, languageOfAccount, recentSignIns, removeRole, removeSecondFactor, searchUsers, staffActor, twoFactorEnabledAmong } from '../auth';
import { announceKeyChange, apiAccessBlockedAmong, setApiAccess } from '../reseller';
import { pricingAmong } from '../discounts';
import { jsonBody, param, query } from '../http/body';
import { secondFactorRemovedMail } from '../mail';
import { getSettings } from '../settings';
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

      // A lost second factor removed by the team (docs/rules.md#second-factor): the account is
      // signed out everywhere and told by mail; the reason stays in the audit log.
      .post('/:id/second-factor/reset', param(userIdParamsSchema), jsonBody(secondFactorResetSchema), async (c) => {
        const actor = staffActor(c);
        const { reason } = c.req.valid('json');
        const { id: userId } = c.req.valid('param');
        const user = await db.transaction(async (tx) => {
          const removed = await removeSecondFactor(tx, { actorId: actor.id, userId });
          await audit(tx, actor, 'two_factor.reset', { type: 'user', id: userId }, { reason });
          return removed;
        });
        // The factor is gone whatever happens to the mail; a refused mail is logged and said.
        let mailSent = true;
        try {
          const [lang, settings] = await Promise.all([languageOfAccount(db, userId), getSettings(db)]);
          const link = `${deps.publicUrl.replace(/\/$/, '')}/${lang}/dashboard#settings`;
          await accounts(deps).mailer.send(secondFactorRemovedMail({ to: user.email, name: user.name, link, lang, siteName: settings.site_name }));
        } catch (err) {
          mailSent = false;
          deps.logger.warn({ err, userId }, 'second factor removed: mail not sent');
        }
        return c.json({ ok: true as const, mailSent });
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
        // Every instance looks the customer's keys up again: turned off, they are refused from the next call.
        await announceKeyChange(db, userId);
        return c.json({ apiAccess: enabled });
      })
  );
}

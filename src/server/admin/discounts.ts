import { Hono } from 'hono';
import { userIdParamsSchema } from '../../core/contracts/admin';
import { customerGroupInputSchema, customerGroupParamsSchema, customerPricingInputSchema } from '../../core/contracts/discounts';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { announceDiscountChange, createGroup, customersOfGroup, deleteGroup, listGroups, setCustomerPricing, updateGroup } from '../discounts';
import { jsonBody, param } from '../http/body';
import { audit } from './audit';

/**
 * Customer groups and each customer's discount (docs/rules.md#discounts): listed for the team,
 * changed by admins, every change audited (`group.create`, `group.update`, `group.delete`,
 * `user.discount`). Mounted at the admin API's root: `/customer-groups…` and `/users/:id/pricing`.
 */
export function adminDiscountRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const groupParam = param(customerGroupParamsSchema);
  /** After the change is committed: the customers' open pages read their prices again. */
  const tell = async (userIds: string[]) => {
    for (const userId of userIds) await deps.realtime?.publish(userId, { type: 'pricing' }).catch(() => {});
  };

  return new Hono()
    .get('/customer-groups', async (c) => c.json({ groups: await listGroups(db) }))

    .post('/customer-groups', jsonBody(customerGroupInputSchema), async (c) => {
      const actor = staffActor(c);
      const input = c.req.valid('json');
      const group = await db.transaction(async (tx) => {
        const created = await createGroup(tx, input);
        await audit(tx, actor, 'group.create', { type: 'customer_group', id: created.id }, { name: created.name, discountPercent: created.discountPercent });
        return created;
      });
      return c.json(group, 201);
    })

    .put('/customer-groups/:id', groupParam, jsonBody(customerGroupInputSchema), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const { group, members } = await db.transaction(async (tx) => {
        const { before, after } = await updateGroup(tx, id, input);
        const changes: Record<string, { from: string; to: string }> = {};
        if (before.name !== after.name) changes.name = { from: before.name, to: after.name };
        if (before.discountPercent !== after.discountPercent) changes.discountPercent = { from: before.discountPercent, to: after.discountPercent };
        await audit(tx, actor, 'group.update', { type: 'customer_group', id }, { name: after.name, changes });
        return { group: after, members: changes.discountPercent ? await customersOfGroup(tx, id) : [] };
      });
      // Every instance prices with the group's new discount (its name is shown too) from the next order on.
      await announceDiscountChange(db);
      await tell(members);
      return c.json(group);
    })

    .delete('/customer-groups/:id', groupParam, async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const members = await db.transaction(async (tx) => {
        const were = await customersOfGroup(tx, id);
        const gone = await deleteGroup(tx, id);
        await audit(tx, actor, 'group.delete', { type: 'customer_group', id }, { name: gone.name, discountPercent: gone.discountPercent, customers: gone.customers });
        return were;
      });
      await announceDiscountChange(db);
      await tell(members);
      return c.body(null, 204);
    })

    .put('/users/:id/pricing', param(userIdParamsSchema), jsonBody(customerPricingInputSchema), async (c) => {
      const actor = staffActor(c);
      const { id: userId } = c.req.valid('param');
      const input = c.req.valid('json');
      const after = await db.transaction(async (tx) => {
        const change = await setCustomerPricing(tx, userId, input);
        await audit(tx, actor, 'user.discount', { type: 'user', id: userId }, { from: change.before, to: change.after });
        return change.after;
      });
      await announceDiscountChange(db, [userId]);
      await tell([userId]);
      return c.json(after);
    });
}

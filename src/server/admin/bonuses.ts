import { Hono } from 'hono';
import { z } from 'zod';
import { bonusRuleInputSchema, couponInputSchema } from '../../core/contracts/bonuses';
import { AppError } from '../../core/errors';
import { staffActor } from '../auth';
import type { AppDeps } from '../deps';
import { jsonBody, param } from '../http/body';
import { createBonusRule, createCoupon, staffBonuses, updateBonusRule, updateCoupon } from '../payments';
import { audit, changedFields } from './audit';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

const RULE_FIELDS = ['name', 'method', 'minMicros', 'percentBp', 'capMicros', 'startsAt', 'endsAt', 'enabled'] as const;
const COUPON_FIELDS = ['code', 'kind', 'amountMicros', 'percentBp', 'capMicros', 'minTopUpMicros', 'perCustomer', 'totalUses', 'expiresAt', 'enabled'] as const;

/**
 * Deposit bonus rules and coupons (docs/rules.md#bonuses): read by whoever reads payments, added and
 * changed by whoever sets prices, every change audited. Open top-up dialogs read the rules again.
 */
export function adminBonusRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const notFound = () => new AppError('NOT_FOUND', 'Not found.');
  const tell = () => deps.realtime?.publish('*', { type: 'settings' }).catch(() => {});

  return new Hono()
    .get('/', async (c) => c.json(await staffBonuses(db)))

    .post('/rules', jsonBody(bonusRuleInputSchema), async (c) => {
      const actor = staffActor(c);
      const input = c.req.valid('json');
      await db.transaction(async (tx) => {
        const rule = await createBonusRule(tx, input);
        await audit(tx, actor, 'bonus_rule.create', { type: 'bonus_rule', id: String(rule.id) }, { ...input });
      });
      await tell();
      return c.json(await staffBonuses(db), 201);
    })

    .put('/rules/:id', jsonBody(bonusRuleInputSchema), param(idParams, notFound), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      await db.transaction(async (tx) => {
        const { before, after } = await updateBonusRule(tx, id, input);
        await audit(tx, actor, 'bonus_rule.update', { type: 'bonus_rule', id: String(id) }, changedFields(before, after, RULE_FIELDS));
      });
      await tell();
      return c.json(await staffBonuses(db));
    })

    .post('/coupons', jsonBody(couponInputSchema), async (c) => {
      const actor = staffActor(c);
      const input = c.req.valid('json');
      await db.transaction(async (tx) => {
        const coupon = await createCoupon(tx, input);
        await audit(tx, actor, 'coupon.create', { type: 'coupon', id: String(coupon.id) }, { ...input, code: coupon.code });
      });
      return c.json(await staffBonuses(db), 201);
    })

    .put('/coupons/:id', jsonBody(couponInputSchema), param(idParams, notFound), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      await db.transaction(async (tx) => {
        const { before, after } = await updateCoupon(tx, id, input);
        await audit(tx, actor, 'coupon.update', { type: 'coupon', id: String(id) }, changedFields(before, after, COUPON_FIELDS));
      });
      return c.json(await staffBonuses(db));
    });
}

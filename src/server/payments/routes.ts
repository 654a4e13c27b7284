import { Hono } from 'hono';
import { z } from 'zod';
import { topUpInputSchema } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { jsonBody, param } from '../http/body';
import { clientIp } from '../http/clientIp';
import { RATE_RULES, rateLimited } from '../http/rateLimit';
import { checkPayment, checkPaymentStatus, handleCallback, listPayments, startTopUp, type PaymentsDeps } from './service';

export function paymentsDeps(deps: AppDeps): PaymentsDeps {
  if (!deps.gateway) throw new AppError('PAYMENT_NOT_CREATED', 'No card gateway is configured.');
  return { db: deps.database.db, gateway: deps.gateway, logger: deps.logger, realtime: deps.realtime, publicUrl: deps.publicUrl };
}

/** A payment's reference in the path: anything longer than ours is a payment that does not exist. */
const referenceParam = param(z.object({ reference: z.string().max(100) }), () => new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı'));

/**
 * Card top-ups: start one, list the customer's own, check one from the return pages, and the
 * gateway's server-to-server callback (form-encoded `data` + `signature`).
 */
export function paymentsRoutes(deps: AppDeps) {
  const db = deps.database.db;
  return (
    new Hono()
      .post(
        '/topup',
        signedInOnly,
        rateLimited(db, RATE_RULES.topUpPerUser, async (c) => (await requireUser(c)).id),
        jsonBody(topUpInputSchema),
        async (c) => {
          const user = await requireUser(c);
          return c.json(await startTopUp(paymentsDeps(deps), user, c.req.valid('json')), 201);
        },
      )
      .get('/', signedInOnly, async (c) => {
        const user = await requireUser(c);
        return c.json({ payments: await listPayments(db, user.id) });
      })
      .get('/:reference/status', rateLimited(db, RATE_RULES.paymentStatusPerIp, clientIp), referenceParam, async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await checkPaymentStatus(paymentsDeps(deps), c.req.valid('param').reference));
      })
      .get('/:reference', signedInOnly, referenceParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await checkPayment(paymentsDeps(deps), user.id, c.req.valid('param').reference));
      })
      // The gateway posts here (the result URL registered with it). Only a valid signature and a
      // re-confirmed status move money; the answer says nothing about our records.
      .post('/callback', async (c) => {
        const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const data = typeof form.data === 'string' ? form.data : undefined;
        const signature = typeof form.signature === 'string' ? form.signature : undefined;
        await handleCallback(paymentsDeps(deps), { data, signature });
        return c.text('OK');
      })
  );
}

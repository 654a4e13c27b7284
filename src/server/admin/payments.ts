import { Hono } from 'hono';
import { adminPaymentsQuerySchema, paymentIdParamsSchema, paymentReversalSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { jsonBody, param, query } from '../http/body';
import { listPaymentsForStaff, paymentsCsv, reversePayment } from '../payments';
import { audit } from './audit';

/**
 * The team's payments (docs/rules.md#payments): the filtered list, its CSV export, and booking a
 * chargeback of a completed top-up (docs/decisions/0019).
 */
export function adminPaymentsRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/', query(adminPaymentsQuerySchema), async (c) => c.json(await listPaymentsForStaff(db, c.req.valid('query'))))

    .get('/export', query(adminPaymentsQuerySchema), async (c) => {
      const csv = await paymentsCsv(db, c.req.valid('query'));
      const day = new Date().toISOString().slice(0, 10);
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="payments-${day}.csv"`,
        'cache-control': 'no-store',
      });
    })

    .post('/:id/reversal', param(paymentIdParamsSchema, () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.')), jsonBody(paymentReversalSchema), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const { payment, balanceMicros } = await reversePayment(db, id, actor, reason, async (tx, p) => {
        await audit(tx, actor, 'payment.reversal', { type: 'payment', id: p.id }, { userId: p.userId, reference: p.reference, amountMicros: p.amountUsdMicros, reason });
      });
      await deps.realtime?.publish(payment.userId, { type: 'balance', balanceMicros, deltaMicros: -payment.amountUsdMicros }).catch(() => {});
      return c.json({ paymentId: payment.id, reversedAt: payment.reversedAt!.toISOString(), balanceMicros });
    });
}

import { Hono } from 'hono';
import { adminPaymentsQuerySchema, bankReviewSchema, paymentIdParamsSchema, paymentRefundSchema, paymentReversalSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { jsonBody, param, query } from '../http/body';
import { creditedByTopUp, listPaymentsForStaff, paymentsCsv, receiptOf, refundPayment, reversePayment, reviewBankTransfer, staffMethods, updateMethod } from '../payments';
import { gatewayRegistry } from '../gateways';
import { paymentMethodInputSchema } from '../../core/contracts/payments';
import { PAYMENT_METHOD_KINDS } from '../../core/paymentMethods';
import { z } from 'zod';
import { audit, changedFields } from './audit';

const methodKindParams = z.object({ kind: z.enum(PAYMENT_METHOD_KINDS) });

/** The gateways this process has (none configured: every gateway method is shown as not configured). */
const gatewaysOf = (deps: AppDeps) => deps.gateways ?? gatewayRegistry({});

/** The fields of a method the audit log compares. */
const METHOD_FIELDS = ['name', 'details', 'currency', 'minMicros', 'maxMicros', 'feeBp', 'position', 'enabled'] as const;

/**
 * The team's payments (docs/rules.md#payments): the filtered list, its CSV export, booking a
 * chargeback of a completed top-up (docs/decisions/0019), and refunding one to the card
 * (docs/rules.md#top-up-refunds).
 */
export function adminPaymentsRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/', query(adminPaymentsQuerySchema), async (c) => c.json(await listPaymentsForStaff(db, c.req.valid('query'), gatewaysOf(deps))))

    .get('/export', query(adminPaymentsQuerySchema), async (c) => {
      const csv = await paymentsCsv(db, c.req.valid('query'));
      const day = new Date().toISOString().slice(0, 10);
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="payments-${day}.csv"`,
        'cache-control': 'no-store',
      });
    })

    // Payment methods (docs/rules.md#payment-methods): every kind as the team sets it, and a change
    // (audited; open pages read their methods again).
    .get('/methods', async (c) => c.json({ methods: await staffMethods(db, gatewaysOf(deps)) }))

    .put('/methods/:kind', param(methodKindParams, () => new AppError('NOT_FOUND', 'No such payment method.')), jsonBody(paymentMethodInputSchema), async (c) => {
      const actor = staffActor(c);
      const { kind } = c.req.valid('param');
      const input = c.req.valid('json');
      await db.transaction(async (tx) => {
        const { before, after } = await updateMethod(tx, kind, input);
        await audit(tx, actor, 'payment_method.update', { type: 'payment_method', id: kind }, changedFields(before, after, METHOD_FIELDS));
      });
      await deps.realtime?.publish('*', { type: 'settings' }).catch(() => {});
      return c.json({ methods: await staffMethods(db, gatewaysOf(deps)) });
    })

    // Bank transfers (docs/rules.md#bank-transfers): the receipt, served to the team only, under its
    // type as read from its content (never sniffed), and the review that credits once.
    .get('/:id/receipt', param(paymentIdParamsSchema, () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.')), async (c) => {
      const receipt = await receiptOf(db, c.req.valid('param').id);
      const extension = receipt.contentType === 'application/pdf' ? 'pdf' : receipt.contentType.split('/')[1];
      return c.body(new Uint8Array(receipt.data), 200, {
        'content-type': receipt.contentType,
        'content-disposition': `inline; filename="receipt-${c.req.valid('param').id}.${extension}"`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      });
    })

    .post('/:id/review', param(paymentIdParamsSchema, () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.')), jsonBody(bankReviewSchema), async (c) => {
      const actor = staffActor(c);
      const review = c.req.valid('json');
      const { payment, balanceMicros } = await reviewBankTransfer({ db, realtime: deps.realtime }, c.req.valid('param').id, actor, review, async (tx, p) => {
        await audit(tx, actor, review.approve ? 'payment.bank_approve' : 'payment.bank_reject', { type: 'payment', id: p.id }, {
          userId: p.userId,
          reference: p.reference,
          amountMicros: p.amountUsdMicros,
          ...(review.approve ? {} : { reason: review.reason }),
        });
      });
      return c.json({ paymentId: payment.id, status: payment.status, balanceMicros });
    })

    .post('/:id/reversal', param(paymentIdParamsSchema, () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.')), jsonBody(paymentReversalSchema), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const { payment, balanceMicros } = await reversePayment(db, id, actor, reason, async (tx, p) => {
        await audit(tx, actor, 'payment.reversal', { type: 'payment', id: p.id }, { userId: p.userId, reference: p.reference, amountMicros: p.amountUsdMicros, reason });
      });
      await deps.realtime?.publish(payment.userId, { type: 'balance', balanceMicros, deltaMicros: -creditedByTopUp(payment) }).catch(() => {});
      return c.json({ paymentId: payment.id, reversedAt: payment.reversedAt!.toISOString(), balanceMicros });
    })

    // A refund to the card (docs/rules.md#top-up-refunds): 200 once the gateway gave it back (or
    // only part of it: `partial`, flagged), 202 while its answer is unknown (asked again by a retry
    // or the background pass); a refusal is PAYMENT_REFUND_FAILED with the balance given back.
    .post('/:id/refund', param(paymentIdParamsSchema, () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.')), jsonBody(paymentRefundSchema), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const refundDeps = { db, gateways: gatewaysOf(deps), logger: deps.logger, realtime: deps.realtime };
      const { payment, balanceMicros } = await refundPayment(refundDeps, id, actor, reason, async (tx, p) => {
        await audit(tx, actor, 'payment.refund', { type: 'payment', id: p.id }, { userId: p.userId, reference: p.reference, amountMicros: creditedByTopUp(p), reason });
      });
      return c.json(
        { paymentId: payment.id, refundStatus: payment.refundStatus, refundedAt: payment.refundedAt?.toISOString() ?? null, refundError: payment.refundError, balanceMicros },
        payment.refundStatus === 'pending' ? 202 : 200,
      );
    });
}

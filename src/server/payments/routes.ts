import { Hono } from 'hono';
import { z } from 'zod';
import { couponCheckInputSchema } from '../../core/contracts/bonuses';
import { topUpInputSchema } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { jsonBody, param, readableRequest } from '../http/body';
import { clientIp } from '../http/clientIp';
import { RATE_RULES, rateLimited } from '../http/rateLimit';
import { validator } from 'hono/validator';
import { attachReceipt } from './bank';
import { activeBonusRules, checkCoupon } from './bonuses';
import { availableMethods } from './methods';
import { checkPayment, checkPaymentStatus, handleCallback, listPayments, startTopUp, type PaymentsDeps } from './service';

export function paymentsDeps(deps: AppDeps): PaymentsDeps {
  if (!deps.gateways) throw new AppError('PAYMENT_METHOD_UNAVAILABLE', 'No payment gateway is configured.');
  return { db: deps.database.db, gateways: deps.gateways, logger: deps.logger, realtime: deps.realtime, publicUrl: deps.publicUrl };
}

/** A payment's reference in the path: anything longer than ours is a payment that does not exist. */
const referenceParam = param(z.object({ reference: z.string().max(100) }), () => new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı'));

/** A notification's path names a gateway's method kind; anything else is a 404. */
const callbackKindParam = param(z.object({ kind: z.enum(['payriff', 'paytr']) }), () => new AppError('NOT_FOUND', 'Not found.'));

/**
 * A notification's fields: a JSON object (Payriff) or a form (Epoint, PayTR); anything unreadable
 * is no fields. A JSON body was already read once in front of the API (`refuseNul`), so the
 * request comes through `readableRequest`.
 */
async function callbackBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const json: unknown = await request.json();
      return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
    }
    const form = await request.formData();
    const fields: Record<string, unknown> = {};
    for (const [key, value] of form) if (typeof value === 'string') fields[key] = value;
    return fields;
  } catch {
    return {};
  }
}

/**
 * Top-ups: start one, list the customer's own, check one from the return pages, and the
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
          return c.json(await startTopUp(paymentsDeps(deps), user, c.req.valid('json'), clientIp(c)), 201);
        },
      )
      // The methods the top-up dialog offers now, with the rate in force for each currency, and the
      // deposit bonus rules in force (the dialog shows what a top-up earns, docs/rules.md#bonuses).
      .get('/methods', signedInOnly, async (c) => {
        c.header('Cache-Control', 'no-store');
        const [methods, bonusRules] = await Promise.all([deps.gateways ? availableMethods(db, deps.gateways) : [], activeBonusRules(db)]);
        return c.json({ methods, bonusRules });
      })
      // What a coupon gives on a top-up, before paying: nothing is held until the top-up starts.
      .post(
        '/coupon',
        signedInOnly,
        rateLimited(db, RATE_RULES.couponCheckPerUser, async (c) => (await requireUser(c)).id),
        jsonBody(couponCheckInputSchema),
        async (c) => {
          const user = await requireUser(c);
          return c.json(await checkCoupon(db, user.id, c.req.valid('json')));
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
      // A bank transfer's receipt (docs/rules.md#bank-transfers): one file, its type read from its content.
      .post(
        '/:reference/receipt',
        signedInOnly,
        rateLimited(db, RATE_RULES.receiptPerUser, async (c) => (await requireUser(c)).id),
        referenceParam,
        validator('form', async (form) => {
          const file = form.receipt;
          if (!(file instanceof File)) throw new AppError('RECEIPT_INVALID', 'Qəbz faylı göndərilməyib');
          return { receipt: file };
        }),
        async (c) => {
          const user = await requireUser(c);
          const bytes = Buffer.from(await c.req.valid('form').receipt.arrayBuffer());
          return c.json(await attachReceipt(db, user.id, c.req.valid('param').reference, bytes), 201);
        },
      )
      .get('/:reference', signedInOnly, referenceParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await checkPayment(paymentsDeps(deps), user.id, c.req.valid('param').reference));
      })
      // Epoint posts here (the result URL registered with it), the other gateways to their own
      // path. Only a checked notification and a re-confirmed status move money; `OK` is answered
      // once the notification was applied (a failure answers an error, and the gateway retries);
      // the answer says nothing else about our records.
      .post('/callback', async (c) => {
        await handleCallback(paymentsDeps(deps), 'epoint', await callbackBody(await readableRequest(c)));
        return c.text('OK');
      })
      .post('/callback/:kind', callbackKindParam, async (c) => {
        await handleCallback(paymentsDeps(deps), c.req.valid('param').kind, await callbackBody(await readableRequest(c)));
        return c.text('OK');
      })
  );
}

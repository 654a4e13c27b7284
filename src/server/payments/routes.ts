import { Hono } from 'hono';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { clientIp, requireUser, createRateLimiter, type RateRule } from '../auth';
import { checkPayment, checkPaymentStatus, handleCallback, listPayments, startTopUp, type PaymentsDeps } from './service';
import { readJson } from '../http/body';

const TOPUP_PER_USER: RateRule = { name: 'topup:user', limit: 20, windowSeconds: 15 * 60 };
/** Signed-out return pages check 3 times per visit; this leaves room for a few visits a minute. */
const STATUS_PER_IP: RateRule = { name: 'payment-status:ip', limit: 20, windowSeconds: 60 };

export function paymentsDeps(deps: AppDeps): PaymentsDeps {
  if (!deps.gateway) throw new AppError('PAYMENT_NOT_CREATED', 'No card gateway is configured.');
  return { db: deps.database.db, gateway: deps.gateway, logger: deps.logger, realtime: deps.realtime, publicUrl: deps.publicUrl };
}

/**
 * Card top-ups: start one, list the customer's own, check one from the return pages, and the
 * gateway's server-to-server callback (form-encoded `data` + `signature`).
 */
export function paymentsRoutes(deps: AppDeps) {
  const app = new Hono();
  const limiter = createRateLimiter(deps.database.db);

  app.post('/topup', async (c) => {
    const user = await requireUser(c);
    await limiter.consume(TOPUP_PER_USER, user.id);
    const body = await readJson(c);
    return c.json(await startTopUp(paymentsDeps(deps), user, body), 201);
  });

  app.get('/', async (c) => {
    const user = await requireUser(c);
    return c.json({ payments: await listPayments(deps.database.db, user.id) });
  });

  app.get('/:reference/status', async (c) => {
    await limiter.consume(STATUS_PER_IP, clientIp(c));
    const reference = c.req.param('reference');
    if (reference.length > 100) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
    c.header('Cache-Control', 'no-store');
    return c.json(await checkPaymentStatus(paymentsDeps(deps), reference));
  });

  app.get('/:reference', async (c) => {
    const user = await requireUser(c);
    const reference = c.req.param('reference');
    if (reference.length > 100) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
    return c.json(await checkPayment(paymentsDeps(deps), user.id, reference));
  });

  // The gateway posts here (the result URL registered with it). Only a valid signature and a
  // re-confirmed status move money; the answer says nothing about our records.
  app.post('/callback', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const data = typeof form.data === 'string' ? form.data : undefined;
    const signature = typeof form.signature === 'string' ? form.signature : undefined;
    await handleCallback(paymentsDeps(deps), { data, signature });
    return c.text('OK');
  });

  return app;
}

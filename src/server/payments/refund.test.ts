/**
 * Top-ups refunded to the card (docs/rules.md#top-up-refunds), through the sandbox Payriff over
 * real HTTP, on PGlite and on PostgreSQL: the balance pays first, the gateway gives the charge
 * back once, a refusal gives the balance back once, and an unanswered refund waits until the
 * gateway's order says whether the money went back.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPayriff, type SandboxPayriff } from '../../../sandbox/payriff';
import { startJsonCallbackSink, type JsonCallbackSink } from '../../../sandbox/payriff/testing';
import { AppError } from '../../core/errors';
import { post, signIn, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, depositBonusRules, ledgerEntries, payments, users } from '../db/schema';
import { createGateway, gatewayRegistry } from '../gateways';
import { createLogger } from '../logger';
import type { RealtimeHub } from '../realtime';
import { createTestApp } from '../testing/app';
import { createTestDatabase, postgresAvailable } from '../testing/db';
import { createCustomer } from '../testing/users';
import { credit, debit, verifyLedger } from '../wallet/ledger';
import { ensurePaymentMethods } from './methods';
import { isDefiniteRefusal, refundPayment, resolvePendingRefunds, type RefundDeps } from './refund';
import { reversePayment, settle, startTopUp, type PaymentsDeps } from './service';

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));
const detailsOf = (err: unknown) => (err instanceof AppError ? err.details : undefined) as Record<string, unknown> | undefined;

async function refused(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe.skipIf(engine === 'postgres' && !postgresAvailable())(`a top-up refunded to the card (${engine})`, () => {
    let database: Database;
    let payriff: SandboxPayriff;
    let sink: JsonCallbackSink;
    let deps: PaymentsDeps & RefundDeps;
    /** The same, with a short time limit: a refund the sandbox leaves unanswered is known as such within a moment. */
    let impatient: PaymentsDeps & RefundDeps;
    let staff: { id: string; email: string };
    const events: { userId: string; event: Record<string, unknown> }[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(engine);
      payriff = await startSandboxPayriff({ retryDelaysMs: [] });
      sink = await startJsonCallbackSink();
      payriff.setCallbackUrl(sink.url);
      // Answered calls wait as long as a busy machine may need; only the calls the sandbox leaves unanswered use `impatient`.
      const payriffGateway = (timeoutMs: number) => gatewayRegistry({ payriff: createGateway({ kind: 'payriff', baseUrl: payriff.url, secretKey: payriff.secretKey, timeoutMs }) });
      const gateways = payriffGateway(30_000);
      await ensurePaymentMethods(database.db, ['payriff']);
      const realtime = {
        publish: async (userId: string, event: Record<string, unknown>) => void events.push({ userId, event }),
      } as unknown as RealtimeHub;
      deps = { db: database.db, gateways, logger: createLogger('silent'), realtime, publicUrl: 'http://localhost:3000' };
      impatient = { ...deps, gateways: payriffGateway(1500) };
      staff = await createCustomer(database.db, { email: `staff-${randomUUID().slice(0, 8)}@example.com` });
    });
    afterEach(async () => {
      expect(await verifyLedger(database.db)).toEqual([]);
      await payriff.control.idle();
      payriff.control.reset();
      events.length = 0;
    });
    afterAll(async () => {
      await payriff.close();
      await sink.close();
      await database.close();
    });

    const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
    const paymentOf = async (id: string) => (await database.db.select().from(payments).where(eq(payments.id, id)))[0]!;
    const entriesOf = async (paymentId: string) =>
      (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, paymentId)).orderBy(ledgerEntries.id)).map((e) => [e.kind, e.amountMicros]);

    /** A Payriff top-up of `amountMicros`, paid on the sandbox and settled (credited once). */
    async function paidTopUp(amountMicros = 10_000_000, opts: { bonusMicros?: number } = {}) {
      const user = await createCustomer(database.db);
      const topUp = await startTopUp(deps, user, { amountMicros, method: 'payriff', language: 'az' });
      const [row] = await database.db.select().from(payments).where(eq(payments.reference, topUp.reference));
      payriff.control.complete(row!.transactionId!, 'success');
      const settled = await settle(deps, row!.id);
      expect(settled.status).toBe('completed');
      if (opts.bonusMicros) {
        // What a top-up that earned a bonus holds: its share on the payment and a `deposit_bonus` entry (the rule switched off, so the other tests' top-ups earn nothing).
        const [rule] = await database.db.insert(depositBonusRules).values({ name: 'Test 10%', minMicros: 0, percentBp: 1000, enabled: false }).returning();
        await database.db.update(payments).set({ bonusRuleId: rule!.id, bonusMicros: opts.bonusMicros }).where(eq(payments.id, row!.id));
        await credit(database.db, { userId: user.id, amountMicros: opts.bonusMicros, kind: 'deposit_bonus', reference: row!.id });
      }
      events.length = 0;
      return { user, payment: await paymentOf(row!.id), orderId: row!.transactionId! };
    }

    it('gives the whole charge back to the card once, the balance paying first, and tells the customer', async () => {
      const { user, payment, orderId } = await paidTopUp(10_000_000);
      const outcome = await refundPayment(deps, payment.id, staff, 'Customer asked for the money back');
      expect(outcome.payment).toMatchObject({ refundStatus: 'completed', refundedBy: staff.id, refundReason: 'Customer asked for the money back', refundError: null });
      expect(outcome.payment.refundedAt).toBeInstanceOf(Date);
      expect(outcome.balanceMicros).toBe(0);
      expect(await balanceOf(user.id)).toBe(0);
      expect(await entriesOf(payment.id)).toEqual([['topup', 10_000_000], ['topup_refund', -10_000_000]]);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 1700 });
      expect(events).toContainEqual({ userId: user.id, event: { type: 'balance', balanceMicros: 0, deltaMicros: -10_000_000 } });
      expect(events).toContainEqual({ userId: user.id, event: { type: 'payment', paymentId: payment.id, status: 'refund_completed' } });

      // Asked again: already refunded, nothing moves, the gateway is not asked.
      expect(codeOf(await refused(refundPayment(deps, payment.id, staff, 'again')))).toBe('PAYMENT_ALREADY_REFUNDED');
      expect(await entriesOf(payment.id)).toHaveLength(2);
      expect(payriff.control.order(orderId)?.transactions).toHaveLength(2);
    });

    it('takes back what the top-up earned on top as a bonus reversal', async () => {
      const { user, payment } = await paidTopUp(10_000_000, { bonusMicros: 1_000_000 });
      expect(await balanceOf(user.id)).toBe(11_000_000);
      await refundPayment(deps, payment.id, staff, 'Refund with bonus');
      expect(await balanceOf(user.id)).toBe(0);
      expect((await entriesOf(payment.id)).filter(([k]) => k !== 'topup' && k !== 'deposit_bonus')).toEqual([
        ['topup_refund', -10_000_000],
        ['bonus_reversal', -1_000_000],
      ]);
    });

    it('a refusal by the gateway fails the refund and gives the balance back, once', async () => {
      const { user, payment, orderId } = await paidTopUp(8_000_000);
      payriff.control.set({ refundMode: 'error-code' });
      const err = await refused(refundPayment(deps, payment.id, staff, 'Refused by the gateway'));
      expect(codeOf(err)).toBe('PAYMENT_REFUND_FAILED');
      expect(await paymentOf(payment.id)).toMatchObject({ refundStatus: 'failed', refundedAt: null });
      expect((await paymentOf(payment.id)).refundError).toMatch(/Refund rejected/);
      expect(await balanceOf(user.id)).toBe(8_000_000);
      expect(await entriesOf(payment.id)).toEqual([['topup', 8_000_000], ['topup_refund', -8_000_000], ['topup_refund_failed', 8_000_000]]);
      expect(events).toContainEqual({ userId: user.id, event: { type: 'balance', balanceMicros: 8_000_000, deltaMicros: 8_000_000 } });

      // Neither a second attempt nor the background pass gives it back again.
      payriff.control.set({ refundMode: 'normal' });
      const again = await refused(refundPayment(deps, payment.id, staff, 'again'));
      expect([codeOf(again), detailsOf(again)?.reason]).toEqual(['PAYMENT_NOT_REFUNDABLE', 'refund_failed']);
      await resolvePendingRefunds(deps, 0);
      expect(await balanceOf(user.id)).toBe(8_000_000);
      expect(await entriesOf(payment.id)).toHaveLength(3);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'APPROVED', refundedQepik: 0 });
    });

    it('no answer leaves it pending; the background pass asks the order, finds it still paid, and refunds once', async () => {
      const { user, payment, orderId } = await paidTopUp(6_000_000);
      payriff.control.set({ refundMode: 'timeout' });
      const outcome = await refundPayment(impatient, payment.id, staff, 'Gateway silent');
      expect(outcome.payment.refundStatus).toBe('pending');
      expect(outcome.payment.refundError).toMatch(/timeout/);
      expect(await balanceOf(user.id)).toBe(0);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'APPROVED', refundedQepik: 0 });

      // While the gateway cannot say (its status call fails), nothing changes and nothing is credited back.
      payriff.control.set({ refundMode: 'normal', statusMode: '5xx' });
      expect(await resolvePendingRefunds(deps, 0)).toEqual({ completed: 0, failed: 0, partial: 0, pending: 1 });
      expect(await paymentOf(payment.id)).toMatchObject({ refundStatus: 'pending' });
      expect(await balanceOf(user.id)).toBe(0);

      payriff.control.set({ statusMode: 'normal' });
      expect(await resolvePendingRefunds(deps, 0)).toEqual({ completed: 1, failed: 0, partial: 0, pending: 0 });
      expect(await paymentOf(payment.id)).toMatchObject({ refundStatus: 'completed', refundError: null });
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 1020 });
      expect(await entriesOf(payment.id)).toEqual([['topup', 6_000_000], ['topup_refund', -6_000_000]]);
      expect(await balanceOf(user.id)).toBe(0);
    });

    it('a refund made but unanswered: the team’s retry reads REFUNDED on the order and completes it without refunding again', async () => {
      const { user, payment, orderId } = await paidTopUp(5_000_000);
      payriff.control.set({ refundMode: 'lost-reply' });
      const outcome = await refundPayment(impatient, payment.id, staff, 'Answer lost');
      expect(outcome.payment.refundStatus).toBe('pending');
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 850 });
      const transactions = payriff.control.order(orderId)!.transactions.length;

      // Refunds would now be refused (nothing left to give back): the retry must not read that as a refusal and credit back.
      payriff.control.set({ refundMode: 'error-code' });
      const retried = await refundPayment(deps, payment.id, staff, 'Retry');
      expect(retried.payment).toMatchObject({ refundStatus: 'completed', refundReason: 'Answer lost' });
      expect(payriff.control.order(orderId)!.transactions).toHaveLength(transactions);
      expect(await balanceOf(user.id)).toBe(0);
      expect(await entriesOf(payment.id)).toEqual([['topup', 5_000_000], ['topup_refund', -5_000_000]]);
    });

    it('an unanswered refund the gateway made only in part: the background pass settles it partial, flagged, the balance gets back the rest, and stops asking', async () => {
      const { user, payment, orderId } = await paidTopUp(10_000_000);
      expect(payment.amountMinor).toBe(1700);
      payriff.control.set({ refundMode: 'timeout' });
      expect((await refundPayment(impatient, payment.id, staff, 'Partly silent')).payment.refundStatus).toBe('pending');
      payriff.control.set({ refundMode: 'normal' });
      // Meanwhile 5.00 of the 17.00 AZN went back to the card (the gateway's dashboard).
      payriff.control.refund(orderId, 500);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 500 });
      events.length = 0;

      expect(await resolvePendingRefunds(deps, 0)).toEqual({ completed: 0, failed: 0, partial: 1, pending: 0 });
      const settled = await paymentOf(payment.id);
      expect(settled).toMatchObject({ refundStatus: 'partial', refundedMinor: 500, flagged: true, refundError: null, status: 'completed' });
      expect(settled.flagReason).toMatch(/500 of 1700/);
      expect(settled.refundedAt).toBeInstanceOf(Date);
      // The card got 5/17 of the charge back: the balance gets 12/17 of the 10 USD, rounded down.
      expect(await entriesOf(payment.id)).toEqual([['topup', 10_000_000], ['topup_refund', -10_000_000], ['topup_refund_partial', 7_058_823]]);
      expect(await balanceOf(user.id)).toBe(7_058_823);
      expect(events).toContainEqual({ userId: user.id, event: { type: 'balance', balanceMicros: 7_058_823, deltaMicros: 7_058_823 } });
      expect(events).toContainEqual({ userId: user.id, event: { type: 'payment', paymentId: payment.id, status: 'refund_partial' } });

      // Settled: neither the background pass nor the team asks the gateway again, and nothing moves.
      payriff.control.set({ statusMode: 'timeout' });
      expect(await resolvePendingRefunds(deps, 0)).toEqual({ completed: 0, failed: 0, partial: 0, pending: 0 });
      const again = await refused(refundPayment(deps, payment.id, staff, 'again'));
      expect([codeOf(again), detailsOf(again)?.reason]).toEqual(['PAYMENT_NOT_REFUNDABLE', 'partial_refund']);
      expect(codeOf(await refused(reversePayment(database.db, payment.id, staff, 'chargeback')))).toBe('PAYMENT_NOT_REVERSIBLE');
      expect(await entriesOf(payment.id)).toHaveLength(3);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 500 });
    });

    it('the team refunds a top-up already partly refunded at the gateway: refused there, the order says how much went back, and it settles partial', async () => {
      const { user, payment, orderId } = await paidTopUp(10_000_000, { bonusMicros: 1_000_000 });
      payriff.control.refund(orderId, 850);
      const outcome = await refundPayment(deps, payment.id, staff, 'Half went back already');
      expect(outcome.payment).toMatchObject({ refundStatus: 'partial', refundedMinor: 850, flagged: true });
      // Half the charge stayed with the shop: half the amount is the customer's again; the bonus stays taken back.
      expect(outcome.balanceMicros).toBe(5_000_000);
      expect(await balanceOf(user.id)).toBe(5_000_000);
      expect(await entriesOf(payment.id)).toEqual([
        ['topup', 10_000_000], ['deposit_bonus', 1_000_000], ['topup_refund', -10_000_000], ['bonus_reversal', -1_000_000], ['topup_refund_partial', 5_000_000],
      ]);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 850 });
    });

    it('refused by the gateway while its order cannot be read: the refund stays pending (part may have gone back), and the pass settles it partial later', async () => {
      const { user, payment, orderId } = await paidTopUp(10_000_000);
      payriff.control.refund(orderId, 850);
      payriff.control.set({ statusMode: '5xx' });
      const outcome = await refundPayment(deps, payment.id, staff, 'Refund while the order is unreadable');
      // Not failed: giving the whole balance back could pay out what the card already got back.
      expect(outcome.payment).toMatchObject({ refundStatus: 'pending', flagged: false });
      expect(await balanceOf(user.id)).toBe(0);
      payriff.control.set({ statusMode: 'normal' });
      expect(await resolvePendingRefunds(deps, 0)).toMatchObject({ partial: 1, failed: 0 });
      expect(await entriesOf(payment.id)).toEqual([['topup', 10_000_000], ['topup_refund', -10_000_000], ['topup_refund_partial', 5_000_000]]);
      expect(await balanceOf(user.id)).toBe(5_000_000);
    });

    it('a balance too short to give it back refuses the refund with nothing changed', async () => {
      const { user, payment, orderId } = await paidTopUp(10_000_000);
      await database.db.transaction((tx) => debit(tx, { userId: user.id, amountMicros: 3_000_000, kind: 'order_charge', reference: `spent-${payment.id}` }));
      const err = await refused(refundPayment(deps, payment.id, staff, 'Spent already'));
      expect([codeOf(err), detailsOf(err)?.neededMicros]).toEqual(['PAYMENT_REFUND_BALANCE_SHORT', 10_000_000]);
      expect(await paymentOf(payment.id)).toMatchObject({ refundStatus: null, refundedBy: null, refundRequestedAt: null, refundReason: null });
      expect(await balanceOf(user.id)).toBe(7_000_000);
      expect(await entriesOf(payment.id)).toEqual([['topup', 10_000_000]]);
      expect(payriff.control.order(orderId)).toMatchObject({ status: 'APPROVED', refundedQepik: 0 });
      expect(events).toEqual([]);
    });

    it('a reversed top-up is not refunded, and a refunded one is not reversed', async () => {
      const reversed = await paidTopUp(4_000_000);
      await reversePayment(database.db, reversed.payment.id, staff, 'Bank took it back');
      const err = await refused(refundPayment(deps, reversed.payment.id, staff, 'Refund it too'));
      expect([codeOf(err), detailsOf(err)?.reason]).toEqual(['PAYMENT_NOT_REFUNDABLE', 'reversed']);
      expect(payriff.control.order(reversed.orderId)).toMatchObject({ refundedQepik: 0 });

      const refunded = await paidTopUp(4_000_000);
      await refundPayment(deps, refunded.payment.id, staff, 'Refunded');
      expect(codeOf(await refused(reversePayment(database.db, refunded.payment.id, staff, 'Chargeback after a refund')))).toBe('PAYMENT_NOT_REVERSIBLE');
      expect(await entriesOf(refunded.payment.id)).toEqual([['topup', 4_000_000], ['topup_refund', -4_000_000]]);
      expect(await balanceOf(refunded.user.id)).toBe(0);

      // A pending refund is not reversed either.
      const pending = await paidTopUp(4_000_000);
      payriff.control.set({ refundMode: 'timeout' });
      await refundPayment(impatient, pending.payment.id, staff, 'Pending');
      expect(codeOf(await refused(reversePayment(database.db, pending.payment.id, staff, 'Chargeback while pending')))).toBe('PAYMENT_NOT_REVERSIBLE');
      payriff.control.set({ refundMode: 'normal' });
      await resolvePendingRefunds(deps, 0);
    });

    it('a method whose gateway cannot refund, or a payment not completed, is refused', async () => {
      const user = await createCustomer(database.db);
      const [epoint] = await database.db
        .insert(payments)
        .values({ reference: `balance-${randomUUID()}`, userId: user.id, amountUsdMicros: 1_000_000, amountMinor: 170, rate: '1.7', provider: 'epoint', method: 'epoint', status: 'completed', transactionId: 'T1' })
        .returning();
      await credit(database.db, { userId: user.id, amountMicros: 1_000_000, kind: 'topup', reference: epoint!.id });
      const err = await refused(refundPayment(deps, epoint!.id, staff, 'No refunds here'));
      expect([codeOf(err), detailsOf(err)?.reason]).toEqual(['PAYMENT_NOT_REFUNDABLE', 'method']);
      const [open] = await database.db
        .insert(payments)
        .values({ reference: `balance-${randomUUID()}`, userId: user.id, amountUsdMicros: 1_000_000, amountMinor: 170, rate: '1.7', provider: 'payriff', method: 'payriff', status: 'pending', transactionId: 'T2' })
        .returning();
      const notPaid = await refused(refundPayment(deps, open!.id, staff, 'Not paid'));
      expect([codeOf(notPaid), detailsOf(notPaid)?.reason]).toEqual(['PAYMENT_NOT_REFUNDABLE', 'status']);
      expect(codeOf(await refused(refundPayment(deps, randomUUID(), staff, 'None')))).toBe('PAYMENT_NOT_FOUND');
      expect(await balanceOf(user.id)).toBe(1_000_000);
    });

    it('two staff members at once: exactly one refunds, the other is told it is under way or done', async () => {
      const other = await createCustomer(database.db, { email: `staff-b-${randomUUID().slice(0, 8)}@example.com` });
      for (let round = 0; round < 6; round++) {
        const { user, payment, orderId } = await paidTopUp(3_000_000);
        const outcomes = await Promise.allSettled([refundPayment(deps, payment.id, staff, 'first'), refundPayment(deps, payment.id, other, 'second')]);
        const ok = outcomes.filter((o) => o.status === 'fulfilled');
        const codes = outcomes.flatMap((o) => (o.status === 'rejected' ? [codeOf(o.reason)] : []));
        expect(ok).toHaveLength(1);
        expect(codes).toHaveLength(1);
        expect(['PAYMENT_REFUND_IN_PROGRESS', 'PAYMENT_ALREADY_REFUNDED']).toContain(codes[0]);
        expect(await entriesOf(payment.id)).toEqual([['topup', 3_000_000], ['topup_refund', -3_000_000]]);
        expect(await balanceOf(user.id)).toBe(0);
        expect(payriff.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 510 });
        expect(payriff.control.order(orderId)!.transactions).toHaveLength(2);
      }
    });

    it('the books name a refund entry that does not match its payment, and a refund without its entry', async () => {
      const { payment } = await paidTopUp(2_000_000);
      await refundPayment(deps, payment.id, staff, 'For the books');
      await database.db.update(payments).set({ amountUsdMicros: 2_500_000 }).where(eq(payments.id, payment.id));
      expect(await verifyLedger(database.db)).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund', problem: 'amount' });
      await database.db.update(payments).set({ refundStatus: 'failed' }).where(eq(payments.id, payment.id));
      expect(await verifyLedger(database.db)).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund_failed', problem: 'no_entry' });
      await database.db.update(payments).set({ amountUsdMicros: 2_000_000, refundStatus: 'completed' }).where(eq(payments.id, payment.id));
      await database.db.update(ledgerEntries).set({ kind: 'topup_refund_failed', amountMicros: 2_000_000 }).where(and(eq(ledgerEntries.reference, payment.id), eq(ledgerEntries.kind, 'topup_refund')));
      const problems = await verifyLedger(database.db);
      expect(problems).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund_failed', problem: 'status' });
      expect(problems).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund', problem: 'no_entry' });
      // Put back as it was, so the books are clean again.
      await database.db.update(ledgerEntries).set({ kind: 'topup_refund', amountMicros: -2_000_000 }).where(and(eq(ledgerEntries.reference, payment.id), eq(ledgerEntries.kind, 'topup_refund_failed')));
    });

    it('the books check a partial refund\'s credit against what went back to the card', async () => {
      const { payment, orderId } = await paidTopUp(3_000_000);
      payriff.control.refund(orderId, 100);
      await refundPayment(deps, payment.id, staff, 'For the books, in part');
      // 3 USD = 5.10 AZN; 1.00 went back: 3 × 410 / 510 = 2.411764 USD kept.
      expect(await entriesOf(payment.id)).toContainEqual(['topup_refund_partial', 2_411_764]);
      expect(await verifyLedger(database.db)).toEqual([]);
      await database.db.update(payments).set({ refundedMinor: 200 }).where(eq(payments.id, payment.id));
      expect(await verifyLedger(database.db)).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund_partial', problem: 'amount' });
      await database.db.update(payments).set({ refundedMinor: null, refundStatus: 'completed' }).where(eq(payments.id, payment.id));
      expect(await verifyLedger(database.db)).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund_partial', problem: 'status' });
      await database.db.update(payments).set({ refundedMinor: 100, refundStatus: 'partial' }).where(eq(payments.id, payment.id));
      await database.db.delete(ledgerEntries).where(and(eq(ledgerEntries.reference, payment.id), eq(ledgerEntries.kind, 'topup_refund_partial')));
      expect(await verifyLedger(database.db)).toContainEqual({ userId: payment.userId, paymentId: payment.id, kind: 'topup_refund_partial', problem: 'no_entry' });
      // Put back as it was.
      await credit(database.db, { userId: payment.userId, amountMicros: 2_411_764, kind: 'topup_refund_partial', reference: payment.id });
      await database.db.update(users).set({ balanceMicros: 2_411_764 }).where(eq(users.id, payment.userId));
    });
  });
}

describe('POST /api/admin/payments/:id/refund', () => {
  let database: Database;
  let payriff: SandboxPayriff;
  let sink: JsonCallbackSink;
  let app: Awaited<ReturnType<typeof createTestApp>>['app'];
  let deps: PaymentsDeps;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    payriff = await startSandboxPayriff({ retryDelaysMs: [] });
    sink = await startJsonCallbackSink();
    payriff.setCallbackUrl(sink.url);
    const gateways = gatewayRegistry({ payriff: createGateway({ kind: 'payriff', baseUrl: payriff.url, secretKey: payriff.secretKey, timeoutMs: 30_000 }) });
    ({ app } = await createTestApp(database, { gateways }));
    await ensurePaymentMethods(database.db, ['payriff']);
    deps = { db: database.db, gateways, logger: createLogger('silent'), publicUrl: 'http://localhost:3000' };
  });
  afterAll(async () => {
    await payriff.close();
    await sink.close();
    await database.close();
  });

  it('refunds for the team (audited), shows the refund in the list, and refuses customers and bad bodies', async () => {
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const customer = await signUpUser(app);
    const topUp = await startTopUp(deps, { id: customer.id, email: 'c@example.com' }, { amountMicros: 10_000_000, method: 'payriff', language: 'en' });
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, topUp.reference));
    payriff.control.complete(row!.transactionId!, 'success');
    await settle(deps, row!.id);

    const listed = async () => (await (await app.request(`/api/admin/payments?userId=${customer.id}`, { headers: { cookie: admin } })).json()).payments[0];
    expect(await listed()).toMatchObject({ refundable: true, refund: null });

    expect((await post(app, `/api/admin/payments/${row!.id}/refund`, { reason: 'x' }, { cookie: admin })).status).toBe(422);
    expect((await post(app, `/api/admin/payments/${row!.id}/refund`, { reason: 'Valid reason', extra: 1 }, { cookie: admin })).status).toBe(422);
    expect((await post(app, `/api/admin/payments/${row!.id}/refund`, { reason: 'Customer refund' }, { cookie: customer.cookie })).status).toBe(403);

    const res = await post(app, `/api/admin/payments/${row!.id}/refund`, { reason: 'Customer refund' }, { cookie: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ paymentId: row!.id, refundStatus: 'completed', balanceMicros: 0, refundError: null });
    expect(await listed()).toMatchObject({ refundable: false, refund: { status: 'completed', byEmail: 'admin@test.local', reason: 'Customer refund', error: null } });
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'payment.refund'));
    expect(entry).toMatchObject({ targetType: 'payment', targetId: row!.id, details: { amountMicros: 10_000_000, reason: 'Customer refund' } });

    const again = await post(app, `/api/admin/payments/${row!.id}/refund`, { reason: 'Customer refund' }, { cookie: admin });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('PAYMENT_ALREADY_REFUNDED');

    // The export names the refund: its state, when, who and why.
    const csv = await (await app.request(`/api/admin/payments/export?userId=${customer.id}`, { headers: { cookie: admin } })).text();
    expect(csv.split('\r\n')[0]).toMatch(/,refund_status,refunded_at,refunded_by,refund_reason$/);
    expect(csv.split('\r\n')[1]).toMatch(/,completed,[0-9T:.-]+Z,admin@test\.local,Customer refund$/);

    // The customer's own list shows it refunded.
    const mine = await (await app.request('/api/payments', { headers: { cookie: customer.cookie } })).json();
    expect(mine.payments).toMatchObject([{ reference: topUp.reference, refundStatus: 'completed' }]);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

describe('which gateway errors are a definite refusal', () => {
  it('a refusal code, an HTTP 4xx or nothing sent are; no answer, a timeout, a 5xx or an unreadable reply are not', () => {
    const failed = (details: Record<string, unknown>) => new AppError('PAYMENT_REFUND_FAILED', 'x', details);
    expect(isDefiniteRefusal(failed({ reason: 'refused', gatewayCode: '15000' }))).toBe(true);
    expect(isDefiniteRefusal(failed({ reason: 'http', httpStatus: 401 }))).toBe(true);
    expect(isDefiniteRefusal(failed({ reason: 'bad_id' }))).toBe(true);
    expect(isDefiniteRefusal(new RangeError('amountMinor must be a positive integer'))).toBe(true);
    expect(isDefiniteRefusal(failed({ reason: 'http', httpStatus: 503 }))).toBe(false);
    expect(isDefiniteRefusal(failed({ reason: 'timeout' }))).toBe(false);
    expect(isDefiniteRefusal(failed({ reason: 'unreachable' }))).toBe(false);
    expect(isDefiniteRefusal(failed({ reason: 'bad_reply' }))).toBe(false);
    expect(isDefiniteRefusal(new AppError('PAYMENT_STATUS_UNKNOWN', 'x', { reason: 'refused' }))).toBe(false);
    expect(isDefiniteRefusal(new Error('socket hang up'))).toBe(false);
  });
});

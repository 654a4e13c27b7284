/** The Epoint adapter against the sandbox card gateway, over real HTTP on loopback. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '../../core/errors';
import { startSandboxGateway, TEST_CARDS, type SandboxGateway } from '../../../sandbox/gateway';
import { startCallbackSink, type CallbackSink } from '../../../sandbox/gateway/testing';
import { createGateway } from './index';
import type { PaymentGateway } from './types';

let sandbox: SandboxGateway;
let sink: CallbackSink;
/** Answered calls wait as long as a busy machine needs; only calls the sandbox leaves unanswered (or answers late) use `impatient`. */
let gateway: PaymentGateway;
let impatient: PaymentGateway;
const SHOP = 'http://shop.test';

beforeAll(async () => {
  sink = await startCallbackSink();
  // The delayed card's window: long enough that a busy machine still asks its status inside it,
  // short enough for the callback to come within the sink's wait (3 s).
  sandbox = await startSandboxGateway({ delayMs: 1500, retryDelaysMs: [50, 100] });
  gateway = createGateway({ kind: 'sandbox', baseUrl: sandbox.url, publicKey: sandbox.publicKey, privateKey: sandbox.privateKey, timeoutMs: 30_000 });
  impatient = createGateway({ kind: 'sandbox', baseUrl: sandbox.url, publicKey: sandbox.publicKey, privateKey: sandbox.privateKey, timeoutMs: 500 });
});
afterAll(async () => {
  await sandbox.close();
  await sink.close();
});
beforeEach(async () => {
  // Let the previous test's callbacks land before the sink is cleared.
  await sandbox.control.idle();
  sandbox.control.reset();
  sandbox.setCallbackUrl(sink.url);
  sink.clear();
});

async function create(amountMinor = 1717, language: 'az' | 'en' | 'ru' = 'en') {
  const reference = `balance-${randomUUID()}`;
  const created = await gateway.create({
    reference, amountMinor, currency: 'AZN', description: 'Balance top-up $10.10', language,
    successUrl: `${SHOP}/payment-success?order=${reference}`, errorUrl: `${SHOP}/payment-error?order=${reference}`,
  });
  return { reference, ...created };
}

const pay = (paymentUrl: string, number: string) =>
  fetch(paymentUrl, {
    method: 'POST', redirect: 'manual',
    body: new URLSearchParams({ number, expiry: '12/39', cvc: '123', name: 'Test Customer', action: 'pay' }),
  });

async function errorCode(promise: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await promise;
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return 'no error';
}

async function callbackOf(transactionId: string) {
  const [received] = await sink.waitFor(1);
  const status = gateway.parseCallback(received);
  expect(status.transactionId).toBe(transactionId);
  return status;
}

describe('create and the hosted page', () => {
  it('returns a payment page showing merchant, description and the AZN amount', async () => {
    const { paymentUrl, transactionId } = await create(1717, 'az');
    expect(paymentUrl).toBe(`${sandbox.origin}/pay/${transactionId}`);
    const res = await fetch(paymentUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<html lang="az">');
    expect(html).toContain('17.17 AZN');
    expect(html).toContain('Artım');
    expect(html).toContain('Balance top-up $10.10');
    for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 3220']) expect(html).toContain(card);
  });

  it('sends the amount as an exact two-place decimal', async () => {
    const { transactionId, paymentUrl } = await create(1);
    expect(sandbox.control.payment(transactionId)?.amountQepik).toBe(1);
    expect(await (await fetch(paymentUrl)).text()).toContain('0.01 AZN');
  });

  it('is refused with wrong keys or an unreachable gateway', async () => {
    const input = { reference: 'r-keys', amountMinor: 100, currency: 'AZN', description: 'x', language: 'en', successUrl: SHOP, errorUrl: SHOP } as const;
    const wrongPrivate = createGateway({ kind: 'sandbox', baseUrl: sandbox.url, publicKey: sandbox.publicKey, privateKey: 'nope' });
    const wrongPublic = createGateway({ kind: 'sandbox', baseUrl: sandbox.url, publicKey: 'i999', privateKey: sandbox.privateKey });
    const nowhere = createGateway({ kind: 'sandbox', baseUrl: `http://127.0.0.1:1/api/1`, publicKey: 'a', privateKey: 'b' });
    expect(await errorCode(wrongPrivate.create(input))).toBe('PAYMENT_NOT_CREATED');
    expect(await errorCode(wrongPublic.create(input))).toBe('PAYMENT_NOT_CREATED');
    expect(await errorCode(nowhere.create(input))).toBe('PAYMENT_NOT_CREATED');
    expect(sandbox.control.payments()).toHaveLength(0);
    await expect(gateway.create({ ...input, amountMinor: 10.5 })).rejects.toThrow(RangeError);
  });
});

describe('paying with the test cards', () => {
  it('4242… succeeds: success redirect, signed callback, status success', async () => {
    const { reference, transactionId, paymentUrl } = await create();
    expect((await gateway.status(transactionId)).state).toBe('pending');
    const res = await pay(paymentUrl, '4242 4242 4242 4242');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-success?order=${reference}`);
    const cb = await callbackOf(transactionId);
    expect(cb).toMatchObject({ state: 'success', reference, amountMinor: 1717, currency: 'AZN', code: '000' });
    expect(cb.raw).toMatchObject({ card_mask: '424242******4242', status: 'success' });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'success', reference, amountMinor: 1717, code: '000', transactionId });
  });

  it('4000…0002 is declined: error redirect, failed callback and status', async () => {
    const { reference, transactionId, paymentUrl } = await create();
    const res = await pay(paymentUrl, TEST_CARDS.declined);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-error?order=${reference}`);
    expect(await callbackOf(transactionId)).toMatchObject({ state: 'failed', reference });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'failed', transactionId });
  });

  it('4000…3220 stays pending for delayMs, then succeeds and calls back', async () => {
    const { reference, transactionId, paymentUrl } = await create();
    const res = await pay(paymentUrl, TEST_CARDS.delayed);
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-success?order=${reference}`);
    expect((await gateway.status(transactionId)).state).toBe('pending');
    expect(sink.received).toHaveLength(0);
    expect(await callbackOf(transactionId)).toMatchObject({ state: 'success', amountMinor: 1717 });
    expect((await gateway.status(transactionId)).state).toBe('success');
  });

  it('cancelling returns to the error URL as a failed payment', async () => {
    const { reference, transactionId, paymentUrl } = await create();
    const res = await fetch(paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'cancel' }) });
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-error?order=${reference}`);
    expect((await gateway.status(transactionId)).state).toBe('failed');
  });

  it('reports a returned payment', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    sandbox.control.refund(transactionId);
    expect((await gateway.status(transactionId)).state).toBe('returned');
  });
});

describe('status without a usable answer', () => {
  it.each([
    ['timeout', 'timeout'],
    ['5xx', 'http'],
    ['garbage', 'bad_reply'],
  ] as const)('statusMode %s → PAYMENT_STATUS_UNKNOWN (%s)', async (statusMode, reason) => {
    const { transactionId } = await create();
    sandbox.control.set({ statusMode });
    const err = await (statusMode === 'timeout' ? impatient : gateway).status(transactionId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'PAYMENT_STATUS_UNKNOWN', details: { reason } });
  });

  it('statusDelayMs: a slow gateway answers after the delay, or not within the adapter’s timeout', async () => {
    const { transactionId } = await create();
    sandbox.control.set({ statusDelayMs: 200 });
    const started = Date.now();
    expect((await gateway.status(transactionId)).state).toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    sandbox.control.set({ statusDelayMs: 800 });
    expect(await errorCode(impatient.status(transactionId))).toBe('PAYMENT_STATUS_UNKNOWN');
  });

  it('an unknown transaction or wrong keys → PAYMENT_STATUS_UNKNOWN, not a failed payment', async () => {
    const { transactionId } = await create();
    const wrongKey = createGateway({ kind: 'sandbox', baseUrl: sandbox.url, publicKey: sandbox.publicKey, privateKey: 'nope' });
    expect(await errorCode(gateway.status('te000000000'))).toBe('PAYMENT_STATUS_UNKNOWN');
    expect(await errorCode(wrongKey.status(transactionId))).toBe('PAYMENT_STATUS_UNKNOWN');
  });
});

describe('callback fault modes', () => {
  it('none: no callback, yet the status call knows the payment succeeded', async () => {
    sandbox.control.set({ callback: 'none' });
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    await sandbox.control.idle();
    expect(sink.received).toHaveLength(0);
    expect((await gateway.status(transactionId)).state).toBe('success');
  });

  it('duplicate: N identical, validly signed copies', async () => {
    sandbox.control.set({ callback: 'duplicate', duplicates: 3 });
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    const copies = await sink.waitFor(3);
    await sandbox.control.idle();
    expect(sink.received).toHaveLength(3);
    expect(new Set(copies.map((c) => c.data)).size).toBe(1);
    for (const copy of copies) expect(gateway.parseCallback(copy).state).toBe('success');
  });

  it('bad-signature: the callback is refused', async () => {
    sandbox.control.set({ callback: 'bad-signature' });
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    const [received] = await sink.waitFor(1);
    expect(() => gateway.parseCallback(received)).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
  });

  it('tamper-amount: validly signed, amount differs from the stored payment and the status call', async () => {
    sandbox.control.set({ callback: 'tamper-amount' });
    const { transactionId } = await create(1717);
    sandbox.control.complete(transactionId, 'success');
    expect((await callbackOf(transactionId)).amountMinor).toBe(1718);
    expect((await gateway.status(transactionId)).amountMinor).toBe(1717);
  });

  it('tamper-currency: validly signed, currency is not AZN', async () => {
    sandbox.control.set({ callback: 'tamper-currency' });
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    expect(await callbackOf(transactionId)).toMatchObject({ currency: 'USD', amountMinor: 1717 });
    expect((await gateway.status(transactionId)).currency).toBe('AZN');
  });

  it('late: the callback arrives after lateMs, while status already says success', async () => {
    sandbox.control.set({ callback: 'late', lateMs: 300 });
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    await sleep(150);
    expect(sink.received).toHaveLength(0);
    expect((await gateway.status(transactionId)).state).toBe('success');
    expect((await callbackOf(transactionId)).state).toBe('success');
  });

  it('sendCallback replays the very same signed callback', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    const [first] = await sink.waitFor(1);
    const attempts = await sandbox.control.sendCallback(transactionId);
    expect(attempts.map((a) => a.httpStatus)).toEqual([200]);
    const [, replay] = await sink.waitFor(2);
    expect(replay).toEqual(first);
  });
});

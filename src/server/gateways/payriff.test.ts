/** The Payriff adapter against the sandbox Payriff, over real HTTP on loopback. */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '../../core/errors';
import { startSandboxPayriff, TEST_CARDS, type SandboxPayriff } from '../../../sandbox/payriff';
import { startJsonCallbackSink, type JsonCallbackSink } from '../../../sandbox/payriff/testing';
import { createGateway } from './index';
import { payriffLanguage } from './payriff';
import type { CreatePaymentInput, PaymentGateway } from './types';

let sandbox: SandboxPayriff;
let sink: JsonCallbackSink;
/** Answered calls wait as long as a busy machine needs; only calls the sandbox leaves unanswered use `impatient`. */
let gateway: PaymentGateway;
let impatient: PaymentGateway;
const SHOP = 'http://shop.test';

beforeAll(async () => {
  sink = await startJsonCallbackSink();
  sandbox = await startSandboxPayriff({ delayMs: 300, retryDelaysMs: [50, 100] });
  gateway = createGateway({ kind: 'payriff', baseUrl: sandbox.url, secretKey: sandbox.secretKey, timeoutMs: 30_000 });
  impatient = createGateway({ kind: 'payriff', baseUrl: sandbox.url, secretKey: sandbox.secretKey, timeoutMs: 500 });
});
afterAll(async () => {
  await sandbox.close();
  await sink.close();
});
beforeEach(async () => {
  await sandbox.control.idle();
  sandbox.control.reset();
  sink.clear();
});

const input = (over: Partial<CreatePaymentInput> = {}): CreatePaymentInput => {
  const reference = `balance-${randomUUID()}`;
  return {
    reference, amountMinor: 1717, currency: 'AZN', description: 'Balance top-up: 10.10 USD', language: 'en',
    callbackUrl: sink.url, successUrl: `${SHOP}/payment-success?order=${reference}`, errorUrl: `${SHOP}/payment-error?order=${reference}`,
    ...over,
  };
};

async function create(over: Partial<CreatePaymentInput> = {}) {
  const p = input(over);
  return { ...p, ...(await gateway.create(p)) };
}

const pay = (paymentUrl: string, fields: Record<string, string>) =>
  fetch(paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams(fields) });
const card = (number: string) => ({ number, expiry: '12/39', cvc: '123', name: 'Test Customer', action: 'pay' });

async function errorOf(promise: Promise<unknown>): Promise<{ code: ErrorCode | string; reason?: unknown }> {
  try {
    await promise;
  } catch (err) {
    return err instanceof AppError ? { code: err.code, reason: (err.details as { reason?: unknown } | undefined)?.reason } : { code: String(err) };
  }
  return { code: 'no error' };
}

/** A one-shot server that records the request and answers `reply`: the wire format, byte for byte. */
async function capture(reply: unknown, status = 200) {
  const seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string } = {};
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      Object.assign(seen, { method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end(typeof reply === 'string' ? reply : JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('wire format', () => {
  it('creates an order as Payriff v3 documents it: the key alone as Authorization, our reference as X-REQUEST-RRN, manat as a JSON number', async () => {
    const stub = await capture({ code: '00000', message: 'Approved', payload: { orderId: 'ORD-1', paymentUrl: 'https://pay.payriff.com/ORD-1', transactionId: 7 } });
    try {
      const payriff = createGateway({ kind: 'payriff', baseUrl: `${stub.url}/`, secretKey: 'B5A4C3D2E1' });
      const created = await payriff.create({
        reference: 'balance-x1', amountMinor: 1717, currency: 'AZN', description: 'Balansın artırılması: 10,10 USD', language: 'az',
        callbackUrl: 'https://artim.az/api/payments/callback/payriff', successUrl: 'https://artim.az/payment-success?order=balance-x1', errorUrl: 'https://artim.az/e',
      });
      expect(created).toEqual({ paymentUrl: 'https://pay.payriff.com/ORD-1', transactionId: 'ORD-1' });
      expect(stub.seen).toMatchObject({ method: 'POST', url: '/api/v3/orders' });
      expect(stub.seen.headers).toMatchObject({ authorization: 'B5A4C3D2E1', 'x-request-rrn': 'balance-x1', 'content-type': 'application/json' });
      // Worked out by hand from the documented body: 1717 qəpik is 17.17 manat.
      expect(stub.seen.body).toBe(
        '{"amount":17.17,"currency":"AZN","language":"AZ","operation":"PURCHASE","description":"Balansın artırılması: 10,10 USD",' +
          '"callbackUrl":"https://artim.az/api/payments/callback/payriff","redirectUrl":"https://artim.az/payment-success?order=balance-x1",' +
          '"cardSave":false,"metadata":{"reference":"balance-x1"}}',
      );
    } finally {
      await stub.close();
    }
  });

  it('asks for an order by GET with the key, and refunds with the order id and the amount in manat', async () => {
    const order = { orderId: 'ORD-2', amount: 0.29, currencyType: 'AZN', paymentStatus: 'APPROVED', metadata: '{"reference":"balance-y"}' };
    const stub = await capture({ code: '00000', message: 'Approved', payload: order });
    try {
      const payriff = createGateway({ kind: 'payriff', baseUrl: stub.url, secretKey: 'k' });
      expect(await payriff.status('ORD-2')).toMatchObject({ state: 'success', transactionId: 'ORD-2', reference: 'balance-y', amountMinor: 29, currency: 'AZN', code: 'APPROVED' });
      expect(stub.seen).toMatchObject({ method: 'GET', url: '/api/v3/orders/ORD-2', body: '' });
      expect(stub.seen.headers?.authorization).toBe('k');
    } finally {
      await stub.close();
    }
    const refund = await capture({ code: '00000', message: 'Approved', payload: null });
    try {
      await createGateway({ kind: 'payriff', baseUrl: refund.url, secretKey: 'k' }).refund!('ORD-2', 1005);
      expect(refund.seen).toMatchObject({ method: 'POST', url: '/api/v3/refund', body: '{"orderId":"ORD-2","amount":10.05}' });
    } finally {
      await refund.close();
    }
  });

  it('maps the customer’s language to one Payriff’s page speaks', () => {
    expect([payriffLanguage('az'), payriffLanguage('en'), payriffLanguage('tr'), payriffLanguage('ru')]).toEqual(['AZ', 'EN', 'EN', 'RU']);
  });

  it('refuses what it would have to send wrong, before any call', async () => {
    await expect(gateway.create(input({ amountMinor: 10.5 }))).rejects.toThrow(RangeError);
    await expect(gateway.create(input({ currency: 'TRY' }))).rejects.toThrow(RangeError);
    expect((await errorOf(gateway.status('../admin'))).code).toBe('PAYMENT_STATUS_UNKNOWN');
    expect(sandbox.control.orders()).toHaveLength(0);
  });
});

describe('create and the hosted page', () => {
  it('registers the order with our reference and shows the amount, the test cards and the wallets', async () => {
    const { paymentUrl, transactionId, reference } = await create({ language: 'az' });
    expect(paymentUrl).toBe(`${sandbox.origin}/pay/${transactionId}`);
    expect(sandbox.control.order(transactionId)).toMatchObject({
      requestRrn: reference, amountQepik: 1717, currency: 'AZN', language: 'AZ', metadata: { reference }, callbackUrl: sink.url, status: 'CREATED',
    });
    const html = await (await fetch(paymentUrl)).text();
    expect(html).toContain('<html lang="az">');
    expect(html).toContain('17.17 AZN');
    expect(html).toContain('Balance top-up: 10.10 USD');
    for (const text of ['Apple Pay', 'Google Pay', '4169 7413 3015 1979', '4000 0000 0000 0002', '4000 0000 0000 3220']) expect(html).toContain(text);
    expect(html).not.toMatch(/<script|\bsrc=|<link/);
  });

  it('a refusal with HTTP 200 and another code, a wrong key and no answer are PAYMENT_NOT_CREATED', async () => {
    const first = await create();
    // The same X-REQUEST-RRN again: refused with HTTP 200 and code 15400.
    expect(await errorOf(gateway.create(input({ reference: first.reference })))).toEqual({ code: 'PAYMENT_NOT_CREATED', reason: 'refused' });
    const wrongKey = createGateway({ kind: 'payriff', baseUrl: sandbox.url, secretKey: 'nope' });
    expect(await errorOf(wrongKey.create(input()))).toEqual({ code: 'PAYMENT_NOT_CREATED', reason: 'http' });
    const nowhere = createGateway({ kind: 'payriff', baseUrl: 'http://127.0.0.1:1', secretKey: 'k' });
    expect(await errorOf(nowhere.create(input()))).toEqual({ code: 'PAYMENT_NOT_CREATED', reason: 'unreachable' });
    expect(sandbox.control.orders()).toHaveLength(1);
  });

  it('a success code without an order in the payload is no answer', async () => {
    const stub = await capture({ code: '00000', message: 'Approved', payload: { paymentUrl: 'https://pay.payriff.com/x' } });
    try {
      const payriff = createGateway({ kind: 'payriff', baseUrl: stub.url, secretKey: 'k' });
      expect(await errorOf(payriff.create(input()))).toEqual({ code: 'PAYMENT_NOT_CREATED', reason: 'bad_reply' });
    } finally {
      await stub.close();
    }
  });
});

describe('paying', () => {
  it('the success card: redirect to the shop, a notification naming the order, status success with the amount', async () => {
    const { reference, transactionId, paymentUrl, successUrl } = await create();
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'pending', code: 'CREATED', reference, amountMinor: 1717 });
    const res = await pay(paymentUrl, card('4169 7413 3015 1979'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(successUrl);
    const [notification] = await sink.waitFor(1);
    expect(gateway.parseCallback(notification!)).toMatchObject({ state: 'pending', transactionId, amountMinor: null });
    expect(await gateway.status(transactionId)).toMatchObject({
      state: 'success', transactionId, reference, amountMinor: 1717, currency: 'AZN', code: 'APPROVED', message: 'Approved',
    });
  });

  it.each([
    ['apple-pay', 'APPLE_PAY'],
    ['google-pay', 'GOOGLE_PAY'],
  ] as const)('%s succeeds like a card', async (action, way) => {
    const { transactionId, paymentUrl } = await create();
    expect((await pay(paymentUrl, { action })).status).toBe(303);
    expect((await gateway.status(transactionId)).state).toBe('success');
    expect(sandbox.control.order(transactionId)?.transactions).toMatchObject([{ paymentWay: way, status: 'APPROVED' }]);
  });

  it('the declined card fails; cancelling fails; an expired order fails', async () => {
    const declined = await create();
    await pay(declined.paymentUrl, card(TEST_CARDS.declined));
    expect(await gateway.status(declined.transactionId)).toMatchObject({ state: 'failed', code: 'DECLINED', message: 'Declined by the issuer' });
    const cancelled = await create();
    await pay(cancelled.paymentUrl, { action: 'cancel' });
    expect(await gateway.status(cancelled.transactionId)).toMatchObject({ state: 'failed', code: 'CANCELED' });
    const expired = await create();
    sandbox.control.complete(expired.transactionId, 'expired');
    expect(await gateway.status(expired.transactionId)).toMatchObject({ state: 'failed', code: 'EXPIRED' });
  });

  it('the delayed card stays pending for delayMs, then succeeds and notifies', async () => {
    const { transactionId, paymentUrl } = await create();
    await pay(paymentUrl, card(TEST_CARDS.delayed));
    expect((await gateway.status(transactionId)).state).toBe('pending');
    expect(sink.received).toHaveLength(0);
    await sink.waitFor(1);
    expect((await gateway.status(transactionId)).state).toBe('success');
  });
});

describe('status without a usable answer', () => {
  it.each([
    ['timeout', 'timeout'],
    ['5xx', 'http'],
    ['garbage', 'bad_reply'],
    ['error-code', 'refused'],
  ] as const)('statusMode %s → PAYMENT_STATUS_UNKNOWN (%s)', async (statusMode, reason) => {
    const { transactionId } = await create();
    sandbox.control.set({ statusMode });
    expect(await errorOf((statusMode === 'timeout' ? impatient : gateway).status(transactionId))).toEqual({ code: 'PAYMENT_STATUS_UNKNOWN', reason });
  });

  it('an unknown order, a wrong key, a reply about another order or an unknown status → PAYMENT_STATUS_UNKNOWN', async () => {
    const { transactionId } = await create();
    expect((await errorOf(gateway.status('ORD-NOTHING'))).code).toBe('PAYMENT_STATUS_UNKNOWN');
    const wrongKey = createGateway({ kind: 'payriff', baseUrl: sandbox.url, secretKey: 'nope' });
    expect(await errorOf(wrongKey.status(transactionId))).toEqual({ code: 'PAYMENT_STATUS_UNKNOWN', reason: 'http' });
    for (const [payload, reason] of [
      [{ orderId: 'ORD-OTHER', amount: 1, currencyType: 'AZN', paymentStatus: 'APPROVED' }, 'bad_reply'],
      [{ orderId: 'ORD-3', amount: 1, currencyType: 'AZN', paymentStatus: 'NOT_A_STATUS' }, 'unexpected_status'],
    ] as const) {
      const stub = await capture({ code: '00000', payload });
      try {
        expect(await errorOf(createGateway({ kind: 'payriff', baseUrl: stub.url, secretKey: 'k' }).status('ORD-3'))).toEqual({ code: 'PAYMENT_STATUS_UNKNOWN', reason });
      } finally {
        await stub.close();
      }
    }
  });

  it('a tampered status reply carries the other amount or currency for settlement to compare', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    sandbox.control.set({ statusMode: 'tamper-amount' });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'success', amountMinor: 1718 });
    sandbox.control.set({ statusMode: 'tamper-currency' });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'success', amountMinor: 1717, currency: 'USD' });
  });
});

describe('notifications', () => {
  it('only the order id is read; a body without one is refused as SIGNATURE_INVALID', () => {
    const code = (body: Record<string, unknown>) => {
      try {
        gateway.parseCallback(body);
        return 'ok';
      } catch (err) {
        return err instanceof AppError ? err.code : String(err);
      }
    };
    expect(gateway.parseCallback({ code: '00000', payload: { orderId: 'ORD-9', paymentStatus: 'APPROVED', amount: 999, currencyType: 'USD' } }))
      .toMatchObject({ state: 'pending', transactionId: 'ORD-9', reference: null, amountMinor: null, currency: null });
    for (const bad of [{}, { orderId: 'ORD-9' }, { payload: {} }, { payload: { orderId: 9 } }, { payload: { orderId: '' } }, { payload: { orderId: '../x' } }, { payload: 'ORD-9' }]) {
      expect(code(bad), JSON.stringify(bad)).toBe('SIGNATURE_INVALID');
    }
  });

  it('duplicate sends N identical copies; none sends nothing while the status knows', async () => {
    sandbox.control.set({ callback: 'duplicate', duplicates: 3 });
    const first = await create();
    sandbox.control.complete(first.transactionId, 'success');
    const copies = await sink.waitFor(3);
    expect(new Set(copies.map((c) => JSON.stringify(c.payload))).size).toBe(1);
    sandbox.control.set({ callback: 'none' });
    const second = await create();
    sandbox.control.complete(second.transactionId, 'success');
    await sandbox.control.idle();
    expect(sink.received).toHaveLength(3);
    expect((await gateway.status(second.transactionId)).state).toBe('success');
  });

  it('retries a notification the shop did not take, and records every attempt', async () => {
    sink.respondWith(500, 503);
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'declined');
    await sink.waitFor(3);
    await sandbox.control.idle();
    expect(sandbox.control.order(transactionId)?.callbacks.map((c) => c.httpStatus)).toEqual([500, 503, 200]);
  });
});

describe('refund', () => {
  it('gives a paid order back, in part and then whole; the status becomes returned', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    await gateway.refund!(transactionId, 717);
    expect(sandbox.control.order(transactionId)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 717 });
    // Partly given back: a state of its own, with how much went back.
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'partly_returned', code: 'PARTIAL_REFUND', amountMinor: 1717, refundedMinor: 717 });
    await gateway.refund!(transactionId, 1000);
    expect(sandbox.control.order(transactionId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 1717 });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'returned', code: 'REFUNDED', refundedMinor: 1717 });
  });

  it('a partly refunded order without a readable refunded amount says the amount is unknown, never guesses it', async () => {
    for (const refundedAmount of [undefined, 'a lot', -1]) {
      const stub = await capture({ code: '00000', payload: { orderId: 'ORD-4', amount: 17.17, currencyType: 'AZN', paymentStatus: 'PARTIAL_REFUND', refundedAmount } });
      try {
        expect(await createGateway({ kind: 'payriff', baseUrl: stub.url, secretKey: 'k' }).status('ORD-4')).toMatchObject({ state: 'partly_returned', refundedMinor: null });
      } finally {
        await stub.close();
      }
    }
  });

  it('the sandbox refunds from its dashboard (control) as the API does: in part, then the rest', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    expect(sandbox.control.refund(transactionId, 17)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 17 });
    expect(() => sandbox.control.refund(transactionId, 1701)).toThrow(/exceeds/);
    expect(sandbox.control.refund(transactionId, 1700)).toMatchObject({ status: 'REFUNDED', refundedQepik: 1717 });
  });

  it('refuses more than was paid, an unpaid order, a refusal code and no answer with PAYMENT_REFUND_FAILED', async () => {
    const paid = await create();
    sandbox.control.complete(paid.transactionId, 'success');
    expect(await errorOf(gateway.refund!(paid.transactionId, 1718))).toEqual({ code: 'PAYMENT_REFUND_FAILED', reason: 'refused' });
    const unpaid = await create();
    expect(await errorOf(gateway.refund!(unpaid.transactionId, 100))).toEqual({ code: 'PAYMENT_REFUND_FAILED', reason: 'refused' });
    sandbox.control.set({ refundMode: 'error-code' });
    expect(await errorOf(gateway.refund!(paid.transactionId, 100))).toEqual({ code: 'PAYMENT_REFUND_FAILED', reason: 'refused' });
    sandbox.control.set({ refundMode: 'timeout' });
    expect(await errorOf(impatient.refund!(paid.transactionId, 100))).toEqual({ code: 'PAYMENT_REFUND_FAILED', reason: 'timeout' });
    expect(sandbox.control.order(paid.transactionId)).toMatchObject({ status: 'APPROVED', refundedQepik: 0 });
    await expect(gateway.refund!(paid.transactionId, 0)).rejects.toThrow(RangeError);
  });
});

/** The PayTR adapter: its formulas against fixed vectors, and against the PayTR sandbox over real HTTP on loopback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '../../core/errors';
import { startSandboxPaytr, TEST_CARDS, type SandboxPaytr } from '../../../sandbox/paytr';
import { startNotificationSink, type NotificationSink } from '../../../sandbox/paytr/testing';
import { createGateway } from './index';
import { liraToKurus, paytrCreateToken, paytrHashMatches, paytrMerchantOid, paytrNotificationHash, paytrStatusToken, paytrUserName } from './paytr';
import type { GatewayLanguage, PaymentGateway } from './types';

let sandbox: SandboxPaytr;
let sink: NotificationSink;
/** Answered calls wait as long as a busy machine needs; only calls the sandbox leaves unanswered use `impatient`. */
let gateway: PaymentGateway;
let impatient: PaymentGateway;
const SHOP = 'http://shop.test';

beforeAll(async () => {
  sink = await startNotificationSink();
  // A delayed card is authorised after 3 s: long enough for a busy machine to read it still pending.
  sandbox = await startSandboxPaytr({ delayMs: 3_000, retryDelaysMs: [50, 100] });
  gateway = paytrOf(sandbox.origin);
  impatient = paytrOf(sandbox.origin, {}, 500);
});
afterAll(async () => {
  await sandbox.close();
  await sink.close();
});
beforeEach(async () => {
  // Let the previous test's notifications land before the sink is cleared.
  await sandbox.control.idle();
  sandbox.control.reset();
  sandbox.setCallbackUrl(sink.url);
  sink.clear();
});

function paytrOf(baseUrl: string, keys: Partial<{ merchantId: string; merchantKey: string; merchantSalt: string }> = {}, timeoutMs = 30_000) {
  return createGateway({
    kind: 'paytr', baseUrl, merchantId: sandbox.merchantId, merchantKey: sandbox.merchantKey, merchantSalt: sandbox.merchantSalt, timeoutMs, ...keys,
  });
}

const input = (reference: string, amountMinor = 1080, language: GatewayLanguage = 'tr') => ({
  reference, amountMinor, currency: 'TRY', description: 'Bakiye yükleme: 10,00 USD', language,
  customer: { email: 'buyer@example.com', ip: '203.0.113.7' },
  successUrl: `${SHOP}/payment-success?order=${reference}`, errorUrl: `${SHOP}/payment-error?order=${reference}`,
}) as const;

async function create(amountMinor = 1080, language: GatewayLanguage = 'tr') {
  const reference = `balance-${randomUUID()}`;
  const created = await gateway.create(input(reference, amountMinor, language));
  return { reference, ...created };
}

const payByCard = (paymentUrl: string, number: string) =>
  fetch(paymentUrl, {
    method: 'POST', redirect: 'manual',
    body: new URLSearchParams({ cc_owner: 'Test Müşteri', cc_number: number, expiry: '12/39', cvv: '000', action: 'card' }),
  });

async function errorCode(promise: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await promise;
  } catch (err) {
    return err instanceof AppError ? `${err.code}${err.details && typeof err.details === 'object' && 'reason' in err.details ? `:${String(err.details.reason)}` : ''}` : String(err);
  }
  return 'no error';
}

/** A server answering every request with `status` and `body`, or never when `hang`. */
async function fakePaytr(status: number, body: string, hang = false): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    if (!hang) res.writeHead(status, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('the formulas', () => {
  // Computed apart from this code: printf '%s' '<fields><salt>' | openssl dgst -sha256 -hmac '<key>' -binary | base64
  const key = 'KEYabc';
  const salt = 'SALTxyz';
  const basket = Buffer.from('[["Balance","10.80",1]]').toString('base64');

  it('signs get-token as base64(HMAC-SHA256(merchant_id … test_mode + salt, merchant_key))', () => {
    expect(basket).toBe('W1siQmFsYW5jZSIsIjEwLjgwIiwxXV0=');
    const token = paytrCreateToken(
      {
        merchant_id: '123456', user_ip: '1.2.3.4', merchant_oid: 'balanceabc123', email: 'a@b.c', payment_amount: '1080', user_basket: basket,
        no_installment: '1', max_installment: '0', currency: 'TL', test_mode: '0',
      },
      key,
      salt,
    );
    expect(token).toBe('lhcoFsnaIrQWk5J/UyqaaNxV/fxYC1MWgFfjL3fZ0QY=');
  });

  it('signs the status inquiry and checks a notification’s hash', () => {
    expect(paytrStatusToken('123456', 'balanceabc123', key, salt)).toBe('Pwpnd17FIdRhMoL8+m+jBXc7JNph7LNyOfZutV9sTgU=');
    expect(paytrNotificationHash({ merchant_oid: 'balanceabc123', status: 'success', total_amount: '1080' }, key, salt)).toBe(
      '1wDNEaxUT0vbkcf30XaBaHfF4XSfQCXX+zu+GeuFOGw=',
    );
  });

  it('compares hashes in constant time, whatever their lengths', () => {
    const h = '1wDNEaxUT0vbkcf30XaBaHfF4XSfQCXX+zu+GeuFOGw=';
    expect(paytrHashMatches(h, h)).toBe(true);
    expect(paytrHashMatches(h, `${h.slice(0, -2)}x=`)).toBe(false);
    expect(paytrHashMatches(h, '')).toBe(false);
    expect(paytrHashMatches(h, `${h}${h}`)).toBe(false);
  });

  it('sends our reference as a merchant_oid of letters and digits, and reads lira both ways PayTR writes it', () => {
    expect(paytrMerchantOid('balance-m3x9k2-ab12cd34ef56')).toBe('balancem3x9k2ab12cd34ef56');
    expect(liraToKurus('10,8')).toBe(1080);
    expect(liraToKurus('99,90')).toBe(9990);
    expect(liraToKurus('10.80')).toBe(1080);
    expect(liraToKurus('10')).toBe(1000);
    for (const bad of ['10,805', '-1', '1e3', '', 'abc', null]) expect(liraToKurus(bad)).toBeNull();
  });
});

describe('create and the hosted page', () => {
  it('registers the order in kuruş and lira ("TL"), and returns the page at /odeme/guvenli/<token>, in Turkish', async () => {
    const { reference, paymentUrl, transactionId } = await create(1080, 'az');
    expect(transactionId).toBe(paytrMerchantOid(reference));
    expect(paymentUrl).toMatch(new RegExp(`^${sandbox.origin}/odeme/guvenli/[0-9a-f]+$`));
    expect(sandbox.control.order(transactionId)).toMatchObject({
      amountKurus: 1080, currency: 'TL', lang: 'tr', email: 'buyer@example.com', userIp: '203.0.113.7', status: 'waiting',
      basket: [['Bakiye yükleme: 10,00 USD', '10.80', 1]],
    });
    const res = await fetch(paymentUrl);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="tr">');
    expect(html).toContain('10,80 TL');
    expect(html).toContain('EFT / Havale');
    for (const card of ['4355 0843 5508 4358', '4000 0000 0000 0002', '4000 0000 0000 3220']) expect(html).toContain(card);
  });

  it('names the customer by the profile\'s name, else the e-mail, and sends the documented placeholder for the address and phone it does not keep', async () => {
    expect(paytrUserName({ email: 'a@example.com', name: '  Ayşe Yılmaz ' })).toBe('Ayşe Yılmaz');
    expect(paytrUserName({ email: 'a@example.com', name: '   ' })).toBe('a@example.com');
    expect(paytrUserName({ email: 'a@example.com' })).toBe('a@example.com');
    expect(paytrUserName({ email: 'a@example.com', name: 'x'.repeat(80) })).toHaveLength(60);
    const named = await gateway.create({ ...input(`balance-${randomUUID()}`, 500, 'tr'), customer: { email: 'buyer@example.com', ip: '203.0.113.7', name: 'Ayşe Yılmaz' } });
    expect(sandbox.control.order(named.transactionId)).toMatchObject({ userName: 'Ayşe Yılmaz', email: 'buyer@example.com', userAddress: '-', userPhone: '-' });
    const { transactionId } = await create(500);
    expect(sandbox.control.order(transactionId)).toMatchObject({ userName: 'buyer@example.com', userAddress: '-', userPhone: '-' });
  });

  it('opens the page in English for an English-speaking customer', async () => {
    const { paymentUrl } = await create(1, 'en');
    const html = await (await fetch(paymentUrl)).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('0.01 TL');
    expect(html).toContain('Bank transfer (EFT)');
  });

  it('is refused (HTTP 200, status "failed") with wrong keys or a used order id, and without an answer', async () => {
    const reference = `balance-${randomUUID()}`;
    expect(await errorCode(paytrOf(sandbox.origin, { merchantKey: 'nope' }).create(input(reference)))).toBe('PAYMENT_NOT_CREATED:refused');
    expect(await errorCode(paytrOf(sandbox.origin, { merchantId: '999' }).create(input(reference)))).toBe('PAYMENT_NOT_CREATED:refused');
    expect(await errorCode(paytrOf('http://127.0.0.1:1').create(input(reference)))).toBe('PAYMENT_NOT_CREATED:unreachable');
    expect(sandbox.control.orders()).toHaveLength(0);
    await gateway.create(input(reference));
    expect(await errorCode(gateway.create(input(reference)))).toBe('PAYMENT_NOT_CREATED:refused');
  });

  it('refuses what PayTR cannot take before asking it', async () => {
    const base = input(`balance-${randomUUID()}`);
    await expect(gateway.create({ ...base, amountMinor: 10.5 })).rejects.toThrow(RangeError);
    await expect(gateway.create({ ...base, currency: 'AZN' })).rejects.toThrow(RangeError);
    await expect(gateway.create({ ...base, customer: undefined })).rejects.toThrow(RangeError);
  });

  it('a reply that is not JSON, or an HTTP error, is no answer', async () => {
    const garbage = await fakePaytr(200, '<html>Bakımdayız</html>');
    const down = await fakePaytr(503, 'Service Unavailable');
    try {
      expect(await errorCode(paytrOf(garbage.url).create(input('balance-x')))).toBe('PAYMENT_NOT_CREATED:bad_reply');
      expect(await errorCode(paytrOf(down.url).create(input('balance-x')))).toBe('PAYMENT_NOT_CREATED:http');
    } finally {
      await garbage.close();
      await down.close();
    }
  });
});

describe('paying, the notification and the status inquiry', () => {
  it('the test card succeeds: ok redirect, a hashed notification, status success in kuruş and TRY', async () => {
    const { reference, transactionId, paymentUrl } = await create(1080);
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'pending', transactionId, amountMinor: null });
    const res = await payByCard(paymentUrl, '4355 0843 5508 4358');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-success?order=${reference}`);
    const [n] = await sink.waitFor(1);
    expect(n).toMatchObject({ merchant_oid: transactionId, status: 'success', total_amount: '1080', payment_amount: '1080', currency: 'TL', payment_type: 'card' });
    expect(gateway.parseCallback(n!)).toMatchObject({ state: 'success', transactionId, reference: null, amountMinor: 1080, currency: 'TRY' });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'success', transactionId, reference: null, amountMinor: 1080, currency: 'TRY' });
  });

  it('EFT / Havale completes as payment_type eft', async () => {
    const { transactionId, paymentUrl } = await create(2500);
    const res = await fetch(paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'eft' }) });
    expect(res.status).toBe(303);
    const [n] = await sink.waitFor(1);
    expect(n).toMatchObject({ status: 'success', payment_type: 'eft' });
    expect(gateway.parseCallback(n!)).toMatchObject({ state: 'success', amountMinor: 2500 });
    expect(await gateway.status(transactionId)).toMatchObject({ state: 'success', amountMinor: 2500, currency: 'TRY' });
  });

  it('a declined card: fail redirect, a failed notification with PayTR’s reason; the inquiry still finds no payment', async () => {
    const { reference, transactionId, paymentUrl } = await create();
    const res = await payByCard(paymentUrl, TEST_CARDS.declined);
    expect(res.headers.get('location')).toBe(`${SHOP}/payment-error?order=${reference}`);
    const [n] = await sink.waitFor(1);
    expect(n).toMatchObject({ status: 'failed', total_amount: '0', failed_reason_code: '0' });
    expect(gateway.parseCallback(n!)).toMatchObject({ state: 'failed', transactionId, amountMinor: null, code: '0' });
    expect((await gateway.status(transactionId)).state).toBe('pending');
  });

  it('the delayed card stays unpaid for a while, then succeeds and notifies', async () => {
    const { transactionId, paymentUrl } = await create();
    await payByCard(paymentUrl, TEST_CARDS.delayed);
    expect((await gateway.status(transactionId)).state).toBe('pending');
    expect(sink.received).toHaveLength(0);
    const [n] = await sink.waitFor(1, 30_000);
    expect(gateway.parseCallback(n!).state).toBe('success');
    expect((await gateway.status(transactionId)).state).toBe('success');
  });

  it('a notification is sent again until the shop answers exactly OK', async () => {
    const { transactionId } = await create();
    sink.answerWith({ status: 500, body: 'error' }, { status: 200, body: 'received' });
    sandbox.control.complete(transactionId, 'success');
    await sink.waitFor(3);
    await sandbox.control.idle();
    expect(sandbox.control.order(transactionId)!.notifications.map((a) => [a.httpStatus, a.answer])).toEqual([
      [500, 'error'],
      [200, 'received'],
      [200, 'OK'],
    ]);
  });
});

describe('notifications that must not be believed', () => {
  it('a wrong hash, a missing hash or a changed field is SIGNATURE_INVALID', async () => {
    const { transactionId } = await create();
    sandbox.control.set({ notify: 'bad-hash' });
    sandbox.control.complete(transactionId, 'success');
    const [bad] = await sink.waitFor(1);
    expect(await errorCode(Promise.resolve().then(() => gateway.parseCallback(bad!)))).toBe('SIGNATURE_INVALID');
    const good = (await sandbox.control.notify(transactionId, { mode: 'normal' })) && sink.received[1]!;
    expect(gateway.parseCallback(good).state).toBe('success');
    const { hash: _hash, ...unsigned } = good;
    for (const forged of [unsigned, { ...good, total_amount: '999999' }, { ...good, status: 'failed' }, { ...good, merchant_oid: 'other1' }]) {
      expect(await errorCode(Promise.resolve().then(() => gateway.parseCallback(forged)))).toBe('SIGNATURE_INVALID');
    }
  });

  it('compares the order’s amount (payment_amount), not what the customer paid with instalment interest (total_amount)', async () => {
    const { transactionId } = await create(1080);
    sandbox.control.set({ notify: 'tamper-amount' });
    sandbox.control.complete(transactionId, 'success');
    const [n] = await sink.waitFor(1);
    // A correctly hashed notification with another amount: read as it is, for settlement to refuse.
    expect(gateway.parseCallback(n!)).toMatchObject({ state: 'success', amountMinor: 1180 });
    const interest: Record<string, string> = { ...n!, payment_amount: '1080', total_amount: '1150' };
    interest.hash = paytrNotificationHash({ merchant_oid: transactionId, status: 'success', total_amount: '1150' }, sandbox.merchantKey, sandbox.merchantSalt);
    expect(gateway.parseCallback(interest)).toMatchObject({ state: 'success', amountMinor: 1080 });
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
    expect(await errorCode((statusMode === 'timeout' ? impatient : gateway).status(transactionId))).toBe(`PAYMENT_STATUS_UNKNOWN:${reason}`);
  });

  it('a refused inquiry (HTTP 200, status "error" for wrong keys) is not an unpaid order', async () => {
    const { transactionId } = await create();
    sandbox.control.complete(transactionId, 'success');
    expect(await errorCode(paytrOf(sandbox.origin, { merchantKey: 'nope' }).status(transactionId))).toBe('PAYMENT_STATUS_UNKNOWN:refused');
    expect(await errorCode(paytrOf(sandbox.origin, { merchantId: '999' }).status(transactionId))).toBe('PAYMENT_STATUS_UNKNOWN:refused');
  });
});

/** The PayTR sandbox on its own, over HTTP: what it refuses, its page, its controls. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hmac, tokenOf, type Keys } from './protocol';
import { startSandboxPaytr, type SandboxPaytr } from './server';
import { startNotificationSink, type NotificationSink } from './testing';

let paytr: SandboxPaytr;
let sink: NotificationSink;
let keys: Keys;

beforeAll(async () => {
  sink = await startNotificationSink();
  paytr = await startSandboxPaytr({ merchantId: '100200', merchantKey: 'key-1', merchantSalt: 'salt-1', retryDelaysMs: [] });
  keys = { merchantId: paytr.merchantId, merchantKey: paytr.merchantKey, merchantSalt: paytr.merchantSalt };
});
afterAll(async () => {
  await paytr.close();
  await sink.close();
});
beforeEach(async () => {
  await paytr.control.idle();
  paytr.control.reset();
  paytr.setCallbackUrl(sink.url);
  sink.clear();
});

let n = 0;
function tokenRequest(patch: Record<string, string> = {}): Record<string, string> {
  n += 1;
  const f: Record<string, string> = {
    merchant_id: '100200', user_ip: '203.0.113.9', merchant_oid: `order${n}`, email: 'a@example.com', payment_amount: '1999',
    user_basket: Buffer.from(JSON.stringify([['Top-up', '19.99', 1]])).toString('base64'), no_installment: '1', max_installment: '0',
    currency: 'TL', test_mode: '1', user_name: 'a@example.com', user_address: '-', user_phone: '-', lang: 'en',
    merchant_ok_url: 'http://shop.test/ok', merchant_fail_url: 'http://shop.test/fail', ...patch,
  };
  return { ...f, paytr_token: patch.paytr_token ?? tokenOf(keys, f) };
}
const getToken = async (fields: Record<string, string>) =>
  (await (await fetch(`${paytr.origin}/odeme/api/get-token`, { method: 'POST', body: new URLSearchParams(fields) })).json()) as { status: string; token?: string; reason?: string };
const control = (path: string, body?: unknown) =>
  fetch(`${paytr.origin}/__control${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });

describe('get-token', () => {
  it('gives a token for a well-signed request, and refuses the rest with status "failed" and a reason', async () => {
    expect(await getToken(tokenRequest())).toMatchObject({ status: 'success', token: expect.stringMatching(/^[0-9a-f]{48}$/) });
    const refusals = [
      tokenRequest({ paytr_token: hmac('other', 'x') }),
      tokenRequest({ merchant_oid: 'balance-with-hyphens' }),
      tokenRequest({ currency: 'USD' }),
      tokenRequest({ payment_amount: '19.99' }),
      tokenRequest({ user_basket: 'not base64 json' }),
      tokenRequest({ merchant_id: '999' }),
    ];
    for (const fields of refusals) {
      const reply = await getToken(fields);
      expect(reply.status, fields.merchant_oid).toBe('failed');
      expect(reply.reason).toBeTruthy();
    }
    const used = tokenRequest();
    await getToken(used);
    expect(await getToken(used)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/merchant_oid/) });
  });
});

describe('the page and the controls', () => {
  it('a card with errors is shown again with them; a closed order says so', async () => {
    const { token } = await getToken(tokenRequest());
    const page = `${paytr.origin}/odeme/guvenli/${token}`;
    const bad = await fetch(page, { method: 'POST', body: new URLSearchParams({ action: 'card', cc_number: '1234', expiry: '01/20', cvv: '1', cc_owner: '' }) });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    for (const text of ['Enter a 16-digit card number.', 'Enter a future expiry date as MM/YY.', 'Enter the 3 or 4 digits of the CVV.', 'Enter the name on the card.']) expect(html).toContain(text);
    const cancelled = await fetch(page, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'cancel' }) });
    expect(cancelled.headers.get('location')).toBe('http://shop.test/fail');
    const [notification] = await sink.waitFor(1);
    expect(notification).toMatchObject({ status: 'failed', failed_reason_code: '6', total_amount: '0' });
    expect((await fetch(page)).status).toBe(409);
    expect((await fetch(`${paytr.origin}/odeme/guvenli/unknown`)).status).toBe(404);
  });

  it('/__control switches faults, completes orders and sends notifications again; bad input is a 422', async () => {
    const oid = tokenRequest().merchant_oid;
    await getToken({ ...tokenRequest({ merchant_oid: oid }) });
    expect(await (await control('', { notify: 'duplicate', duplicates: 2 })).json()).toMatchObject({ settings: { notify: 'duplicate', duplicates: 2 } });
    expect((await control('/complete', { merchant_oid: oid, outcome: 'eft' })).status).toBe(200);
    expect((await sink.waitFor(2)).map((r) => r.payment_type)).toEqual(['eft', 'eft']);
    expect((await control('/complete', { merchant_oid: oid })).status).toBe(409);
    const again = (await (await control('/notify', { merchant_oid: oid })).json()) as { attempts: { answer: string }[] };
    expect(again.attempts.map((a) => a.answer)).toEqual(['OK', 'OK']);
    expect((await control('', { notify: 'sometimes' })).status).toBe(422);
    expect((await control('/complete', { oid })).status).toBe(422);
    const state = (await (await fetch(`${paytr.origin}/__control`)).json()) as { callbackUrl: string; orders: unknown[] };
    expect(state.callbackUrl).toBe(sink.url);
    expect(state.orders).toHaveLength(1);
    expect((await control('/reset')).status).toBe(200);
    expect(paytr.control.orders()).toHaveLength(0);
  });
});

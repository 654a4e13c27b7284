/** The sandbox gateway's own behaviour: Epoint's wire protocol, the card page, retries and controls. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encode, sign } from './protocol';
import { startSandboxGateway, TEST_CARDS, type SandboxGateway } from './server';
import { startCallbackSink, type CallbackSink } from './testing';

let sb: SandboxGateway;
let sink: CallbackSink;

beforeAll(async () => {
  sink = await startCallbackSink();
  sb = await startSandboxGateway({ publicKey: 'pub-1', privateKey: 'priv-1', callbackUrl: sink.url, retryDelaysMs: [20, 20, 20] });
});
afterAll(async () => {
  await sb.close();
  await sink.close();
});
beforeEach(async () => {
  // Let the previous test's callbacks land before the sink is cleared.
  await sb.control.idle();
  sb.control.reset();
  sink.clear();
});

let seq = 0;
const order = (over: Record<string, unknown> = {}) => ({
  public_key: 'pub-1', amount: '17.17', currency: 'AZN', language: 'en', order_id: `o-${++seq}`,
  description: 'Top-up', success_redirect_url: 'http://shop.test/ok', error_redirect_url: 'http://shop.test/fail', ...over,
});

async function call(path: string, payload: unknown, key = 'priv-1') {
  const data = encode(payload);
  const res = await fetch(`${sb.url}${path}`, { method: 'POST', body: new URLSearchParams({ data, signature: sign(key, data) }) });
  return { http: res.status, body: (await res.json()) as Record<string, unknown> };
}
const control = (path: string, body: unknown) =>
  fetch(`${sb.origin}/__control${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('Epoint API', () => {
  it('creates a payment and reports it through get-status', async () => {
    const created = await call('/request', order({ order_id: 'abc', other_attr: { user: 7 } }));
    expect(created).toMatchObject({ http: 200, body: { status: 'success', redirect_url: `${sb.origin}/pay/${created.body.transaction}` } });
    const status = await call('/get-status', { public_key: 'pub-1', transaction: created.body.transaction });
    expect(status.body).toMatchObject({ status: 'new', amount: 17.17, order_id: 'abc', other_attr: { user: 7 }, code: null });
  });

  it('answers refusals with HTTP 200 and status error', async () => {
    const refused = async (payload: unknown, key?: string) => {
      const { http, body } = await call('/request', payload, key);
      expect(http).toBe(200);
      expect(body.status).toBe('error');
      return String(body.message);
    };
    expect(await refused(order(), 'wrong-key')).toMatch(/signature/i);
    expect(await refused(order({ public_key: 'other' }))).toMatch(/public_key/);
    expect(await refused(order({ currency: 'USD' }))).toMatch(/AZN/);
    expect(await refused(order({ amount: '17.171' }))).toMatch(/amount/);
    expect(await refused(order({ amount: '0.00' }))).toMatch(/amount/);
    expect(await refused(order({ order_id: 'x'.repeat(256) }))).toMatch(/order_id/);
    expect(await refused(order({ success_redirect_url: 'javascript:alert(1)' }))).toMatch(/success_redirect_url/);
    await call('/request', order({ order_id: 'dup' }));
    expect(await refused(order({ order_id: 'dup' }))).toMatch(/already used/);
    const bare = await fetch(`${sb.url}/request`, { method: 'POST', body: new URLSearchParams({ data: 'x' }) });
    expect(await bare.json()).toMatchObject({ status: 'error' });
    expect((await call('/get-status', { public_key: 'pub-1', transaction: 'te1' })).body).toMatchObject({ status: 'error' });
  });
});

describe('card page', () => {
  it('is accessible plain HTML with no external assets or scripts', async () => {
    const { body } = await call('/request', order({ language: 'ru', description: '<b>Top-up</b>' }));
    const html = await (await fetch(String(body.redirect_url))).text();
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('name="viewport"');
    expect(html).toContain('&lt;b&gt;Top-up&lt;/b&gt;');
    for (const id of ['number', 'expiry', 'cvc', 'name']) expect(html).toContain(`<label for="${id}">`);
    expect(html).not.toMatch(/<script|\bsrc=|<link/);
  });

  it('re-renders invalid card details with errors, then closes once paid', async () => {
    const { body } = await call('/request', order());
    const url = String(body.redirect_url);
    const bad = await fetch(url, { method: 'POST', body: new URLSearchParams({ number: '4242', expiry: '13/20', cvc: '1', name: '' }) });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('16-digit card number');
    expect(html).toContain('id="expiry" name="expiry" required inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="5" aria-invalid="true" value="13/20"');
    expect(html).not.toContain('value="4242"');
    const form = new URLSearchParams({ number: TEST_CARDS.success, expiry: '01/39', cvc: '123', name: 'A' });
    expect((await fetch(url, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
    expect((await fetch(url, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(409);
    expect((await fetch(url)).status).toBe(409);
    expect((await fetch(`${sb.origin}/pay/te404`)).status).toBe(404);
  });

  it('declines well-formed cards that are not test cards', async () => {
    const { body } = await call('/request', order());
    const form = new URLSearchParams({ number: '5555 5555 5555 4444', expiry: '01/39', cvc: '123', name: 'A' });
    const res = await fetch(String(body.redirect_url), { method: 'POST', body: form, redirect: 'manual' });
    expect(res.headers.get('location')).toBe('http://shop.test/fail');
    expect(sb.control.payment(String(body.transaction))).toMatchObject({ status: 'error', code: '005' });
  });
});

describe('callbacks', () => {
  it('retries on non-2xx answers and records every attempt', async () => {
    sink.respondWith(500, 503);
    const { body } = await call('/request', order());
    sb.control.complete(String(body.transaction), 'success');
    await sink.waitFor(3);
    await sb.control.idle();
    expect(sb.control.payment(String(body.transaction))?.callbacks.map((c) => c.httpStatus)).toEqual([500, 503, 200]);
  });

  it('gives up after the last retry', async () => {
    sink.respondWith(500, 500, 500, 500, 500);
    const { body } = await call('/request', order());
    sb.control.complete(String(body.transaction), 'declined');
    await sb.control.idle();
    expect(sink.received).toHaveLength(4);
  });
});

describe('HTTP control', () => {
  it('sets faults, completes, replays and resets over HTTP', async () => {
    const set = await control('', { callback: 'duplicate', duplicates: 2, statusMode: '5xx' });
    expect(await set.json()).toMatchObject({ settings: { callback: 'duplicate', duplicates: 2, statusMode: '5xx' } });
    expect((await control('', { callback: 'sometimes' })).status).toBe(422);
    expect((await control('', { duplicate: 2 })).status).toBe(422);

    const { body } = await call('/request', order());
    const transaction = String(body.transaction);
    expect((await fetch(`${sb.url}/get-status`, { method: 'POST' })).status).toBe(503);
    expect((await control('/complete', { transaction, outcome: 'success' })).status).toBe(200);
    await sink.waitFor(2);
    expect((await control('/complete', { transaction })).status).toBe(409);
    expect(await (await control('/callback', { transaction })).json()).toMatchObject({ attempts: [{ httpStatus: 200 }, { httpStatus: 200 }] });

    const state = (await (await fetch(`${sb.origin}/__control`)).json()) as { payments: Array<{ status: string }>; callbackUrl: string };
    expect(state.payments).toMatchObject([{ status: 'success' }]);
    expect(state.callbackUrl).toBe(sink.url);

    expect((await control('/reset', {})).status).toBe(200);
    expect(sb.control.payments()).toHaveLength(0);
    expect(sb.control.settings()).toMatchObject({ callback: 'normal', statusMode: 'normal' });
  });

  it('changes the callback URL over HTTP', async () => {
    await control('', { callbackUrl: null });
    const { body } = await call('/request', order());
    sb.control.complete(String(body.transaction), 'success');
    await sb.control.idle();
    expect(sink.received).toHaveLength(0);
    expect(sb.control.payment(String(body.transaction))?.callbacks[0]).toMatchObject({ url: null, error: 'no callback URL set' });
    await control('', { callbackUrl: sink.url });
  });
});

/** The sandbox Payriff's own behaviour: the v3 wire protocol's refusals, the page, refunds and controls. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandboxPayriff, type SandboxPayriff } from './server';
import { startJsonCallbackSink, type JsonCallbackSink } from './testing';

let sb: SandboxPayriff;
let sink: JsonCallbackSink;

beforeAll(async () => {
  sink = await startJsonCallbackSink();
  sb = await startSandboxPayriff({ secretKey: 'key-1', retryDelaysMs: [] });
});
afterAll(async () => {
  await sb.close();
  await sink.close();
});
beforeEach(async () => {
  await sb.control.idle();
  sb.control.reset();
  sink.clear();
});

let seq = 0;
const order = (over: Record<string, unknown> = {}) => ({
  amount: 17.17, currency: 'AZN', language: 'EN', operation: 'PURCHASE', description: 'Top-up', callbackUrl: sink.url, cardSave: false, ...over,
});

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${sb.url}${path}`, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: 'key-1', 'content-type': 'application/json', 'x-request-rrn': `rrn-${++seq}`, ...headers },
  });
  return { http: res.status, body: (await res.json()) as { code: string; message: string; payload: Record<string, unknown> | null } };
}
const control = (path: string, body: unknown) =>
  fetch(`${sb.origin}/__control${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('order API v3', () => {
  it('creates an order and describes it, with our RRN and metadata', async () => {
    const created = await api('POST', '/api/v3/orders', order({ metadata: { reference: 'balance-1' } }), { 'x-request-rrn': 'balance-1' });
    expect(created).toMatchObject({ http: 200, body: { code: '00000', payload: { paymentUrl: expect.stringMatching(/\/pay\/ORD-/) } } });
    const orderId = String(created.body.payload!.orderId);
    const info = await api('GET', `/api/v3/orders/${orderId}`);
    expect(info.body.payload).toMatchObject({ orderId, amount: 17.17, currencyType: 'AZN', paymentStatus: 'CREATED', metadata: '{"reference":"balance-1"}', transactions: [] });
  });

  it('answers refusals with HTTP 200 and another code; a wrong key with 401', async () => {
    const refused = async (body: unknown, headers?: Record<string, string>) => {
      const { http, body: reply } = await api('POST', '/api/v3/orders', body, headers);
      expect(http).toBe(200);
      expect(reply.code).not.toBe('00000');
      return reply.message;
    };
    expect(await refused(order({ amount: 17.171 }))).toMatch(/amount/);
    expect(await refused(order({ amount: 0 }))).toMatch(/amount/);
    expect(await refused(order({ currency: 'USD' }))).toMatch(/USD/);
    expect(await refused(order({ operation: 'PRE_AUTH' }))).toMatch(/operation/);
    expect(await refused(order({ language: 'TR' }))).toMatch(/language/);
    expect(await refused(order({ callbackUrl: 'javascript:alert(1)' }))).toMatch(/callbackUrl/);
    expect(await refused(order({ unknownField: 1 }))).toMatch(/unknownField/);
    await api('POST', '/api/v3/orders', order(), { 'x-request-rrn': 'same' });
    expect(await refused(order(), { 'x-request-rrn': 'same' })).toMatch(/X-REQUEST-RRN/);
    expect((await api('GET', '/api/v3/orders/ORD-NONE')).body.code).not.toBe('00000');
    for (const authorization of ['key-2', 'Bearer key-1', '']) {
      const res = await api('POST', '/api/v3/orders', order(), { authorization });
      expect(res).toMatchObject({ http: 401, body: { code: '14010' } });
    }
    expect(sb.control.orders()).toHaveLength(1);
  });

  it('refunds a paid order up to what was paid, in parts; without an amount what is left', async () => {
    const created = await api('POST', '/api/v3/orders', order({ amount: 10 }));
    const orderId = String(created.body.payload!.orderId);
    expect((await api('POST', '/api/v3/refund', { orderId, amount: 1 })).body.code).not.toBe('00000');
    sb.control.complete(orderId, 'success');
    expect((await api('POST', '/api/v3/refund', { orderId, amount: 10.01 })).body.message).toMatch(/exceeds/);
    expect((await api('POST', '/api/v3/refund', { orderId, amount: 2.5 })).body.code).toBe('00000');
    expect(sb.control.order(orderId)).toMatchObject({ status: 'PARTIAL_REFUND', refundedQepik: 250 });
    expect((await api('POST', '/api/v3/refund', { orderId })).body.code).toBe('00000');
    expect(sb.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 1000 });
    expect((await api('POST', '/api/v3/refund', { orderId, amount: 0.01 })).body.code).not.toBe('00000');
  });

  it('with refundMode lost-reply makes the refund but never answers: the order reads REFUNDED', async () => {
    const created = await api('POST', '/api/v3/orders', order({ amount: 4 }));
    const orderId = String(created.body.payload!.orderId);
    sb.control.complete(orderId, 'success');
    sb.control.set({ refundMode: 'lost-reply' });
    const giveUp = new AbortController();
    const outcome = fetch(`${sb.url}/api/v3/refund`, {
      method: 'POST', body: JSON.stringify({ orderId }), headers: { authorization: 'key-1', 'content-type': 'application/json' }, signal: giveUp.signal,
    }).then(() => 'answered', () => 'no answer');
    // However long a busy machine takes to get the call there: the refund is made, no answer comes.
    await vi.waitFor(() => expect(sb.control.order(orderId)).toMatchObject({ status: 'REFUNDED', refundedQepik: 400 }), { timeout: 30_000, interval: 20 });
    setTimeout(() => giveUp.abort(), 300);
    expect(await outcome).toBe('no answer');
    expect((await api('GET', `/api/v3/orders/${orderId}`)).body.payload).toMatchObject({ paymentStatus: 'REFUNDED' });
  });
});

describe('payment page', () => {
  it('shows the order in its language, with no scripts; re-renders bad card details; closes once paid', async () => {
    const created = await api('POST', '/api/v3/orders', order({ language: 'RU', description: '<b>Top-up</b>', redirectUrl: 'http://shop.test/back' }));
    const url = String(created.body.payload!.paymentUrl);
    const html = await (await fetch(url)).text();
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('&lt;b&gt;Top-up&lt;/b&gt;');
    expect(html).not.toMatch(/<script|\bsrc=|<link/);
    const bad = await fetch(url, { method: 'POST', body: new URLSearchParams({ number: '4242', expiry: '13/20', cvc: '1', name: '', action: 'pay' }) });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('role="alert"');
    const paid = await fetch(url, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'google-pay' }) });
    expect(paid.headers.get('location')).toBe('http://shop.test/back');
    expect((await fetch(url)).status).toBe(409);
    expect((await fetch(`${sb.origin}/pay/ORD-NONE`)).status).toBe(404);
  });
});

describe('HTTP control', () => {
  it('sets faults, completes, replays, sends notifications elsewhere and resets over HTTP', async () => {
    const set = await control('', { callback: 'duplicate', duplicates: 2, statusMode: '5xx', refundMode: 'error-code' });
    expect(await set.json()).toMatchObject({ settings: { callback: 'duplicate', duplicates: 2, statusMode: '5xx', refundMode: 'error-code' } });
    expect((await control('', { callback: 'bad-signature' })).status).toBe(422);
    expect((await control('', { duplicate: 2 })).status).toBe(422);

    const orderId = String((await api('POST', '/api/v3/orders', order())).body.payload!.orderId);
    expect((await fetch(`${sb.url}/api/v3/orders/${orderId}`, { headers: { authorization: 'key-1' } })).status).toBe(503);
    expect((await control('/complete', { orderId, outcome: 'declined' })).status).toBe(200);
    const copies = await sink.waitFor(2);
    expect(copies[0]).toMatchObject({ code: '00000', payload: { orderId, paymentStatus: 'DECLINED', amount: 17.17, currencyType: 'AZN' } });
    expect((await control('/complete', { orderId })).status).toBe(409);
    expect(await (await control('/callback', { orderId })).json()).toMatchObject({ attempts: [{ httpStatus: 200 }, { httpStatus: 200 }] });

    await control('', { callback: 'tamper-currency', callbackUrl: `${sink.url}?elsewhere` });
    await control('/callback', { orderId });
    expect(sink.received.at(-1)).toMatchObject({ payload: { orderId, currencyType: 'USD' } });
    const state = (await (await fetch(`${sb.origin}/__control`)).json()) as { orders: Array<{ callbacks: Array<{ url: string }> }>; callbackUrl: string };
    expect(state.callbackUrl).toBe(`${sink.url}?elsewhere`);
    expect(state.orders[0]!.callbacks.at(-1)!.url).toBe(`${sink.url}?elsewhere`);

    expect((await control('/reset', {})).status).toBe(200);
    expect(sb.control.orders()).toHaveLength(0);
    expect(sb.control.settings()).toMatchObject({ callback: 'normal', statusMode: 'normal', refundMode: 'normal' });
    await control('', { callbackUrl: null });
  });
});

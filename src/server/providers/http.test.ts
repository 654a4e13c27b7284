import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPacer, createProvider } from './index';
import { looseDecimal, optionalInt, looseBool, NO_FUNDS_WORDS } from './http';
import { isRefusal, ProviderError, type ProviderErrorKind } from './types';

/** A provider stand-in that answers each action with a fixed status and body. */
let replies: Record<string, { status?: number; body: string; headers?: Record<string, string> }> = {};
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const params = new URLSearchParams(req.url?.split('?')[1] ?? '');
      for (const [k, v] of new URLSearchParams(text)) params.set(k, v);
      const reply = replies[params.get('action') ?? ''] ?? { status: 404, body: 'Not Found' };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const qqtube = () => createProvider({ protocol: 'qqtube', url, key: 'k', timeoutMs: 30_000 });
const v2 = () => createProvider({ protocol: 'smm-v2', url, key: 'k', timeoutMs: 30_000 });
const order = { serviceId: '1', link: 'https://t.me/x', quantity: 10, params: {} };

async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind, messages?: string[]): Promise<ProviderError> {
  const e = await promise.then(() => expect.unreachable('should fail'), (err: unknown) => err);
  expect(e).toBeInstanceOf(ProviderError);
  expect((e as ProviderError).kind).toBe(kind);
  if (messages) expect((e as ProviderError).messages).toEqual(messages);
  return e as ProviderError;
}

describe('QQTube reply rules', () => {
  it('refuses a success reply carrying a message id other than 100', async () => {
    replies = { add: { body: '{"status":"success","messages":[{"id":"100","message":"ok"},{"id":7,"message":"Link is private"}],"id_service_submission":5}' } };
    await expectKind(qqtube().add(order), 'refused', ['ok', 'Link is private']);
  });

  it("reads an order's cost from total_cost less refund_total, exactly; none when either is not an amount", async () => {
    const charge = async (stats: Record<string, unknown>) => {
      replies = { stats: { body: JSON.stringify({ status: 'success', messages: [{ id: 100, message: 'ok' }], data: { wanted_count: 10, start_count: 0, current_count: 0, status: { id_status: 2, name: 'In progress' }, ...stats } }) } };
      const state = (await qqtube().status(['7'])).get('7');
      return state && 'charge' in state ? [state.charge, state.currency] : state;
    };
    expect(await charge({ total_cost: '0.1235' })).toEqual(['0.1235', null]);
    expect(await charge({ total_cost: 0.5, refund_total: null })).toEqual(['0.5', null]);
    expect(await charge({ total_cost: '0.1235', refund_total: '0.0617' })).toEqual(['0.0618', null]);
    expect(await charge({ total_cost: '0.12', refund_total: '0.0001' })).toEqual(['0.1199', null]);
    expect(await charge({ total_cost: '0.1235', refund_total: '0.1235' })).toEqual(['0.0000', null]);
    expect(await charge({ total_cost: '0.1', refund_total: '0.2' })).toEqual([null, null]);
    expect(await charge({ total_cost: '0.1', refund_total: 'soon' })).toEqual([null, null]);
    expect(await charge({ total_cost: '1e-3' })).toEqual([null, null]);
    expect(await charge({})).toEqual([null, null]);
  });

  it('refuses a success without a submission id', async () => {
    replies = { add: { body: '{"status":"success","messages":[{"id":100,"message":"ok"}]}' } };
    await expectKind(qqtube().add(order), 'refused', ['Sifariş ID alınmadı. Yenidən cəhd edin.']);
  });

  it('refuses an error without messages with the default text', async () => {
    replies = { add: { body: '{"status":"error"}' } };
    await expectKind(qqtube().add(order), 'refused', ['Sifariş verilmədi. Yenidən cəhd edin.']);
  });

  it('gives the order a note code, not a message, when its refusal has no words of the provider', async () => {
    const noteOf = (p: Promise<unknown>) => p.then(() => expect.unreachable('should fail'), (err: ProviderError) => err.note);
    replies = { add: { body: '{"status":"error"}' } };
    expect(await noteOf(qqtube().add(order))).toBe('provider_refused');
    replies = { add: { body: '{"status":"success","messages":[{"id":100,"message":"ok"}]}' } };
    expect(await noteOf(qqtube().add(order))).toBe('provider_never_received');
    replies = { add: { body: '{"status":"error","messages":[{"id":7,"message":"Link is private"}]}' } };
    expect(await noteOf(qqtube().add(order))).toBeUndefined();
  });

  it('accepts numbers as numbers, extra fields and a string id', async () => {
    replies = { add: { body: '{"status":"success","messages":[{"id":100,"message":"ok","extra":1}],"id_service_submission":123,"x":true}' } };
    expect(await qqtube().add(order)).toEqual({ providerOrderId: '123' });
  });

  it('a reply without the envelope is a bad reply; a 4xx page is a refusal', async () => {
    replies = { funds: { body: '[1,2]' } };
    await expectKind(qqtube().balance(), 'bad_reply');
    replies = { funds: { status: 200, body: '{"status":"success","funds":"abc"}' } };
    await expectKind(qqtube().balance(), 'bad_reply');
    replies = { funds: { status: 405, body: 'Invalid access method' } };
    await expectKind(qqtube().balance(), 'refused', ['HTTP 405', 'Invalid access method']);
  });

  it('skips services it cannot normalize and keeps the rest', async () => {
    const good = { id_service: 9, platform: 'Instagram', public_name: 'IG Likes', type_name: 'Likes', amount_minimum: '10', amount_increment: null, prices: [{ minimum: 10, maximum: '1000', price: 1.5, pricing_per: '1000' }], params: null };
    replies = { services: { body: JSON.stringify({ status: 'success', services: [good, { id_service: 10 }] }) } };
    const list = await qqtube().services();
    expect(list).toEqual([
      expect.objectContaining({ id: '9', platform: 'instagram', amountIncrement: 1, tiers: [{ minimum: 10, maximum: 1000, price: '1.5', pricingPer: 1000 }] }),
    ]);
  });
});

describe('v2 reply rules', () => {
  it('an add reply without an order id is a bad reply (the order may exist)', async () => {
    replies = { add: { body: '{"status":"ok"}' } };
    await expectKind(v2().add(order), 'bad_reply');
  });

  it('a top-level error is a refusal', async () => {
    replies = { add: { body: '{"error":"You have active order with this link. Please wait until order being completed."}' } };
    await expectKind(v2().add(order), 'refused', ['You have active order with this link. Please wait until order being completed.']);
  });

  it('reads statuses with numbers and nulls, leaving out malformed entries', async () => {
    replies = {
      status: { body: '{"1":{"charge":0.5,"start_count":null,"status":"In progress","remains":40},"2":{"error":"Incorrect order ID"},"3":"??"}' },
    };
    const states = await v2().status(['1', '2', '3']);
    expect(states.get('1')).toEqual({ status: 'in_progress', startCount: null, remains: 40, currentCount: null, delivered: null, raw: 'In progress', charge: '0.5', currency: null });
    expect(states.get('2')).toEqual({ error: 'Incorrect order ID' });
    expect(states.has('3')).toBe(false);
  });
});

describe('why a call failed, in either protocol', () => {
  const SHORT = ['Not enough funds on balance', 'NOT ENOUGH FUNDS', 'Insufficient balance', 'insufficient funds on your account', 'Low balance', 'Your balance is not enough for this order', "You don't have enough funds"];

  it('a v2 refusal in the words of a short balance is no_funds, still coded as a refusal', async () => {
    for (const words of SHORT) {
      replies = { add: { body: JSON.stringify({ error: words }) } };
      const e = await expectKind(v2().add(order), 'no_funds', [words]);
      expect(e.code).toBe('PROVIDER_REFUSED');
      expect(isRefusal(e)).toBe(true);
    }
    replies = { add: { body: '{"error":"Incorrect link"}' } };
    expect(isRefusal(await expectKind(v2().add(order), 'refused', ['Incorrect link']))).toBe(true);
  });

  it('a QQTube-style refusal in the words of a short balance is no_funds', async () => {
    replies = { add: { body: '{"status":"error","messages":[{"id":70,"message":"Insufficient balance"}]}' } };
    await expectKind(qqtube().add(order), 'no_funds', ['Insufficient balance']);
    replies = { add: { body: '{"status":"error","message":"Not enough funds on balance"}' } };
    await expectKind(qqtube().add(order), 'no_funds', ['Not enough funds on balance']);
    replies = { add: { body: '{"status":"error","messages":[{"id":41,"message":"Incorrect link"}]}' } };
    await expectKind(qqtube().add(order), 'refused', ['Incorrect link']);
    // The adapter's own words when the provider gave none are a plain refusal.
    replies = { add: { body: '{"status":"error"}' } };
    await expectKind(qqtube().add(order), 'refused');
  });

  it('matches balance words only', () => {
    for (const words of SHORT) expect(NO_FUNDS_WORDS.test(words), words).toBe(true);
    for (const words of ['Incorrect service ID', 'Quantity less than minimal 10', 'Balance updated', 'Service temporarily unavailable', 'Too many requests']) {
      expect(NO_FUNDS_WORDS.test(words), words).toBe(false);
    }
  });

  it('a 5xx is unavailable, not no_answer, in both protocols; it is not a refusal', async () => {
    replies = { add: { status: 502, body: '<html>Bad gateway</html>' }, funds: { status: 503, body: '{"status":"error"}' } };
    const e = await expectKind(v2().add(order), 'unavailable', ['HTTP 502']);
    expect(e.code).toBe('PROVIDER_NO_ANSWER');
    expect(isRefusal(e)).toBe(false);
    await expectKind(qqtube().add(order), 'unavailable', ['HTTP 502']);
    await expectKind(qqtube().balance(), 'unavailable', ['HTTP 503']);
  });

  it('a v2 "Too many requests" is rate_limited with HTTP 200 or 429, honouring Retry-After when given', async () => {
    replies = { add: { body: '{"error":"Too many requests"}' } };
    expect((await expectKind(v2().add(order), 'rate_limited', ['Too many requests'])).retryAfterMs).toBe(1000);
    replies = { add: { body: '{"error":"Too many requests. Try again later."}', headers: { 'retry-after': '3' } } };
    expect((await expectKind(v2().add(order), 'rate_limited')).retryAfterMs).toBe(3000);
    replies = { add: { status: 429, body: '{"error":"Too many requests"}' } };
    expect((await expectKind(v2().add(order), 'rate_limited')).retryAfterMs).toBe(1000);
    replies = { add: { status: 429, body: '{"error":"Too many requests"}', headers: { 'retry-after': '7' } } };
    const e = await expectKind(v2().add(order), 'rate_limited');
    expect(e.retryAfterMs).toBe(7000);
    expect(isRefusal(e)).toBe(false);
    // The client's pacer is told, so its later calls wait too.
    const pacer = createPacer(0);
    replies = { balance: { body: '{"error":"Too many requests"}', headers: { 'retry-after': '2' } } };
    await expectKind(createProvider({ protocol: 'smm-v2', url, key: 'k', timeoutMs: 30_000, pacer }).balance(), 'rate_limited');
    expect(pacer.stats.rateLimited).toBe(1);
  });
});

describe('tolerant field parsers', () => {
  it('normalizes decimals, integers and booleans', () => {
    expect(looseDecimal.parse('1.50')).toBe('1.5');
    expect(looseDecimal.parse(0.1)).toBe('0.1');
    expect(looseDecimal.parse('0.123456789')).toBe('0.12345679');
    expect(looseDecimal.safeParse('-1').success).toBe(false);
    expect(looseDecimal.safeParse('abc').success).toBe(false);
    expect(optionalInt.parse('')).toBeNull();
    expect(optionalInt.parse(' 42 ')).toBe(42);
    expect(optionalInt.parse(undefined)).toBeNull();
    expect([1, '1', true, 'true', 0, '0', undefined, 'no'].map((v) => looseBool.parse(v))).toEqual([
      true, true, true, true, false, false, false, false,
    ]);
  });
});

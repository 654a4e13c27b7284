import Big from 'big.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from './index';

/**
 * The sandbox's SMM v2 endpoint as the clients above it depend on it: a PerfectPanel panel's
 * money (5-decimal `charge`, `currency`), its refusals (its words, HTTP 200), drip-feed orders,
 * and refill and cancel by the services' flags.
 */

interface V2Service { service: number; name: string; type: string; rate: string; min: string; max: string; refill: boolean; cancel: boolean; dripfeed: boolean }

let sb: SandboxProvider;
let services: V2Service[];
let linkNo = 0;
const link = (tag = 'v2') => `https://www.instagram.com/p/${tag}${++linkNo}/`;

async function call(fields: Record<string, string | number>, init: { method?: string; type?: string; body?: BodyInit } = {}) {
  const body = init.body ?? new URLSearchParams(Object.entries({ key: sb.apiKey, ...fields }).map(([k, v]) => [k, String(v)]));
  const res = await fetch(sb.v2Url, { method: init.method ?? 'POST', body, headers: init.type ? { 'content-type': init.type } : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

const plain = (where: (s: V2Service) => boolean) => services.find((s) => s.type === 'Default' && where(s))!;

beforeAll(async () => {
  sb = await startSandboxProvider({ clock: 'manual', orderSeconds: 100, dripMinuteMs: 1000, serviceCount: 320, balance: '10000' });
  services = (await call({ action: 'services' })).body;
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset({ orders: true }));

describe('sandbox SMM v2: money', () => {
  it('charges rate × quantity / 1000 exactly, answers charge with 5 decimals and USD, and the balance with 5 decimals', async () => {
    const s = plain((x) => Number(x.min) <= 123 && Number(x.max) >= 123 && /\.\d*[1-9]$/.test(x.rate));
    const { body } = await call({ action: 'add', service: s.service, link: link(), quantity: 123 });
    const exact = new Big(s.rate).times(123).div(1000);
    const status = (await call({ action: 'status', order: body.order })).body;
    expect(status).toEqual({ charge: exact.round(5, Big.roundHalfUp).toFixed(5), start_count: '0', status: 'Pending', remains: '123', currency: 'USD' });
    expect(status.charge).toMatch(/^\d+\.\d{5}$/);
    const balance = (await call({ action: 'balance' })).body;
    expect(balance).toEqual({ balance: new Big('10000').minus(status.charge).toFixed(5), currency: 'USD' });
  });

  it('answers charge net of what a partial order gave back', async () => {
    const s = plain((x) => Number(x.max) >= 1000);
    const { body } = await call({ action: 'add', service: s.service, link: link(), quantity: 1000 });
    const charged = (await call({ action: 'status', order: body.order })).body.charge;
    sb.control.setOrderState(String(body.order), 'partial', 400);
    const after = (await call({ action: 'status', order: body.order })).body;
    expect(after).toMatchObject({ status: 'Partial', remains: '600' });
    expect(after.charge).toBe(new Big(charged).minus(new Big(charged).times(600).div(1000).round(5, Big.roundDown)).toFixed(5));
  });
});

describe('sandbox SMM v2: the account’s balance', () => {
  const balance = async () => (await call({ action: 'balance' })).body.balance as string;
  const chargeOf = async (order: number) => (await call({ action: 'status', order })).body.charge as string;

  it('takes each order’s charge, refuses an order that costs more than what is left, and takes it once money is put back', async () => {
    const s = plain((x) => Number(x.max) >= 1000);
    sb.control.setBalance('5');
    const first = (await call({ action: 'add', service: s.service, link: link(), quantity: 1000 })).body.order;
    const cost = await chargeOf(first);
    expect(await balance()).toBe(new Big(5).minus(cost).toFixed(5));

    sb.control.setBalance(new Big(cost).minus('0.00001').toFixed(5));
    const orders = sb.control.orders().length;
    expect(await call({ action: 'add', service: s.service, link: link(), quantity: 1000 })).toEqual({ status: 200, body: { error: 'Not enough funds on balance' } });
    expect(sb.control.orders()).toHaveLength(orders);
    expect(await balance()).toBe(new Big(cost).minus('0.00001').toFixed(5));

    sb.control.setBalance(cost);
    expect((await call({ action: 'add', service: s.service, link: link(), quantity: 1000 })).body.order).toEqual(expect.any(Number));
    expect(await balance()).toBe('0.00000');
  });

  it('gives back what a cancelled or partial order did not deliver, as remains × rate', async () => {
    const s = plain((x) => x.cancel && Number(x.max) >= 1000);
    sb.control.setBalance('100');
    const a = (await call({ action: 'add', service: s.service, link: link(), quantity: 1000 })).body.order;
    const b = (await call({ action: 'add', service: s.service, link: link(), quantity: 1000 })).body.order;
    const cost = await chargeOf(a);
    expect(await balance()).toBe(new Big(100).minus(cost).minus(cost).toFixed(5));
    expect((await call({ action: 'cancel', orders: String(a) })).body).toEqual([{ order: a, cancel: 1 }]);
    expect(await balance()).toBe(new Big(100).minus(cost).toFixed(5));
    sb.control.setOrderState(String(b), 'partial', 250);
    const back = new Big(cost).times(750).div(1000).round(5, Big.roundDown);
    expect(await balance()).toBe(new Big(100).minus(cost).plus(back).toFixed(5));
    expect(await chargeOf(b)).toBe(new Big(cost).minus(back).toFixed(5));
  });

  it('with no balance set never runs out: it reads one billion less what the orders cost', async () => {
    sb.control.setBalance(null);
    expect(await balance()).toBe('1000000000.00000');
    const s = plain(() => true);
    const order = (await call({ action: 'add', service: s.service, link: link(), quantity: s.min })).body.order;
    expect(await balance()).toBe(new Big('1000000000').minus(await chargeOf(order)).toFixed(5));
    // Back to its starting balance with the orders cleared.
    sb.control.reset({ orders: true });
    expect(await balance()).toBe('10000.00000');
  });
});

describe('sandbox SMM v2: refusals in turn and prices by factor', () => {
  it('refuses every N-th order it would take, in the panels’ ordinary words, taking no money and counting only good orders', async () => {
    const s = plain(() => true);
    sb.control.setRefuseEvery(3);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 7; i++) {
        if (i === 4) expect((await call({ action: 'add', service: s.service, link: 'not a link', quantity: s.min })).body).toEqual({ error: 'Incorrect link' });
        const { body } = await call({ action: 'add', service: s.service, link: link(), quantity: s.min });
        outcomes.push(body.error ?? 'ok');
      }
      const no = 'Service temporarily unavailable';
      expect(outcomes).toEqual(['ok', 'ok', no, 'ok', 'ok', no, 'ok']);
      expect(sb.control.orders()).toHaveLength(5);
      const spent = sb.control.orders().reduce((sum, o) => sum.plus(o.charge), new Big(0));
      expect((await call({ action: 'balance' })).body.balance).toBe(new Big(10000).minus(spent).toFixed(5));
      // A reset counts from the start again; 0 refuses none.
      sb.control.reset();
      expect((await call({ action: 'add', service: s.service, link: link(), quantity: s.min })).body.order).toEqual(expect.any(Number));
      sb.control.setRefuseEvery(0);
      for (let i = 0; i < 3; i++) expect((await call({ action: 'add', service: s.service, link: link(), quantity: s.min })).body.order).toEqual(expect.any(Number));
    } finally {
      sb.control.setRefuseEvery(0);
    }
  });

  it('sells the same services at a price factor, and charges at those prices', async () => {
    sb.control.setPriceFactor('1.15');
    try {
      const priced = (await call({ action: 'services' })).body as V2Service[];
      expect(priced.map((x) => x.service)).toEqual(services.map((x) => x.service));
      priced.forEach((x, i) => expect(new Big(x.rate).eq(new Big(services[i]!.rate).times('1.15')), `${services[i]!.rate} → ${x.rate}`).toBe(true));
      const s = priced.find((x) => x.type === 'Default' && Number(x.min) <= 123 && Number(x.max) >= 123)!;
      const { body } = await call({ action: 'add', service: s.service, link: link(), quantity: 123 });
      expect((await call({ action: 'status', order: body.order })).body.charge).toBe(new Big(s.rate).times(123).div(1000).round(5, Big.roundHalfUp).toFixed(5));
    } finally {
      sb.control.setPriceFactor('1');
    }
    expect((await call({ action: 'services' })).body).toEqual(services);
  });
});

describe('sandbox SMM v2: refusals', () => {
  it('refuses in the panels’ words with HTTP 200, whatever was wrong', async () => {
    const s = plain((x) => Number(x.min) > 1);
    const refusals: [Record<string, string | number>, string][] = [
      [{ action: 'add', link: link(), quantity: s.min }, 'Incorrect service ID'],
      [{ action: 'add', service: 1, link: link(), quantity: s.min }, 'Incorrect service ID'],
      [{ action: 'add', service: s.service, link: 'not a link', quantity: s.min }, 'Incorrect link'],
      [{ action: 'add', service: s.service, link: link(), quantity: Number(s.min) - 1 }, `Quantity less than minimal ${s.min}`],
      [{ action: 'add', service: s.service, link: link(), quantity: Number(s.max) + 1 }, `Quantity more than maximum ${s.max}`],
      [{ action: 'add', service: s.service, link: link(), quantity: 'many' }, 'Incorrect request'],
      [{ action: 'add', service: s.service, link: link() }, 'Incorrect request'],
      [{ action: 'status', order: 1 }, 'Incorrect order ID'],
      [{ action: 'nothing' }, 'Incorrect request'],
      [{ action: 'balance', key: 'wrong' }, 'Incorrect API key'],
    ];
    for (const [fields, error] of refusals) expect(await call(fields), JSON.stringify(fields)).toEqual({ status: 200, body: { error } });
    sb.control.setBalance('0.00001');
    expect(await call({ action: 'add', service: s.service, link: link(), quantity: s.min })).toEqual({ status: 200, body: { error: 'Not enough funds on balance' } });
  });

  it('refuses a body it cannot read, or another method, the same way', async () => {
    expect(await call({}, { type: 'application/json', body: '{"key":' })).toEqual({ status: 200, body: { error: 'Incorrect request' } });
    expect(await call({}, { type: 'application/json', body: '[1]' })).toEqual({ status: 200, body: { error: 'Incorrect request' } });
    expect(await call({}, { method: 'PUT', body: 'key=x' })).toEqual({ status: 200, body: { error: 'Incorrect request' } });
    // A multipart form is read like any form.
    const form = new FormData();
    form.set('key', sb.apiKey);
    form.set('action', 'balance');
    expect(await call({}, { body: form })).toMatchObject({ status: 200, body: { currency: 'USD' } });
  });

  it('takes one order of a service on a link at a time: another waits until the first is done', async () => {
    const s = plain(() => true);
    const target = link('active');
    const first = await call({ action: 'add', service: s.service, link: target, quantity: s.min });
    expect(first.body.order).toEqual(expect.any(Number));
    const again = await call({ action: 'add', service: s.service, link: target.replace('https://www.', 'http://').toUpperCase(), quantity: s.min });
    expect(again).toEqual({ status: 200, body: { error: 'You have active order with this link. Please wait until order being completed.' } });
    // Another service on the same link is another order.
    const other = plain((x) => x.service !== s.service);
    expect((await call({ action: 'add', service: other.service, link: target, quantity: other.min })).body.order).toEqual(expect.any(Number));
    sb.control.advance(100_000);
    expect((await call({ action: 'status', order: first.body.order })).body.status).toBe('Completed');
    expect((await call({ action: 'add', service: s.service, link: target, quantity: s.min })).body.order).toEqual(expect.any(Number));
  });
});

describe('sandbox SMM v2: drip-feed', () => {
  it('takes runs and interval as one order of runs × quantity whose status goes through the runs, never refusing its own', async () => {
    const s = plain((x) => x.dripfeed);
    const quantity = Number(s.min) * 10;
    const target = link('drip');
    const { body } = await call({ action: 'add', service: s.service, link: target, quantity, runs: 3, interval: 50 });
    const id = String(body.order);
    expect(sb.control.orders()).toHaveLength(1);
    expect(sb.control.order(id)).toMatchObject({ quantity: quantity * 3, runs: 3, interval: 50 });
    const status = async () => (await call({ action: 'status', order: id })).body;
    expect(await status()).toMatchObject({ status: 'Pending', remains: String(quantity * 3), charge: new Big(s.rate).times(quantity * 3).div(1000).round(5, Big.roundHalfUp).toFixed(5) });

    // A run lasts 100 s and the next starts 50 s (50 "minutes" of 1 s) after it.
    sb.control.advance(100_000); // run 1 done, run 2 half way, run 3 not started
    const second = await status();
    expect(second.status).toBe('In progress');
    expect(Number(second.remains)).toBeLessThan(quantity * 2);
    expect(Number(second.remains)).toBeGreaterThan(quantity);
    sb.control.advance(50_000); // run 2 done, run 3 half way
    const third = await status();
    expect(third.status).toBe('In progress');
    expect(Number(third.remains)).toBeLessThan(quantity);
    expect(Number(third.remains)).toBeGreaterThan(0);
    // Another order on the link waits for the whole drip-feed.
    expect((await call({ action: 'add', service: s.service, link: target, quantity })).body).toEqual({ error: 'You have active order with this link. Please wait until order being completed.' });
    sb.control.advance(50_000);
    expect(await status()).toMatchObject({ status: 'Completed', remains: '0' });
    expect(sb.control.calls()['smm-v2:add']).toBe(2);
  });

  it('refuses a drip-feed of a service that has none, and takes runs of 1 or no number as a plain order', async () => {
    const none = plain((x) => !x.dripfeed);
    expect((await call({ action: 'add', service: none.service, link: link(), quantity: none.min, runs: 3, interval: 5 })).body).toEqual({ error: 'Drip-feed is not available for this service' });
    const plainOrder = await call({ action: 'add', service: none.service, link: link(), quantity: none.min, runs: 'undefined', interval: '' });
    expect(sb.control.order(String(plainOrder.body.order))).toMatchObject({ quantity: Number(none.min) });
    const drip = plain((x) => x.dripfeed);
    const one = await call({ action: 'add', service: drip.service, link: link(), quantity: drip.min, runs: 1, interval: 5 });
    expect(sb.control.order(String(one.body.order))?.runs).toBeUndefined();
  });
});

describe('sandbox SMM v2: refill and cancel', () => {
  it('cancels a list of orders, answering each in the reference’s array shape', async () => {
    const yes = plain((x) => x.cancel);
    const no = plain((x) => !x.cancel);
    const a = (await call({ action: 'add', service: yes.service, link: link(), quantity: yes.min })).body.order;
    const b = (await call({ action: 'add', service: no.service, link: link(), quantity: no.min })).body.order;
    const reply = await call({ action: 'cancel', orders: `${a},${b},77` });
    expect(reply).toEqual({
      status: 200,
      body: [
        { order: a, cancel: 1 },
        { order: b, cancel: { error: 'Cancel is not available for this order' } },
        { order: 77, cancel: { error: 'Incorrect order ID' } },
      ],
    });
    expect((await call({ action: 'status', order: a })).body).toMatchObject({ status: 'Canceled', charge: '0.00000' });
  });

  it('refills completed orders of services with refill only', async () => {
    const yes = plain((x) => x.refill);
    const no = plain((x) => !x.refill);
    const a = (await call({ action: 'add', service: yes.service, link: link(), quantity: yes.min })).body.order;
    const b = (await call({ action: 'add', service: no.service, link: link(), quantity: no.min })).body.order;
    expect((await call({ action: 'refill', order: a })).body).toEqual({ error: 'Refill is not available for this order' });
    sb.control.advance(100_000);
    expect((await call({ action: 'refill', order: a })).body).toEqual({ refill: expect.any(Number) });
    expect((await call({ action: 'refill', order: b })).body).toEqual({ error: 'Refill is not available for this order' });
  });
});

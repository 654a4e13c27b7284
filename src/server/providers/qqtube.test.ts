import Big from 'big.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogServiceSchema, KNOWN_PLATFORMS, type CatalogService } from '../../core/catalog';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createProvider } from './index';
import { ProviderError, type ProviderErrorKind, type SmmProvider } from './types';
import { sandboxClient } from '../testing/sandbox';

let sandbox: SandboxProvider;
let provider: SmmProvider;
/** A client that gives up quickly, for the faults that leave a call unanswered. */
let hasty: SmmProvider;
let services: CatalogService[];

beforeAll(async () => {
  sandbox = await startSandboxProvider({ orderSeconds: 1, clock: 'manual' });
  provider = sandboxClient(sandbox, { timeoutMs: 10_000 });
  hasty = sandboxClient(sandbox, { timeoutMs: 400 });
  services = await provider.services();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.control.reset());

/** An Instagram service without required fields. */
const plain = () => services.find((s) => s.platform === 'instagram' && s.params.every((p) => !p.required))!;

let linkNo = 0;
const uniqueLink = (marker = '') => `https://www.instagram.com/p/qq${++linkNo}${marker}/`;

const place = (link = uniqueLink(), s = plain(), quantity = s.amountMinimum) =>
  provider.add({ serviceId: s.id, link, quantity, params: {} });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const e = await promise.then(
    () => expect.unreachable('the call should have failed'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

const CODES: Record<ProviderErrorKind, string> = {
  refused: 'PROVIDER_REFUSED',
  no_funds: 'PROVIDER_REFUSED',
  no_answer: 'PROVIDER_NO_ANSWER',
  unavailable: 'PROVIDER_NO_ANSWER',
  bad_reply: 'PROVIDER_BAD_REPLY',
  rate_limited: 'PROVIDER_NO_ANSWER',
};
async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind): Promise<ProviderError> {
  const e = await failure(promise);
  expect(e.kind).toBe(kind);
  expect(e.code).toBe(CODES[kind]);
  return e;
}

describe('qqtube adapter: catalogue', () => {
  it('parses the whole catalogue into valid services', () => {
    expect(services.length).toBeGreaterThanOrEqual(300);
    for (const s of services) expect(catalogServiceSchema.parse(s)).toEqual(s);
    const platforms = new Set(services.map((s) => s.platform));
    for (const p of [...KNOWN_PLATFORMS, '']) expect(platforms).toContain(p);
    const types = new Set(services.map((s) => s.type));
    for (const t of ['Likes', 'Followers', 'Views', 'Shares', 'Comments', 'Saves']) expect(types).toContain(t);
  });

  it('keeps tiers, increments and every kind of extra field', () => {
    const params = services.flatMap((s) => s.params);
    for (const t of ['dropdown', 'textarea', 'text'] as const) {
      expect(params.some((p) => p.fieldType === t && p.required)).toBe(true);
    }
    const shares = params.find((p) => p.fieldName === 'share_type')!;
    expect(shares.options.map((o) => o.value)).toEqual(Array.from({ length: 14 }, (_, i) => String(i)));
    expect(new Set(services.flatMap((s) => s.tiers.map((t) => t.pricingPer)))).toEqual(new Set([1, 100, 1000]));
    const tiered = services.find((s) => s.tiers.length === 3)!;
    const unit = tiered.tiers.map((t) => Number(t.price) / t.pricingPer);
    expect(unit[0]).toBeGreaterThan(unit[1]!);
    expect(unit[1]).toBeGreaterThan(unit[2]!);
    expect(tiered.tiers[0]!.minimum).toBe(tiered.amountMinimum);
    expect(services.some((s) => s.amountIncrement > 1)).toBe(true);
  });

  it('reads one service with its description, and null for an unknown id', async () => {
    const listed = plain();
    expect(listed.description).toBeNull(); // the list call carries no description
    const one = await provider.service(listed.id);
    expect(one).toEqual({ ...listed, description: expect.stringContaining('Start:') });
    expect(await provider.service('999999')).toBeNull();
  });
});

describe('qqtube adapter: orders', () => {
  it('places an order and returns the submission id', async () => {
    const s = plain();
    const before = await provider.balance();
    const { providerOrderId } = await place(undefined, s, s.amountMinimum * 2);
    expect(providerOrderId).toMatch(/^\d+$/);
    const order = sandbox.control.order(providerOrderId)!;
    expect(order).toMatchObject({ serviceId: s.id, quantity: s.amountMinimum * 2 });
    const after = await provider.balance();
    expect(after.currency).toBe('USD');
    expect(Number(before.amount) - Number(after.amount)).toBeCloseTo(Number(order.charge), 4);
  });

  it('sends extra fields by name and refuses a missing required one', async () => {
    const s = services.find((x) => x.params.some((p) => p.fieldName === 'comments') && x.params.length === 1)!;
    const link = uniqueLink();
    const e = await expectKind(provider.add({ serviceId: s.id, link, quantity: s.amountMinimum, params: {} }), 'refused');
    expect(e.messages).toEqual(['Comments is required']);
    const comments = Array.from({ length: s.amountMinimum }, (_, i) => `Nice ${i}`).join('\n');
    const { providerOrderId } = await provider.add({ serviceId: s.id, link, quantity: s.amountMinimum, params: { comments } });
    expect(sandbox.control.order(providerOrderId)!.params).toEqual({ comments });
  });

  it('refuses like the panel: unknown service, quantity bounds, bad link', async () => {
    const s = plain();
    expect((await expectKind(provider.add({ serviceId: '1', link: uniqueLink(), quantity: 100, params: {} }), 'refused')).messages)
      .toEqual(['Incorrect service ID']);
    expect((await expectKind(place(uniqueLink(), s, s.amountMinimum - 1), 'refused')).messages)
      .toEqual([`Quantity less than minimal ${s.amountMinimum}`]);
    const max = Math.max(...s.tiers.map((t) => t.maximum));
    expect((await expectKind(place(uniqueLink(), s, max + s.amountIncrement), 'refused')).messages)
      .toEqual([`Quantity more than maximum ${max}`]);
    expect((await expectKind(place('instagram.com/x', s), 'refused')).messages).toEqual(['Incorrect link']);
  });

  it('reads the status of many orders, one stats call each, with unknown ids as errors', async () => {
    const ids = await Promise.all(Array.from({ length: 7 }, () => place().then((r) => r.providerOrderId)));
    sandbox.control.reset();
    const states = await provider.status([...ids, '42']);
    expect(sandbox.control.calls()['qqtube:stats']).toBe(8);
    expect(states.get('42')).toEqual({ error: 'Submission not found' });
    for (const id of ids) {
      expect(states.get(id)).toMatchObject({ status: expect.stringMatching(/^(pending|in_progress)$/), raw: expect.any(String) });
    }
  });

  it('follows orders to completed, partial, cancelled and refunded on the virtual clock', async () => {
    const s = plain();
    const quantity = s.amountMinimum * 10;
    const ids = {
      completed: (await place(uniqueLink(), s, quantity)).providerOrderId,
      partial: (await place(uniqueLink('-sandbox-partial'), s, quantity)).providerOrderId,
      cancelled: (await place(uniqueLink('-sandbox-cancel'), s, quantity)).providerOrderId,
      refunded: (await place(uniqueLink('-sandbox-refund'), s, quantity)).providerOrderId,
    };
    const first = await provider.status(Object.values(ids));
    expect(first.get(ids.completed)).toMatchObject({ status: 'pending', remains: quantity, startCount: 0 });

    sandbox.control.advance(600);
    const mid = await provider.status(Object.values(ids));
    const running = mid.get(ids.completed) as { status: string; delivered: number; remains: number; startCount: number };
    expect(running.status).toBe('in_progress');
    expect(running.delivered).toBeGreaterThan(0);
    expect(running.delivered + running.remains).toBe(quantity);
    expect(running.startCount).toBeGreaterThan(0);
    expect(mid.get(ids.cancelled)).toMatchObject({ status: 'pending' });

    sandbox.control.advance(1000);
    const end = await provider.status(Object.values(ids));
    expect(end.get(ids.completed)).toMatchObject({ status: 'completed', remains: 0, delivered: quantity, raw: '1 Completed' });
    const partial = end.get(ids.partial) as { status: string; remains: number; delivered: number; currentCount: number; startCount: number };
    expect(partial.status).toBe('partial');
    expect(partial.remains).toBeGreaterThan(0);
    expect(partial.delivered + partial.remains).toBe(quantity);
    expect(partial.currentCount - partial.startCount).toBe(partial.delivered);
    expect(end.get(ids.cancelled)).toMatchObject({ status: 'cancelled', delivered: 0 });
    expect(end.get(ids.refunded)).toMatchObject({ status: 'refunded', raw: '8 Refunded' });

    sandbox.control.setOrderState(ids.completed, 'stopped');
    expect((await provider.status([ids.completed])).get(ids.completed)).toMatchObject({ status: 'stopped' });
  });

  it("reads each order's cost: total_cost less refund_total, in the provider's 4 decimals, no currency", async () => {
    const s = plain();
    const quantity = s.amountMinimum * 10;
    const ids = {
      running: (await place(uniqueLink(), s, quantity)).providerOrderId,
      partial: (await place(uniqueLink('-sandbox-partial'), s, quantity)).providerOrderId,
      cancelled: (await place(uniqueLink('-sandbox-cancel'), s, quantity)).providerOrderId,
    };
    const tier = s.tiers.find((t) => t.minimum <= quantity && quantity <= t.maximum) ?? s.tiers[0]!;
    const charge = new Big(tier.price).div(tier.pricingPer).times(quantity).round(4, Big.roundUp).toFixed(4);
    const first = await provider.status(Object.values(ids));
    for (const id of Object.values(ids)) expect(first.get(id)).toMatchObject({ charge, currency: null });
    sandbox.control.advance(2000);
    const end = await provider.status(Object.values(ids));
    const partial = sandbox.control.order(ids.partial)!;
    expect(Number(partial.refund)).toBeGreaterThan(0);
    expect(end.get(ids.partial)).toMatchObject({ status: 'partial', charge: new Big(charge).minus(partial.refund).toFixed(4) });
    expect(end.get(ids.cancelled)).toMatchObject({ status: 'cancelled', charge: '0.0000' });
  });

  it('finds an order in the submissions by service, link and quantity', async () => {
    const s = plain();
    const link = uniqueLink();
    const since = new Date(Date.now() - 1000);
    const { providerOrderId } = await place(link, s);
    await place(uniqueLink(), s); // another order in between
    // Scheme, www. and a trailing slash do not matter.
    const loose = link.replace('https://www.', 'http://').replace(/\/$/, '');
    expect(await provider.findOrder({ serviceId: s.id, link: loose, quantity: s.amountMinimum, since })).toEqual({ providerOrderId });
    expect(await provider.findOrder({ serviceId: s.id, link, quantity: s.amountMinimum + s.amountIncrement, since })).toBeNull();
    expect(await provider.findOrder({ serviceId: s.id, link, quantity: s.amountMinimum, since, excludeIds: [providerOrderId] })).toBeNull();
    expect(await provider.findOrder({ serviceId: s.id, link, quantity: s.amountMinimum, since: new Date(Date.now() + 86_400_000) })).toBeNull();
  });
});

describe('qqtube adapter: faults', () => {
  it('timeout → no_answer', async () => {
    sandbox.control.setFault({ mode: 'timeout' });
    const e = await expectKind(hasty.balance(), 'no_answer');
    expect(e.messages[0]).toMatch(/no answer within 400 ms/);
  });

  it('latency above the timeout → no_answer; below → answered', async () => {
    sandbox.control.setFault({ latencyMs: 600 });
    await expectKind(hasty.balance(), 'no_answer');
    sandbox.control.setFault({ latencyMs: 50 });
    expect((await provider.balance()).amount).toMatch(/^\d+(\.\d+)?$/);
  });

  it('5xx → unavailable', async () => {
    sandbox.control.setFault({ mode: '5xx' });
    expect((await expectKind(place(), 'unavailable')).messages).toEqual(['HTTP 503']);
  });

  it('garbage → bad_reply', async () => {
    sandbox.control.setFault({ mode: 'garbage' });
    await expectKind(provider.services(), 'bad_reply');
  });

  it('refuse → refused with the provider messages; in the words of a short balance → no_funds', async () => {
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], message: 'Link is private' });
    expect((await expectKind(place(), 'refused')).messages).toEqual(['Link is private']);
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'] });
    expect((await expectKind(place(), 'no_funds')).messages).toEqual(['Not enough funds on balance']);
    expect(await provider.balance()).toBeTruthy(); // other actions are not faulted
  });

  it('a balance too short for the order → no_funds; once money is put back the order is taken', async () => {
    const s = plain();
    const tier = s.tiers.find((t) => t.minimum <= s.amountMinimum && s.amountMinimum <= t.maximum)!;
    const charge = new Big(tier.price).div(tier.pricingPer).times(s.amountMinimum).round(4, Big.roundUp);
    sandbox.control.setBalance(charge.minus('0.0001').toFixed(4));
    try {
      expect((await expectKind(place(), 'no_funds')).messages).toEqual(['Not enough funds on balance']);
      expect((await provider.balance()).amount).toBe(charge.minus('0.0001').toFixed());
      sandbox.control.setBalance(charge.toFixed(4));
      await place();
      expect(await provider.balance()).toEqual({ amount: '0', currency: 'USD' });
    } finally {
      sandbox.control.setBalance(null);
    }
  });

  it('an ordinary refusal of every N-th order → refused', async () => {
    sandbox.control.setRefuseEvery(1);
    try {
      expect((await expectKind(place(), 'refused')).messages).toEqual(['Service temporarily unavailable']);
    } finally {
      sandbox.control.setRefuseEvery(0);
    }
  });

  it('a wrong key → refused', async () => {
    const wrong = createProvider({ protocol: 'qqtube', url: sandbox.qqtubeUrl, key: 'nope', timeoutMs: 400 });
    expect((await expectKind(wrong.balance(), 'refused')).messages).toEqual(['Invalid API key']);
  });

  it('no server → no_answer', async () => {
    const gone = await startSandboxProvider();
    await gone.close();
    const dead = createProvider({ protocol: 'qqtube', url: gone.qqtubeUrl, key: 'k', timeoutMs: 400 });
    expect((await expectKind(dead.balance(), 'no_answer')).messages[0]).toMatch(/connection failed/);
  });

  it('times: only the next N calls are faulted', async () => {
    sandbox.control.setFault({ mode: '5xx', times: 1 });
    await expectKind(provider.balance(), 'unavailable');
    await expect(provider.balance()).resolves.toBeTruthy();
  });

  it('accepted then no answer → no_answer, and findOrder finds the order', async () => {
    const s = plain();
    const link = uniqueLink();
    const since = new Date();
    sandbox.control.setFault({ acceptThenTimeout: true, actions: ['add'], times: 1 });
    await expectKind(hasty.add({ serviceId: s.id, link, quantity: s.amountMinimum, params: {} }), 'no_answer');
    const recorded = sandbox.control.orders().find((o) => o.link === link)!;
    expect(recorded).toBeDefined();
    expect(await provider.findOrder({ serviceId: s.id, link, quantity: s.amountMinimum, since })).toEqual({
      providerOrderId: recorded.id,
    });
  });

  it('status: ids whose lookup got no answer are left out; all unanswered throws', async () => {
    const a = (await place()).providerOrderId;
    const b = (await place()).providerOrderId;
    sandbox.control.setFault({ mode: 'timeout' });
    await expectKind(hasty.status([a, b]), 'no_answer');
    sandbox.control.setFault({ mode: '5xx', times: 1 });
    const states = await provider.status([a, b]);
    expect(states.size).toBe(1);
  });
});

describe('qqtube adapter: refill and cancel', () => {
  it('has none: refill, refill status and cancel are unsupported', async () => {
    expect(await provider.refill(['1'])).toBe('unsupported');
    expect(await provider.refillStatus(['1'])).toBe('unsupported');
    expect(await provider.cancel(['1'])).toBe('unsupported');
  });
});

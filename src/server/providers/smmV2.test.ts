import Big from 'big.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogServiceSchema, KNOWN_PLATFORMS, type CatalogService } from '../../core/catalog';
import { startSandboxProvider, toV2Service, generateCatalog, type SandboxProvider } from '../../../sandbox/provider';
import { createPacer, createProvider } from './index';
import { isRefusal, ProviderError, type ProviderErrorKind, type SmmProvider } from './types';

let sandbox: SandboxProvider;
let provider: SmmProvider;
/** A client that gives up quickly, for the faults that leave a call unanswered. */
let hasty: SmmProvider;
let services: CatalogService[];

beforeAll(async () => {
  sandbox = await startSandboxProvider({ orderSeconds: 1, seed: 3, clock: 'manual' });
  provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 10_000 });
  hasty = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 400 });
  services = await provider.services();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.control.reset());

const plain = (where: (s: CatalogService) => boolean = () => true) =>
  services.find((s) => s.platform === 'tiktok' && s.params.length === 0 && where(s))!;

let linkNo = 0;
const uniqueLink = (marker = '') => `https://www.tiktok.com/@artim.az/video/${++linkNo}${marker}`;

const place = (link = uniqueLink(), s = plain(), quantity = s.amountMinimum) =>
  provider.add({ serviceId: s.id, link, quantity, params: {} });

async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind): Promise<ProviderError> {
  const e = await promise.then(
    () => expect.unreachable('the call should have failed'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProviderError);
  const pe = e as ProviderError;
  expect(pe.kind).toBe(kind);
  expect(pe.code).toBe({ refused: 'PROVIDER_REFUSED', no_funds: 'PROVIDER_REFUSED', no_answer: 'PROVIDER_NO_ANSWER', unavailable: 'PROVIDER_NO_ANSWER', bad_reply: 'PROVIDER_BAD_REPLY', rate_limited: 'PROVIDER_NO_ANSWER' }[kind]);
  return pe;
}

describe('v2 adapter: catalogue', () => {
  it('parses the flattened list into valid services, one tier per 1000 from the rate', () => {
    expect(services.length).toBeGreaterThanOrEqual(300);
    for (const s of services) {
      expect(catalogServiceSchema.parse(s)).toEqual(s);
      expect(s.tiers).toHaveLength(1);
      expect(s.tiers[0]).toMatchObject({ minimum: s.amountMinimum, pricingPer: 1000 });
      expect(s.amountIncrement).toBe(1);
    }
    const wire = generateCatalog(3, 320).services.map(toV2Service);
    const first = services.find((s) => s.id === String(wire[0]!.service))!;
    expect(first.tiers[0]).toEqual({ minimum: Number(wire[0]!.min), maximum: Number(wire[0]!.max), price: wire[0]!.rate, pricingPer: 1000 });
    expect(first.refill).toBe(wire[0]!.refill);
    expect(first.cancel).toBe(wire[0]!.cancel);
  });

  it('guesses platform and type from category and name', () => {
    const platforms = new Set(services.map((s) => s.platform));
    for (const p of [...KNOWN_PLATFORMS, '']) expect(platforms).toContain(p);
    const followers = services.find((s) => /^YouTube Subscribers/.test(s.name))!;
    expect(followers).toMatchObject({ platform: 'youtube', type: 'Followers' });
    expect(services.find((s) => /^Twitter Retweets/.test(s.name))).toMatchObject({ platform: 'twitter', type: 'Shares' });
    expect(services.find((s) => s.name.startsWith('Website Traffic'))).toMatchObject({ platform: '', type: 'Other' });
    const comments = services.find((s) => s.name.startsWith('Instagram Custom Comments'))!;
    expect(comments.type).toBe('Comments');
    expect(comments.params).toEqual([expect.objectContaining({ fieldName: 'comments', fieldType: 'textarea', required: true })]);
  });

  it('finds one service by id, null for an unknown id', async () => {
    const s = plain();
    expect(await provider.service(s.id)).toEqual(s);
    expect(await provider.service('999999')).toBeNull();
  });
});

describe('v2 adapter: orders', () => {
  it('places an order, charging the balance', async () => {
    const s = plain();
    const before = await provider.balance();
    const { providerOrderId } = await place(undefined, s, s.amountMinimum + 7);
    expect(providerOrderId).toMatch(/^\d+$/);
    const order = sandbox.control.order(providerOrderId)!;
    expect(order).toMatchObject({ serviceId: s.id, quantity: s.amountMinimum + 7, via: 'smm-v2' });
    const after = await provider.balance();
    expect(after.currency).toBe('USD');
    expect(Number(before.amount) - Number(after.amount)).toBeCloseTo(Number(order.charge), 4);
  });

  it('sends comments for a custom comments service', async () => {
    const s = services.find((x) => x.params.some((p) => p.fieldName === 'comments') && x.platform === 'instagram')!;
    const link = uniqueLink();
    expect((await expectKind(provider.add({ serviceId: s.id, link, quantity: s.amountMinimum, params: {} }), 'refused')).messages)
      .toEqual(['Comments is required']);
    const comments = Array.from({ length: s.amountMinimum }, (_, i) => `Super ${i}`).join('\n');
    const { providerOrderId } = await provider.add({ serviceId: s.id, link, quantity: s.amountMinimum, params: { comments } });
    expect(sandbox.control.order(providerOrderId)!.params.comments).toBe(comments);
  });

  it('refuses like a panel', async () => {
    const s = plain();
    expect((await expectKind(place(uniqueLink(), { ...s, id: '7' }), 'refused')).messages).toEqual(['Incorrect service ID']);
    expect((await expectKind(place(uniqueLink(), s, s.amountMinimum - 1), 'refused')).messages)
      .toEqual([`Quantity less than minimal ${s.amountMinimum}`]);
    expect((await expectKind(place(uniqueLink(), s, s.tiers[0]!.maximum + 1), 'refused')).messages)
      .toEqual([`Quantity more than maximum ${s.tiers[0]!.maximum}`]);
    expect((await expectKind(place('ftp://example.com/x', s), 'refused')).messages).toEqual(['Incorrect link']);
  });

  it('a balance too short for the order → no_funds; once money is put back the order is taken', async () => {
    const s = plain();
    const charge = new Big(s.tiers[0]!.price).times(s.amountMinimum).div(1000).round(5, Big.roundHalfUp);
    sandbox.control.setBalance(charge.minus('0.00001').toFixed(5));
    try {
      const e = await expectKind(place(), 'no_funds');
      expect(e.messages).toEqual(['Not enough funds on balance']);
      expect(isRefusal(e)).toBe(true);
      sandbox.control.setBalance(charge.toFixed(5));
      const { providerOrderId } = await place();
      expect(sandbox.control.order(providerOrderId)!.charge).toBe(charge.toFixed(5));
      expect(await provider.balance()).toEqual({ amount: '0', currency: 'USD' });
    } finally {
      sandbox.control.setBalance(null);
    }
  });

  it('reads statuses in batches of 100, unknown ids as errors', async () => {
    const ids = await Promise.all(Array.from({ length: 3 }, () => place().then((r) => r.providerOrderId)));
    const unknown = Array.from({ length: 150 }, (_, i) => String(9_000_000 + i));
    sandbox.control.reset();
    const states = await provider.status([...ids, ...unknown]);
    expect(sandbox.control.calls()['smm-v2:status']).toBe(2);
    expect(states.size).toBe(153);
    expect(states.get(unknown[0]!)).toEqual({ error: 'Incorrect order ID' });
    for (const id of ids) expect(states.get(id)).toMatchObject({ status: 'pending', raw: 'Pending', startCount: 0 });
  });

  it('follows orders through processing and in progress to their outcome on the virtual clock', async () => {
    const s = plain();
    const quantity = s.amountMinimum * 10;
    const ids = {
      completed: (await place(uniqueLink(), s, quantity)).providerOrderId,
      partial: (await place(uniqueLink('?sandbox-partial'), s, quantity)).providerOrderId,
      cancelled: (await place(uniqueLink('?sandbox-cancel'), s, quantity)).providerOrderId,
      refunded: (await place(uniqueLink('?sandbox-refund'), s, quantity)).providerOrderId,
    };
    const all = Object.values(ids);
    sandbox.control.advance(150);
    expect((await provider.status(all)).get(ids.completed)).toMatchObject({ status: 'processing', raw: 'Processing' });
    sandbox.control.advance(450);
    const mid = (await provider.status(all)).get(ids.completed) as { status: string; remains: number; startCount: number };
    expect(mid).toMatchObject({ status: 'in_progress', raw: 'In progress' });
    expect(mid.remains).toBeLessThan(quantity);
    expect(mid.startCount).toBeGreaterThan(0);
    sandbox.control.advance(1000);
    const end = await provider.status(all);
    expect(end.get(ids.completed)).toMatchObject({ status: 'completed', remains: 0 });
    const partial = end.get(ids.partial) as { status: string; remains: number };
    expect(partial.status).toBe('partial');
    expect(partial.remains).toBeGreaterThan(0);
    expect(partial.remains).toBeLessThan(quantity);
    expect(end.get(ids.cancelled)).toMatchObject({ status: 'cancelled', raw: 'Canceled', remains: quantity });
    expect(end.get(ids.refunded)).toMatchObject({ status: 'refunded', raw: 'Refunded' });
  });

  it("reads each order's charge as the panel wrote it (5 decimals, after what it gave back) and its currency", async () => {
    const s = plain();
    const quantity = s.amountMinimum * 10;
    const ids = {
      running: (await place(uniqueLink(), s, quantity)).providerOrderId,
      partial: (await place(uniqueLink('?sandbox-partial'), s, quantity)).providerOrderId,
      cancelled: (await place(uniqueLink('?sandbox-cancel'), s, quantity)).providerOrderId,
    };
    const charge = new Big(s.tiers[0]!.price).times(quantity).div(1000).round(5, Big.roundHalfUp).toFixed(5);
    const first = await provider.status(Object.values(ids));
    for (const id of Object.values(ids)) expect(first.get(id)).toMatchObject({ charge, currency: 'USD' });
    sandbox.control.advance(2000);
    const end = await provider.status(Object.values(ids));
    const partial = sandbox.control.order(ids.partial)!;
    expect(Number(partial.refund)).toBeGreaterThan(0);
    expect(end.get(ids.partial)).toMatchObject({ status: 'partial', charge: new Big(charge).minus(partial.refund).toFixed(5), currency: 'USD' });
    expect(end.get(ids.cancelled)).toMatchObject({ status: 'cancelled', charge: '0.00000', currency: 'USD' });
  });

  it('has no order lookup: findOrder is unsupported', async () => {
    const s = plain();
    expect(await provider.findOrder({ serviceId: s.id, link: uniqueLink(), quantity: 100, since: new Date() })).toBe('unsupported');
  });

  it('reads the refill period of services with refills from their name or description', () => {
    const refillable = services.filter((s) => s.refill);
    expect(refillable.length).toBeGreaterThan(0);
    for (const s of refillable) expect(s.refillDays, s.name).toBeGreaterThan(0);
    for (const s of services.filter((x) => !x.refill)) expect(s.refillDays).toBeNull();
  });

  it('refills delivered orders where the service allows it', async () => {
    const withRefill = plain((s) => s.refill);
    const without = plain((s) => !s.refill);
    const a = (await place(uniqueLink(), withRefill)).providerOrderId;
    const b = (await place(uniqueLink(), without)).providerOrderId;
    const c = (await place(uniqueLink(), withRefill)).providerOrderId;
    sandbox.control.setOrderState(a, 'completed');
    sandbox.control.setOrderState(b, 'completed');
    const result = (await provider.refill([a, b, c, '9999999'])) as Map<string, unknown>;
    expect(result.get(a)).toEqual({ refillId: expect.stringMatching(/^\d+$/) });
    expect(result.get(b)).toEqual({ error: 'Refill is not available for this order' });
    expect(result.get(c)).toEqual({ error: 'Refill is not available for this order' });
    expect(result.get('9999999')).toEqual({ error: 'Incorrect order ID' });

    const refillId = (result.get(a) as { refillId: string }).refillId;
    const states = (await provider.refillStatus([refillId, '777777'])) as Map<string, unknown>;
    expect(states.get(refillId)).toEqual({ status: 'pending', raw: 'Pending' });
    expect(states.get('777777')).toEqual({ error: 'Incorrect refill ID' });
    sandbox.control.advance(300);
    expect(((await provider.refillStatus([refillId])) as Map<string, unknown>).get(refillId)).toEqual({ status: 'in_progress', raw: 'In progress' });
    sandbox.control.advance(1000);
    expect(((await provider.refillStatus([refillId])) as Map<string, unknown>).get(refillId)).toEqual({ status: 'completed', raw: 'Completed' });
  });

  it('cancels active orders where the service allows it', async () => {
    const cancellable = plain((s) => s.cancel);
    const a = (await place(uniqueLink(), cancellable)).providerOrderId;
    const done = (await place(uniqueLink(), cancellable)).providerOrderId;
    sandbox.control.setOrderState(done, 'completed');
    const result = (await provider.cancel([a, done, '9999999'])) as Map<string, unknown>;
    expect(result.get(a)).toEqual({ cancelled: true });
    expect(result.get(done)).toEqual({ error: 'Cancel is not available for this order' });
    expect(result.get('9999999')).toEqual({ error: 'Incorrect order ID' });
    expect((await provider.status([a])).get(a)).toMatchObject({ status: 'cancelled' });
  });
});

describe('v2 adapter: faults', () => {
  it('timeout → no_answer', async () => {
    sandbox.control.setFault({ mode: 'timeout', actions: ['services'] });
    await expectKind(hasty.services(), 'no_answer');
  });

  it('5xx → unavailable; an order sent into it is no refusal, as unknown as an unanswered one', async () => {
    sandbox.control.setFault({ mode: '5xx' });
    expect((await expectKind(provider.status(['1']), 'unavailable')).messages).toEqual(['HTTP 503']);
    expect(isRefusal(await expectKind(place(), 'unavailable'))).toBe(false);
  });

  it('the panel’s "Too many requests" with HTTP 200 → rate_limited, not refused', async () => {
    const before = sandbox.control.orders().length;
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], message: 'Too many requests', times: 1 });
    const e = await expectKind(place(), 'rate_limited');
    expect(e.retryAfterMs).toBe(1000);
    expect(isRefusal(e)).toBe(false);
    expect(sandbox.control.orders()).toHaveLength(before);
  });

  it('an ordinary refusal of every N-th order → refused', async () => {
    sandbox.control.setRefuseEvery(2);
    try {
      await place();
      expect((await expectKind(place(), 'refused')).messages).toEqual(['Service temporarily unavailable']);
      await place();
    } finally {
      sandbox.control.setRefuseEvery(0);
    }
  });

  it('garbage → bad_reply', async () => {
    sandbox.control.setFault({ mode: 'garbage', actions: ['add'] });
    await expectKind(place(), 'bad_reply');
  });

  it('refuse → refused with the provider message', async () => {
    sandbox.control.setFault({ mode: 'refuse', message: 'Service is disabled' });
    expect((await expectKind(provider.balance(), 'refused')).messages).toEqual(['Service is disabled']);
  });

  it('a wrong key → refused', async () => {
    const wrong = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: 'nope', timeoutMs: 400 });
    expect((await expectKind(wrong.services(), 'refused')).messages).toEqual(['Incorrect API key']);
  });

  it('over the per-key rate limit → rate_limited, nothing created; a pacer keeps later calls under it', async () => {
    sandbox.control.setRateLimit(2);
    try {
      const before = sandbox.control.orders().length;
      const results = await Promise.allSettled([place(), place(), place()]);
      const limited = results.filter((r) => r.status === 'rejected');
      expect(limited).toHaveLength(1);
      const e = (limited[0] as PromiseRejectedResult).reason as ProviderError;
      expect(e.kind).toBe('rate_limited');
      expect(e.code).toBe('PROVIDER_NO_ANSWER');
      expect(e.retryAfterMs).toBe(1000);
      expect(sandbox.control.orders().length).toBe(before + 2);
      expect(sandbox.control.rateLimited()).toBe(1);

      // Paced under the provider's limit, a burst waits its turn instead of being turned away. A
      // fifth under it: the sandbox counts calls when it handles them, and on a busy machine one
      // call's handling can run more than the pacer's 60 ms of slack late (./pacing.ts), which
      // pacing at exactly 2 per second would then see answered with 429.
      await new Promise((r) => setTimeout(r, 1000));
      const pacer = createPacer(1.6);
      const paced = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 10_000, pacer });
      const started = Date.now();
      await Promise.all([1, 2, 3, 4].map(() => paced.balance()));
      // Three gaps of 1060 / 1.6 ms between the four starts.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
      expect(sandbox.control.rateLimited()).toBe(1);
    } finally {
      sandbox.control.setRateLimit(0);
    }
  });

  it('accepted then no answer → no_answer while the provider has the order', async () => {
    const link = uniqueLink();
    sandbox.control.setFault({ acceptThenTimeout: true, actions: ['add'], times: 1 });
    await expectKind(hasty.add({ serviceId: plain().id, link, quantity: plain().amountMinimum, params: {} }), 'no_answer');
    const recorded = sandbox.control.orders().find((o) => o.link === link)!;
    expect(recorded).toBeDefined();
    // v2 cannot look it up by link, but its id answers once known.
    expect((await provider.status([recorded.id])).get(recorded.id)).toMatchObject({
      status: expect.stringMatching(/^(pending|processing|in_progress)$/),
    });
  });
});

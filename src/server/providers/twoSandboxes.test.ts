import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createProvider } from './index';
import type { SmmProvider } from './types';

/**
 * Two sandbox providers in one process, as a shop with a second provider runs them: their own
 * ports, keys, state files, balances and prices, read through the shop's own adapters.
 */
let cheap: SandboxProvider;
let dear: SandboxProvider;
let v2: SmmProvider;
let qqtube: SmmProvider;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'two-sandboxes-'));
  cheap = await startSandboxProvider({ seed: 9, serviceCount: 120, apiKey: 'cheap-key', stateFile: join(dir, 'cheap.json'), balance: '50' });
  dear = await startSandboxProvider({ seed: 9, serviceCount: 120, apiKey: 'dear-key', stateFile: join(dir, 'dear.json'), priceFactor: '1.2', refuseEvery: 2 });
  v2 = createProvider({ protocol: 'smm-v2', url: cheap.v2Url, key: cheap.apiKey, timeoutMs: 30_000 });
  qqtube = createProvider({ protocol: 'qqtube', url: dear.qqtubeUrl, key: dear.apiKey, timeoutMs: 30_000 });
});
afterAll(async () => {
  await cheap?.close();
  await dear?.close();
});

describe('two sandbox providers in one process', () => {
  it('sell the same services, one at its price factor, read with the v2 adapter on one and the QQTube-style one on the other', async () => {
    expect(cheap.url).not.toBe(dear.url);
    const [byV2, byQqtube] = await Promise.all([v2.services(), qqtube.services()]);
    expect(byV2).toHaveLength(120);
    expect(byQqtube.map((s) => s.id)).toEqual(byV2.map((s) => s.id));
    for (const [i, s] of byQqtube.entries()) {
      const first = s.tiers[0]!;
      const perThousand = new Big(first.price).times(1000).div(first.pricingPer);
      expect(perThousand.eq(new Big(byV2[i]!.tiers[0]!.price).times('1.2')), `${s.id}: ${byV2[i]!.tiers[0]!.price} × 1.2 ≠ ${perThousand.toFixed()}`).toBe(true);
      expect(s.name).toBe(byV2[i]!.name);
    }
  });

  it('keep their own keys, orders, balances and refusals', async () => {
    // Each answers its own key only.
    await expect(createProvider({ protocol: 'smm-v2', url: cheap.v2Url, key: dear.apiKey, timeoutMs: 30_000 }).balance()).rejects.toMatchObject({ kind: 'refused' });
    expect(await v2.balance()).toEqual({ amount: '50', currency: 'USD' });
    expect(await qqtube.balance()).toEqual({ amount: '1000000000', currency: 'USD' });

    const s = (await v2.services()).find((x) => x.platform === 'telegram' && x.params.length === 0)!;
    const atCheap = await v2.add({ serviceId: s.id, link: 'https://t.me/artim_az/1', quantity: s.amountMinimum, params: {} });
    expect(cheap.control.orders().map((o) => o.id)).toEqual([atCheap.providerOrderId]);
    expect(dear.control.orders()).toEqual([]);
    expect(Number((await v2.balance()).amount)).toBeLessThan(50);
    expect(await qqtube.balance()).toEqual({ amount: '1000000000', currency: 'USD' });

    // The dear one refuses every second order; the cheap one none.
    const q = (await qqtube.services()).find((x) => x.id === s.id)!;
    const order = (n: number) => ({ serviceId: q.id, link: `https://t.me/artim_az/${100 + n}`, quantity: q.amountMinimum, params: {} });
    await qqtube.add(order(1));
    await expect(qqtube.add(order(2))).rejects.toMatchObject({ kind: 'refused', messages: ['Service temporarily unavailable'] });
    await v2.add({ ...order(3), quantity: s.amountMinimum });
    expect(dear.control.orders()).toHaveLength(1);
    expect(cheap.control.orders()).toHaveLength(2);
  });
});

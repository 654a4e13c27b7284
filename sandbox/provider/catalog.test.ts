import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { chargeFor, generateCatalog, toV2Service, v2Rate, withPriceFactor } from './catalog';

describe('sandbox catalogue', () => {
  it('is the same for the same seed and different for another', () => {
    expect(generateCatalog(7, 400).services).toEqual(generateCatalog(7, 400).services);
    expect(generateCatalog(8, 400).services).not.toEqual(generateCatalog(7, 400).services);
  });

  it('scales to 5000 services with unique, increasing ids', () => {
    const { services, byId } = generateCatalog(1, 5000);
    expect(services).toHaveLength(5000);
    expect(byId.size).toBe(5000);
    const ids = services.map((s) => Number(s.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('has contiguous tiers with falling unit prices, aligned to the increment', () => {
    for (const s of generateCatalog(2, 600).services) {
      const tiers = s.wire.prices;
      expect(Number(tiers[0]!.minimum)).toBe(s.minimum);
      expect(Number(tiers.at(-1)!.maximum)).toBe(s.maximum);
      expect(s.minimum % s.increment).toBe(0);
      for (let i = 1; i < tiers.length; i++) {
        expect(Number(tiers[i]!.minimum)).toBe(Number(tiers[i - 1]!.maximum) + s.increment);
        expect(Number(tiers[i]!.price)).toBeLessThan(Number(tiers[i - 1]!.price));
      }
      for (const t of tiers) expect(t.price).toMatch(/^\d+\.\d{4}$/);
    }
  });

  it('covers every platform, an empty platform and every field type, some required', () => {
    const { services } = generateCatalog(1, 320);
    const platforms = new Set(services.map((s) => s.wire.platform));
    expect([...platforms].sort()).toEqual(['', 'facebook', 'instagram', 'linkedin', 'telegram', 'tiktok', 'twitter', 'youtube']);
    const params = services.flatMap((s) => s.wire.params);
    for (const type of ['dropdown', 'textarea', 'text']) {
      expect(params.some((p) => p.field_type === type && p.field_validators.includes('required'))).toBe(true);
    }
    expect(params.some((p) => p.field_name === 'geo-countries')).toBe(true);
    expect(params.some((p) => !p.field_validators.includes('required'))).toBe(true);
    expect(services.some((s) => /^Instagram Followers \[.+refill\]$/i.test(s.wire.public_name))).toBe(true);
  });

  it('prices an order from its tier and lists rates per 1000 for v2', () => {
    const s = generateCatalog(1, 320).services.find((x) => x.wire.prices.length > 1 && x.wire.prices[0]!.pricing_per === '1000')!;
    const [t0, t1] = s.wire.prices;
    const exact = (Number(t0!.price) * s.minimum) / 1000;
    // Rounded up to 4 decimals: never below the exact cost, less than 0.0001 above it.
    const over = Number(chargeFor(s, s.minimum)) - exact;
    expect(over).toBeGreaterThan(-1e-12);
    expect(over).toBeLessThan(1e-4);
    const second = Number(chargeFor(s, Number(t1!.minimum))) - (Number(t1!.price) * Number(t1!.minimum)) / 1000;
    expect(Math.abs(second)).toBeLessThan(1e-4);
    expect(toV2Service(s)).toMatchObject({ service: Number(s.id), rate: t0!.price, min: String(s.minimum), max: String(s.maximum) });
  });

  it('lists refill where the name promises one, and cancel and drip-feed on some services, the same every time', () => {
    const { services } = generateCatalog(1, 320);
    const listed = services.map(toV2Service);
    for (const s of listed) expect(s.refill, s.name).toBe(/\d+d refill|lifetime refill/i.test(s.name));
    for (const flag of ['refill', 'cancel', 'dripfeed'] as const) {
      expect(listed.some((s) => s[flag])).toBe(true);
      expect(listed.some((s) => !s[flag])).toBe(true);
    }
    expect(generateCatalog(1, 320).services.map(toV2Service)).toEqual(listed);
  });

  it('sells the same services at other prices with a price factor, every price exact', () => {
    const base = generateCatalog(4, 400);
    expect(withPriceFactor(base, '1')).toBe(base);
    for (const factor of ['1.15', '0.8765', '3']) {
      const priced = withPriceFactor(base, factor);
      expect(priced.services.map((s) => [s.id, s.wire.public_name, s.minimum, s.maximum])).toEqual(base.services.map((s) => [s.id, s.wire.public_name, s.minimum, s.maximum]));
      priced.services.forEach((s, i) => {
        const before = base.services[i]!;
        s.wire.prices.forEach((t, k) => {
          const was = before.wire.prices[k]!;
          expect(new Big(t.price).eq(new Big(was.price).times(factor)), `${was.price} × ${factor} = ${t.price}`).toBe(true);
          expect(t.price).toMatch(/^\d+\.\d{4,8}$/);
          expect({ ...t, price: was.price }).toEqual(was);
        });
        // The v2 rate keeps every digit too.
        expect(new Big(v2Rate(s)).eq(new Big(v2Rate(before)).times(factor))).toBe(true);
        expect(priced.byId.get(s.id)).toBe(s);
      });
    }
    expect(withPriceFactor(base, '1.15').services[0]!.wire.prices[0]!.price).not.toBe(base.services[0]!.wire.prices[0]!.price);
    // The generated catalogue is left as it was.
    expect(base.services).toEqual(generateCatalog(4, 400).services);
    for (const bad of ['0', '-1', '1.23456', 'abc', '']) expect(() => withPriceFactor(base, bad), bad).toThrow(/price factor/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatShopDateTime, fromShopInput, SHOP_TIME_ZONE, shopZoneOffset, toShopInput } from './shopTime';

describe("the shop's clock (docs/rules.md#bonuses)", () => {
  // A browser far from Baku: nothing below may depend on it.
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('is Baku, four hours ahead of UTC', () => {
    expect(SHOP_TIME_ZONE).toBe('Asia/Baku');
    expect(shopZoneOffset(Date.parse('2026-01-15T12:00:00Z'))).toBe('UTC+4');
    expect(shopZoneOffset(Date.parse('2026-07-15T12:00:00Z'))).toBe('UTC+4');
  });

  it("writes a moment as the shop's wall time and reads it back, whatever the browser's zone", () => {
    expect(toShopInput('2026-03-01T20:00:00.000Z')).toBe('2026-03-02T00:00');
    expect(fromShopInput('2026-03-02T00:00')).toBe('2026-03-01T20:00:00.000Z');
    expect(fromShopInput(toShopInput('2026-11-23T15:08:00.000Z'))).toBe('2026-11-23T15:08:00.000Z');
    expect(toShopInput(null)).toBe('');
    expect(fromShopInput('  ')).toBeNull();
    for (const bad of ['2026-02-30T10:00', '2026-13-01T10:00', '2026-01-01T24:00', 'tomorrow', '2026-01-01']) expect([bad, fromShopInput(bad)]).toEqual([bad, undefined]);
    expect(formatShopDateTime('2026-03-01T20:00:00.000Z', 'az')).toBe('02.03.2026 00:00');
  });

  it('follows a zone that changes its clock: a skipped wall time is no moment, the offset is the one in force', () => {
    expect(fromShopInput('2026-07-01T12:00', 'Europe/Berlin')).toBe('2026-07-01T10:00:00.000Z');
    expect(fromShopInput('2026-01-01T12:00', 'Europe/Berlin')).toBe('2026-01-01T11:00:00.000Z');
    expect(fromShopInput('2026-03-29T02:30', 'Europe/Berlin')).toBeUndefined();
    expect(shopZoneOffset(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe('UTC+2');
    expect(shopZoneOffset(Date.parse('2026-07-01T00:00:00Z'), 'Asia/Kolkata')).toBe('UTC+5:30');
  });
});

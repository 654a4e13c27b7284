import { describe, expect, it } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import { priceOrder } from '../../../core/pricing';
import { customerFees } from '../catalog/pages';
import { previewMassOrder } from './massOrder';

const followers: PublicService = {
  id: '12',
  platform: 'instagram',
  name: 'Instagram Followers',
  type: 'Default',
  group: 'followers',
  min: 100,
  max: 10_000,
  step: 1,
  tiers: [{ minimum: 100, maximum: 10_000, price: '1.20', pricingPer: 1000 }],
  displayPrice: '1.32',
  displayPer: 1000,
  hasParams: false,
};
const comments: PublicService = { ...followers, id: '13', group: 'comments', hasParams: true, needsParams: true };
/** Extra fields, every one optional (say, a username to mention): ordered without them. */
const optionalFields: PublicService = { ...followers, id: '14', hasParams: true, needsParams: false };
const services = new Map([followers, comments, optionalFields].map((s) => [s.id, s]));
const fees = { serviceFeePercent: 10, baseFee: 0.05 };

describe('mass order preview', () => {
  it('checks and prices every line with the shared rules, and totals only the good ones', () => {
    const text = [
      '12|https://instagram.com/artim|1000',
      'garbage',
      '99|https://instagram.com/artim2|1000',
      '12|https://example.com/x|1000',
      '12|https://instagram.com/other|50',
      '13|https://instagram.com/p/abc|100',
      '12|https://www.instagram.com/artim|500',
      '12|https://instagram.com/second|2500',
    ].join('\n');
    const preview = previewMassOrder(text, services, fees);
    expect(preview.lines.map((l) => [l.line, l.problem?.kind ?? 'ok'])).toEqual([
      [1, 'ok'],
      [2, 'format'],
      [3, 'service'],
      [4, 'issue'],
      [5, 'issue'],
      [6, 'params'],
      [7, 'duplicate'],
      [8, 'ok'],
    ]);
    expect(preview.lines[6]!.problem).toEqual({ kind: 'duplicate', line: 1 });
    const expected = priceOrder(followers.tiers, 1000, fees).micros + priceOrder(followers.tiers, 2500, fees).micros;
    expect(preview.lines[0]!.totalMicros).toBe(priceOrder(followers.tiers, 1000, fees).micros);
    expect(preview).toMatchObject({ valid: 2, totalMicros: expected, tooMany: false });
  });

  it('takes a service whose extra fields are all optional, and refuses only one that requires some', () => {
    const preview = previewMassOrder(['14|https://instagram.com/optional|1000', '13|https://instagram.com/p/required|100'].join('\n'), services, fees);
    expect(preview.lines.map((l) => l.problem?.kind ?? 'ok')).toEqual(['ok', 'params']);
    expect(preview).toMatchObject({ valid: 1, totalMicros: priceOrder(optionalFields.tiers, 1000, fees).micros });
  });

  it('says when there are more lines than one mass order takes', () => {
    const text = Array.from({ length: 101 }, (_, i) => `12|https://instagram.com/u${i}|100`).join('\n');
    expect(previewMassOrder(text, services, fees).tooMany).toBe(true);
  });
});

describe('mass order preview with the customer’s discount', () => {
  it('prices each line by their own rate: 1.32 per 1000 at 10 % off is 1.188, so 1000 and 2500 cost 1.188 + 2.97 plus the base fee each', () => {
    const own = customerFees(fees, { percent: '10', source: 'group', groupName: 'Resellers' });
    const preview = previewMassOrder(['12|https://instagram.com/a|1000', '12|https://instagram.com/b|2500'].join('\n'), services, own);
    // Base fee 0.05 + 10 % = 0.055, less 10 % = 0.0495.
    expect(preview.lines.map((l) => l.totalMicros)).toEqual([1_188_000 + 49_500, 2_970_000 + 49_500]);
    expect(preview.totalMicros).toBe(4_257_000);
  });
});

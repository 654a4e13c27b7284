import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogService, ServiceParam } from './catalog';
import { AppError, ERROR_CODES } from './errors';
import { assertValidOrderInput, isQuantityAllowed, listLines, orderParams, quantityBounds, validateOrderInput } from './orderRules';
import { placeOrderInputSchema, serverOrderInputSchema } from './contracts/orderInput';

const param = (over: Partial<ServiceParam> & Pick<ServiceParam, 'fieldName'>): ServiceParam => ({
  fieldLabel: over.fieldName,
  fieldType: 'text',
  placeholder: '',
  description: '',
  required: false,
  options: [],
  ...over,
});

const service = (over: Partial<CatalogService> = {}): CatalogService => ({
  id: '1',
  platform: 'instagram',
  name: 'Instagram Followers',
  type: 'Followers',
  description: null,
  example: null,
  amountMinimum: 100,
  amountIncrement: 50,
  tiers: [{ minimum: 100, maximum: 5000, price: '1.5', pricingPer: 1000 }],
  params: [],
  refill: false,
  refillDays: null,
  cancel: false,
  dripfeed: false,
  ...over,
});

const LINK = 'https://instagram.com/natgeo';

describe('quantityBounds', () => {
  it('reads minimum, first tier maximum and increment', () => {
    expect(quantityBounds(service())).toEqual({ min: 100, max: 5000, step: 50 });
  });

  it('uses the first tier even when a later one goes higher', () => {
    const tiers = [
      { minimum: 10, maximum: 999, price: '2', pricingPer: 1000 },
      { minimum: 1000, maximum: 50_000, price: '1', pricingPer: 1000 },
    ];
    expect(quantityBounds(service({ tiers })).max).toBe(999);
  });

  it('falls back to 1 / 10000 / 1', () => {
    const bare = { amountMinimum: undefined, amountIncrement: 0, tiers: [] } as unknown as CatalogService;
    expect(quantityBounds(bare)).toEqual({ min: 1, max: 10_000, step: 1 });
    expect(quantityBounds(service({ amountMinimum: -5, amountIncrement: 2.5, tiers: [] }))).toEqual({ min: 1, max: 10_000, step: 1 });
  });
});

describe('isQuantityAllowed', () => {
  const bounds = { min: 100, max: 5000, step: 50 };
  it.each([100, 150, 5000, 4950, 1000])('allows %d', (q) => expect(isQuantityAllowed(q, bounds)).toBe(true));
  it.each([0, -100, 99, 5001, 5050, 120, 149, 100.5, NaN, Infinity])('refuses %d', (q) =>
    expect(isQuantityAllowed(q, bounds)).toBe(false));

  it('accepts exactly min + k × step within bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: -10, max: 200_000 }),
        (min, step, span, q) => {
          const bounds = { min, max: min + span, step };
          const expected = q >= min && q <= min + span && (q - min) % step === 0;
          expect(isQuantityAllowed(q, bounds)).toBe(expected);
        }),
    );
  });
});

describe('validateOrderInput', () => {
  it('accepts a valid order', () => {
    expect(validateOrderInput(service(), { link: LINK, quantity: 150 })).toEqual([]);
  });

  it('reports a missing link and a link of another platform', () => {
    expect(validateOrderInput(service(), { link: '   ', quantity: 100 })).toEqual([
      { code: 'LINK_INVALID', field: 'link', details: { reason: 'required' } },
    ]);
    expect(validateOrderInput(service(), { link: 'https://tiktok.com/@x', quantity: 100 })).toEqual([
      { code: 'LINK_INVALID', field: 'link', details: { reason: 'format' } },
    ]);
  });

  it('trims the link before checking it', () => {
    expect(validateOrderInput(service(), { link: `  ${LINK}  `, quantity: 100 })).toEqual([]);
  });

  it('accepts any http(s) link for a service without a known platform', () => {
    expect(validateOrderInput(service({ platform: '' }), { link: 'https://example.com/x', quantity: 100 })).toEqual([]);
    expect(validateOrderInput(service({ platform: '' }), { link: 'javascript:alert(1)', quantity: 100 })[0]?.code).toBe('LINK_INVALID');
  });

  it.each([99, 5001, 120, 0, -50, 150.5, NaN])('reports quantity %d with the bounds', (quantity) => {
    expect(validateOrderInput(service(), { link: LINK, quantity })).toEqual([
      { code: 'QUANTITY_OUT_OF_RANGE', field: 'quantity', details: { min: 100, max: 5000, step: 50 } },
    ]);
  });

  it('reports missing required params with label and field, ignoring optional ones', () => {
    const params = [
      param({ fieldName: 'comments', fieldLabel: 'Şərhlər', fieldType: 'textarea', required: true }),
      param({ fieldName: 'username', fieldLabel: '', required: true }),
      param({ fieldName: 'note', fieldLabel: 'Qeyd' }),
    ];
    expect(validateOrderInput(service({ params }), { link: LINK, quantity: 100, params: { comments: ' \n ' } })).toEqual([
      { code: 'PARAM_REQUIRED', field: 'params.comments', details: { field: 'comments', label: 'Şərhlər' } },
      { code: 'PARAM_REQUIRED', field: 'params.username', details: { field: 'username', label: 'username' } },
    ]);
    expect(validateOrderInput(service({ params }), { link: LINK, quantity: 100, params: { comments: 'nice', username: 'bob' } })).toEqual([]);
  });

  it('does not take inherited object members for param values', () => {
    const params = [param({ fieldName: 'constructor', required: true }), param({ fieldName: 'toString', required: true })];
    const issues = validateOrderInput(service({ params }), { link: LINK, quantity: 100, params: {} });
    expect(issues.map((i) => i.code)).toEqual(['PARAM_REQUIRED', 'PARAM_REQUIRED']);
  });

  it('refuses a dropdown value that is not an option', () => {
    const params = [
      param({ fieldName: 'share_type', fieldLabel: 'Share type', fieldType: 'dropdown', required: true,
        options: [{ name: 'Facebook', value: '0' }, { name: 'Twitter', value: '1' }] }),
    ];
    const input = (v: string) => ({ link: LINK, quantity: 100, params: { share_type: v } });
    expect(validateOrderInput(service({ params }), input('1'))).toEqual([]);
    expect(validateOrderInput(service({ params }), input('7'))).toEqual([
      { code: 'VALIDATION_FAILED', field: 'params.share_type', details: { field: 'share_type', label: 'Share type', reason: 'option' } },
    ]);
    expect(validateOrderInput(service({ params }), input(''))[0]?.code).toBe('PARAM_REQUIRED');
  });

  it('reports every problem at once, each with a known error code', () => {
    const params = [param({ fieldName: 'username', fieldLabel: 'İstifadəçi adı', required: true })];
    const issues = validateOrderInput(service({ params }), { link: 'instagram.com/x', quantity: 1 });
    expect(issues.map((i) => i.field)).toEqual(['link', 'quantity', 'params.username']);
    for (const issue of issues) expect(Object.hasOwn(ERROR_CODES, issue.code)).toBe(true);
  });
});

describe('assertValidOrderInput', () => {
  it('throws the first issue as an AppError with its details', () => {
    try {
      assertValidOrderInput(service(), { link: LINK, quantity: 1 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('QUANTITY_OUT_OF_RANGE');
      expect((e as AppError).status).toBe(422);
      expect((e as AppError).details).toEqual({ field: 'quantity', min: 100, max: 5000, step: 50 });
    }
  });

  it('returns for valid input', () => {
    expect(() => assertValidOrderInput(service(), { link: LINK, quantity: 100 })).not.toThrow();
  });
});

describe('orderParams', () => {
  it('keeps declared, non-blank fields only, trimmed', () => {
    const params = [param({ fieldName: 'comments' }), param({ fieldName: 'username' }), param({ fieldName: 'hashtag' })];
    expect(orderParams(service({ params }), { comments: ' a\nb \n', username: '  ', extra: 'x', constructor: 'y' })).toEqual({
      comments: 'a\nb',
    });
    expect(orderParams(service({ params }), undefined)).toEqual({});
  });
});

describe('placeOrderInputSchema', () => {
  const body = {
    serviceId: '42',
    link: `  ${LINK}  `,
    quantity: 100,
    params: { comments: 'hi' },
    idempotencyKey: '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11',
  };

  it('parses a valid body, trimming the link, and refuses unknown fields', () => {
    expect(placeOrderInputSchema.parse(body)).toEqual({ ...body, link: LINK });
    expect(placeOrderInputSchema.safeParse({ ...body, price: 0, userId: 'someone-else' }).success).toBe(false);
  });

  it('defaults params to an empty record', () => {
    const { params: _omit, ...rest } = body;
    expect(placeOrderInputSchema.parse(rest).params).toEqual({});
  });

  it.each([
    ['blank serviceId', { serviceId: '  ' }],
    ['numeric serviceId', { serviceId: 42 }],
    ['link too long', { link: `https://instagram.com/${'a'.repeat(2048)}` }],
    ['quantity as text', { quantity: '100' }],
    ['fractional quantity', { quantity: 1.5 }],
    ['unsafe quantity', { quantity: 2 ** 60 }],
    ['non-text param', { params: { comments: 5 } }],
    ['param too long', { params: { comments: 'x'.repeat(5001) } }],
    ['21 params', { params: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, 'v'])) }],
    ['odd param name', { params: { 'a b': 'v' } }],
    ['short idempotency key', { idempotencyKey: 'abc1234' }],
    ['long idempotency key', { idempotencyKey: 'a'.repeat(101) }],
    ['idempotency key with odd characters', { idempotencyKey: 'abc/../1234' }],
    ['missing idempotency key', { idempotencyKey: undefined }],
  ])('refuses %s', (_name, change) => {
    expect(placeOrderInputSchema.safeParse({ ...body, ...change }).success).toBe(false);
  });

  it('accepts the limits', () => {
    const params = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, 'v'.repeat(5000)]));
    expect(placeOrderInputSchema.safeParse({ ...body, params, idempotencyKey: 'a'.repeat(8) }).success).toBe(true);
    expect(placeOrderInputSchema.safeParse({ ...body, link: `https://instagram.com/${'a'.repeat(2026)}` }).success).toBe(true);
  });

  it('refuses the keys the server makes for its own orders, which only the server’s schema takes', () => {
    for (const idempotencyKey of ['api_3f1c9a2e7b4d', 'API_3f1c9a2e7b4d', 'mass_3f1c9a2e-7b4d_1', 'drip_0e2d5b8c-7a11_1', 'drip:0e2d5b8c-7a11:1']) {
      expect(placeOrderInputSchema.safeParse({ ...body, idempotencyKey }).success, idempotencyKey).toBe(false);
    }
    for (const idempotencyKey of ['api_3f1c9a2e7b4d', 'mass_3f1c9a2e-7b4d_1']) expect(serverOrderInputSchema.safeParse({ ...body, idempotencyKey }).success).toBe(true);
    // Keys that merely contain the words stay the customer's.
    for (const idempotencyKey of ['my-api_key-1', 'apis-3f1c9a2e', 'dripfeed-3f1c9a2e']) expect(placeOrderInputSchema.safeParse({ ...body, idempotencyKey }).success).toBe(true);
  });

  it('drops a __proto__ param key without touching any prototype', () => {
    const raw = JSON.parse(`{"serviceId":"1","link":"${LINK}","quantity":100,"idempotencyKey":"abcdefgh","params":{"__proto__":{"polluted":"yes"},"a":"b"}}`);
    const parsed = placeOrderInputSchema.parse(raw);
    expect(Object.keys(parsed.params)).toEqual(['a']);
    expect((parsed.params as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('listLines', () => {
  it('gives the non-empty lines of a list, trimmed, whatever the line ends', () => {
    expect(listLines('Great post!\r\n\r\n  Love it  \n \t \rNice\n')).toEqual(['Great post!', 'Love it', 'Nice']);
    expect(listLines(' \n\n')).toEqual([]);
    expect(listLines('one')).toEqual(['one']);
  });
});

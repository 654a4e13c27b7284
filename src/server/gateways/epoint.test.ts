import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import { decimalToQepik, qepikToDecimal } from './amount';
import { createEpointGateway, epointEncode, epointSign, epointVerify } from './epoint';
import { createGateway } from './index';

// Worked out by hand with `openssl dgst -sha1 -binary | base64` and with Python's hashlib.
const VECTOR = {
  privateKey: 'secret',
  payload: { order_id: 'x1', amount: '17.17' },
  data: 'eyJvcmRlcl9pZCI6IngxIiwiYW1vdW50IjoiMTcuMTcifQ==',
  signature: 'XgCVT1xcdF32aaJKFTmblRZbHbE=',
};

/** The formula spelled out byte by byte, apart from the code under test. */
const independentSign = (key: string, data: string) =>
  createHash('sha1').update(Buffer.concat([Buffer.from(key), Buffer.from(data), Buffer.from(key)])).digest().toString('base64');

describe('Epoint signature', () => {
  it('matches the fixed vector', () => {
    expect(epointEncode(VECTOR.payload)).toBe(VECTOR.data);
    expect(epointSign(VECTOR.privateKey, VECTOR.data)).toBe(VECTOR.signature);
    expect(epointVerify(VECTOR.privateKey, VECTOR.data, VECTOR.signature)).toBe(true);
  });

  it('matches an independent computation, including non-ASCII text', () => {
    for (const [key, payload] of [
      ['pk_live_9f8e', { public_key: 'i000000001', amount: '0.01', description: 'Balans artımı — ödəniş' }],
      ['ключ', { order_id: 'balance-42', other_attr: [1, 'ə'] }],
    ] as const) {
      const data = epointEncode(payload);
      expect(Buffer.from(data, 'base64').toString('utf8')).toBe(JSON.stringify(payload));
      expect(epointSign(key, data)).toBe(independentSign(key, data));
    }
  });

  it('is not an HMAC', () => {
    expect(epointSign('secret', VECTOR.data)).not.toBe(createHmac('sha1', 'secret').update(VECTOR.data).digest('base64'));
  });

  it('refuses wrong, truncated and foreign signatures', () => {
    expect(epointVerify('secret', VECTOR.data, VECTOR.signature.slice(0, -2))).toBe(false);
    expect(epointVerify('secret', VECTOR.data, '')).toBe(false);
    expect(epointVerify('other', VECTOR.data, VECTOR.signature)).toBe(false);
    expect(epointVerify('secret', `${VECTOR.data} `, VECTOR.signature)).toBe(false);
  });
});

describe('amount conversion', () => {
  it('formats qəpik as a two-place decimal string', () => {
    expect(qepikToDecimal(1717)).toBe('17.17');
    expect(qepikToDecimal(5)).toBe('0.05');
    expect(qepikToDecimal(100)).toBe('1.00');
    expect(qepikToDecimal(0)).toBe('0.00');
    expect(qepikToDecimal(123_456_789)).toBe('1234567.89');
    for (const bad of [1.5, -1, Number.NaN, 2 ** 53]) expect(() => qepikToDecimal(bad)).toThrow(RangeError);
  });

  it('reads decimal strings and JSON numbers exactly', () => {
    expect(decimalToQepik('17.17')).toBe(1717);
    expect(decimalToQepik(17.17)).toBe(1717);
    expect(decimalToQepik(' 17.1 ')).toBe(1710);
    expect(decimalToQepik('17')).toBe(1700);
    expect(decimalToQepik('17.170')).toBe(1717);
    expect(decimalToQepik(0.29)).toBe(29);
    for (const bad of ['17.171', '-1', '1e3', 'abc', '', '.5', null, undefined, {}, 10.1 * 1.7]) {
      expect(decimalToQepik(bad)).toBeNull();
    }
  });

  it('round-trips every amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e13 }), (q) => {
        expect(decimalToQepik(qepikToDecimal(q))).toBe(q);
        expect(decimalToQepik(Number(qepikToDecimal(q)))).toBe(q);
      }),
    );
  });
});

describe('parseCallback', () => {
  const gateway = createEpointGateway({ publicKey: 'pub', privateKey: 'priv' });
  const signed = (payload: unknown, key = 'priv') => {
    const data = epointEncode(payload);
    return { data, signature: epointSign(key, data) };
  };
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof AppError ? err.code : 'not an AppError';
    }
    return 'no error';
  };

  it('decodes a signed callback, tolerating numbers-as-strings and extra fields', () => {
    const status = gateway.parseCallback(
      signed({ status: 'success', code: 0, message: 'Approved', transaction: 12345, order_id: 'balance-1', amount: '17.17', rrn: '1', extra: true }),
    );
    expect(status).toMatchObject({
      state: 'success', transactionId: '12345', reference: 'balance-1', amountMinor: 1717, currency: null, code: '0', message: 'Approved',
    });
    expect(status.raw).toMatchObject({ extra: true });
    expect(gateway.parseCallback(signed({ status: 'success', amount: 17.17 })).amountMinor).toBe(1717);
  });

  it('maps every Epoint status', () => {
    const state = (status: string) => gateway.parseCallback(signed({ status })).state;
    expect(state('success')).toBe('success');
    expect(state('new')).toBe('pending');
    expect(state('returned')).toBe('returned');
    expect(state('error')).toBe('failed');
    expect(state('server_error')).toBe('failed');
    expect(state('something-else')).toBe('pending');
  });

  it('refuses missing, forged and undecodable callbacks', () => {
    const good = signed({ status: 'success', amount: '1.00' });
    expect(code(() => gateway.parseCallback({}))).toBe('SIGNATURE_INVALID');
    expect(code(() => gateway.parseCallback({ data: good.data }))).toBe('SIGNATURE_INVALID');
    expect(code(() => gateway.parseCallback({ signature: good.signature }))).toBe('SIGNATURE_INVALID');
    expect(code(() => gateway.parseCallback({ data: good.data, signature: signed({ status: 'success' }, 'wrong').signature }))).toBe('SIGNATURE_INVALID');
    const forged = signed({ status: 'success', amount: '1000.00' }, 'wrong');
    expect(code(() => gateway.parseCallback(forged))).toBe('SIGNATURE_INVALID');
    expect(code(() => gateway.parseCallback({ data: forged.data, signature: good.signature }))).toBe('SIGNATURE_INVALID');
    // Correctly signed but not base64 JSON of a status object.
    for (const data of ['not base64!', Buffer.from('not json').toString('base64'), epointEncode([1, 2]), epointEncode({ amount: 1 })]) {
      expect(code(() => gateway.parseCallback({ data, signature: epointSign('priv', data) }))).toBe('SIGNATURE_INVALID');
    }
  });
});

describe('createGateway', () => {
  it('names the adapter by kind and needs a URL for the sandbox', () => {
    expect(createGateway({ kind: 'epoint', publicKey: 'a', privateKey: 'b' }).name).toBe('epoint');
    expect(createGateway({ kind: 'sandbox', baseUrl: 'http://127.0.0.1:1/api/1', publicKey: 'a', privateKey: 'b' }).name).toBe('sandbox');
    expect(() => createGateway({ kind: 'sandbox', publicKey: 'a', privateKey: 'b' })).toThrow(/baseUrl/);
  });
});

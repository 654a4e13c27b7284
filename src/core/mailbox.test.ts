import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalMailbox, DOT_BLIND_DOMAINS } from './mailbox';

const localChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));
/** A local part without tag or dots. */
const plainLocal = fc.string({ unit: localChar, minLength: 1, maxLength: 20 });
const tag = fc.string({ unit: fc.constantFrom(...'abcXYZ019.+-_'.split('')), maxLength: 12 });
const otherDomain = fc.constantFrom('example.com', 'mail.ru', 'artim.az', 'outlook.com', 'gmail.co', 'gmail.com.tr', 'yandex.ru');
const dotBlind = fc.constantFrom(...Object.keys(DOT_BLIND_DOMAINS));
const anyDomain = fc.oneof(otherDomain, dotBlind);
/** Dots put between the characters of a local part. */
const withDots = (local: string, at: boolean[]) => [...local].map((ch, i) => (at[i] ? `${ch}.` : ch)).join('');
const dotPlaces = fc.array(fc.boolean(), { maxLength: 20 });
const randomCase = (s: string, up: boolean[]) => [...s].map((ch, i) => (up[i % Math.max(up.length, 1)] ? ch.toUpperCase() : ch)).join('');

describe('canonicalMailbox', () => {
  it('makes the addresses of one mailbox one string', () => {
    const farm = ['farm+1@gmail.com', 'farm+2@gmail.com', 'f.arm@gmail.com', 'FARM+3@gmail.com', 'F.a.r.m+x.y@GoogleMail.com', ' farm@gmail.com '];
    expect(new Set(farm.map(canonicalMailbox))).toEqual(new Set(['farm@gmail.com']));
    expect(['farm+1@x.az', 'FARM+2@X.AZ', 'farm@x.az'].map(canonicalMailbox)).toEqual(['farm@x.az', 'farm@x.az', 'farm@x.az']);
    // Dots count where the provider does not ignore them; a look-alike domain is another provider.
    expect(canonicalMailbox('f.arm@x.az')).toBe('f.arm@x.az');
    expect(canonicalMailbox('f.arm@gmail.com.tr')).toBe('f.arm@gmail.com.tr');
    expect(canonicalMailbox('f.arm@mail.gmail.com')).toBe('f.arm@mail.gmail.com');
  });

  it('is idempotent and ignores case', () => {
    fc.assert(
      fc.property(plainLocal, tag, dotPlaces, anyDomain, fc.array(fc.boolean(), { minLength: 1 }), (local, t, dots, domain, up) => {
        const address = `${withDots(local, dots)}+${t}@${domain}`;
        const canonical = canonicalMailbox(address);
        expect(canonicalMailbox(canonical)).toBe(canonical);
        expect(canonicalMailbox(randomCase(address, up))).toBe(canonical);
        expect(canonical).toBe(canonical.toLowerCase());
      }),
    );
  });

  it('drops the sub-address tag at every provider', () => {
    fc.assert(
      fc.property(plainLocal, dotPlaces, tag, anyDomain, (local, dots, t, domain) => {
        const base = `${withDots(local, dots)}@${domain}`;
        expect(canonicalMailbox(`${withDots(local, dots)}+${t}@${domain}`)).toBe(canonicalMailbox(base));
      }),
    );
  });

  it('drops the dots of the local part at gmail.com and googlemail.com, which are one provider, and nowhere else', () => {
    fc.assert(
      fc.property(plainLocal, dotPlaces, dotBlind, otherDomain, (local, dots, blind, other) => {
        expect(canonicalMailbox(`${withDots(local, dots)}@${blind}`)).toBe(`${local.toLowerCase()}@gmail.com`);
        expect(canonicalMailbox(`${withDots(local, dots)}@${other}`)).toBe(`${withDots(local, dots).toLowerCase()}@${other}`);
      }),
    );
  });

  it('keeps different mailboxes apart', () => {
    fc.assert(
      fc.property(plainLocal, plainLocal, anyDomain, anyDomain, (a, b, da, db) => {
        const provider = (d: string) => DOT_BLIND_DOMAINS[d] ?? d;
        fc.pre(a.toLowerCase() !== b.toLowerCase() || provider(da) !== provider(db));
        expect(canonicalMailbox(`${a}@${da}`)).not.toBe(canonicalMailbox(`${b}@${db}`));
      }),
    );
  });
});

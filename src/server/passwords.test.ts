import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from 'better-auth/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** passwords.ts as it loads under the given NODE_ENV. */
async function passwordsUnder(nodeEnv: string) {
  vi.stubEnv('NODE_ENV', nodeEnv);
  vi.resetModules();
  return import('./passwords');
}

describe('password hashes', () => {
  it('in the tests: cheap hashes, marked, that pass with the right password only; better-auth’s own still pass', async () => {
    const { hashPassword, verifyPassword } = await passwordsUnder('test');
    const hash = await hashPassword('Str0ng-pass!');
    expect(hash).toMatch(/^test\$[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: 'Str0ng-pass!' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'Str0ng-pass?' })).toBe(false);
    expect(await verifyPassword({ hash: 'test$', password: '' })).toBe(false);
    const standard = await betterAuthHash('Str0ng-pass!');
    expect(await verifyPassword({ hash: standard, password: 'Str0ng-pass!' })).toBe(true);
    expect(await verifyPassword({ hash: standard, password: 'Str0ng-pass?' })).toBe(false);
  });

  it.each(['production', 'development'])('under %s: better-auth’s scrypt only, and a hash marked for the tests never passes', async (nodeEnv) => {
    const { hashPassword: testHash } = await passwordsUnder('test');
    const marked = await testHash('Str0ng-pass!');
    const { hashPassword, verifyPassword } = await passwordsUnder(nodeEnv);
    const hash = await hashPassword('Str0ng-pass!');
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await betterAuthVerify({ hash, password: 'Str0ng-pass!' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'Str0ng-pass!' })).toBe(true);
    expect(await verifyPassword({ hash: marked, password: 'Str0ng-pass!' })).toBe(false);
  });
});

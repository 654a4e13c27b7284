import { randomBytes, scrypt } from 'node:crypto';
import { hashPassword as scryptHash, verifyPassword as scryptVerify } from 'better-auth/crypto';

/**
 * How passwords are hashed: better-auth's scrypt (N = 16384, r = 16 — about a tenth of a second of
 * CPU and 32 MB for each sign-up, sign-in and password change), everywhere but in the tests.
 *
 * Under NODE_ENV=test (the test runner's, and the app processes the tests start) new hashes are
 * made with a cost 256 times lower and marked `test$`, because the tests sign up and sign in
 * thousands of times; what they check — a hash is stored, the right password passes, a wrong one
 * does not — holds at any cost. A marked hash never passes outside the tests: there only
 * better-auth's own format is read, and a marked one fails it as any wrong hash does.
 */
const TESTS = process.env.NODE_ENV === 'test';
const TEST_MARK = 'test$';
const TEST_COST = { N: 1024, r: 1, p: 1 };

function testKey(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 64, TEST_COST, (err, key) => (err ? reject(err) : resolve(key.toString('hex')))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  if (!TESTS) return scryptHash(password);
  const salt = randomBytes(16).toString('hex');
  return `${TEST_MARK}${salt}:${await testKey(password, salt)}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  if (TESTS && hash.startsWith(TEST_MARK)) {
    const [salt, key] = hash.slice(TEST_MARK.length).split(':');
    return !!salt && !!key && (await testKey(password, salt)) === key;
  }
  return scryptVerify({ hash, password });
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Providers' API keys at rest: AES-256-GCM under a key derived from PROVIDER_KEYS_SECRET
 * (docs/decisions/0016). A sealed key reads `v1.<iv><tag><ciphertext>` in base64url; a fresh IV
 * each time, so the same key never seals to the same text, and the tag refuses a text that was
 * altered or sealed under another secret.
 */
export interface KeyBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function keyBox(secret: string): KeyBox {
  if (secret.length < 32) throw new Error('PROVIDER_KEYS_SECRET must be at least 32 characters');
  const key = createHash('sha256').update(`artim-provider-keys:${secret}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (!sealed.startsWith(VERSION)) throw new Error('not a sealed provider key');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** What the admin sees of a key once it is saved: its last four characters. */
export const keyHint = (key: string) => key.slice(-4);

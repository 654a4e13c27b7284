/**
 * Epoint's wire format as the gateway side sees it. Written apart from the storefront's adapter
 * on purpose: the sandbox checks the adapter, so it must not share the adapter's code.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const sign = (privateKey: string, data: string): string =>
  createHash('sha1').update(Buffer.from(`${privateKey}${data}${privateKey}`, 'utf8')).digest('base64');

export const encode = (payload: unknown): string => Buffer.from(JSON.stringify(payload)).toString('base64');

export function signatureMatches(privateKey: string, data: string, signature: string): boolean {
  const a = Buffer.from(sign(privateKey, data));
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** base64 JSON object, or null. */
export function decode(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** "17.17" → 1717 qəpik; null unless a positive amount with at most two decimals. */
export function parseAmount(value: unknown): number | null {
  const m = typeof value === 'string' || typeof value === 'number' ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(String(value)) : null;
  if (!m) return null;
  const qepik = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return qepik > 0 ? qepik : null;
}

/** 1717 → "17.17" */
export const formatAmount = (qepik: number): string => `${Math.trunc(qepik / 100)}.${String(qepik % 100).padStart(2, '0')}`;

/** Epoint sends amounts as JSON numbers; 1717 → 17.17 (the shortest float that prints as "17.17"). */
export const amountNumber = (qepik: number): number => Number(formatAmount(qepik));

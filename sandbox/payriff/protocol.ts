/**
 * Payriff's wire format as the gateway side sees it. Written apart from the storefront's adapter
 * on purpose: the sandbox checks the adapter, so it must not share the adapter's code.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The result code of a call that did what it was asked; every other code is a refusal. */
export const OK = '00000';
export const CODES = {
  ok: OK,
  unauthorized: '14010',
  invalid: '15400',
  refused: '01000',
} as const;

/** Whether the `Authorization` header is the secret key, compared in constant time. */
export function keyMatches(secretKey: string, header: string | undefined): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return header !== undefined && timingSafeEqual(digest(secretKey), digest(header));
}

/** 17.17 or "17.17" → 1717 qəpik; null unless a positive amount with at most two decimals. */
export function parseAmount(value: unknown): number | null {
  const m = typeof value === 'string' || typeof value === 'number' ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(String(value)) : null;
  if (!m) return null;
  const qepik = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return qepik > 0 ? qepik : null;
}

/** 1717 → "17.17" */
export const formatAmount = (qepik: number): string => `${Math.trunc(qepik / 100)}.${String(qepik % 100).padStart(2, '0')}`;

/** Payriff sends amounts as JSON numbers in manat: 1717 → 17.17. */
export const amountNumber = (qepik: number): number => Number(formatAmount(qepik));

/** The envelope every reply and notification comes in. */
export const envelope = (code: string, message: string, payload: unknown = null) => ({
  code,
  message,
  route: null,
  internalMessage: null,
  responseId: crypto.randomUUID(),
  payload,
});

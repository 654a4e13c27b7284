/**
 * PayTR's wire format as the gateway side sees it (dev.paytr.com, iFrame API and status
 * inquiry). Written apart from the storefront's adapter on purpose: the sandbox checks the
 * adapter, so it must not share the adapter's code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const hmac = (key: string, text: string): string => createHmac('sha256', key).update(Buffer.from(text, 'utf8')).digest('base64');

/** Equal-length constant-time comparison of two base64 texts. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface Keys {
  merchantId: string;
  merchantKey: string;
  merchantSalt: string;
}

/** get-token's paytr_token over the fields as they arrived. */
export const tokenOf = (k: Keys, f: Record<string, string>): string =>
  hmac(
    k.merchantKey,
    `${f.merchant_id}${f.user_ip}${f.merchant_oid}${f.email}${f.payment_amount}${f.user_basket}${f.no_installment}${f.max_installment}${f.currency}${f.test_mode}${k.merchantSalt}`,
  );

/** durum-sorgu's paytr_token. */
export const statusTokenOf = (k: Keys, merchantOid: string): string => hmac(k.merchantKey, `${k.merchantId}${merchantOid}${k.merchantSalt}`);

/** A notification's hash. */
export const notificationHashOf = (k: Keys, merchantOid: string, status: string, totalAmount: string): string =>
  hmac(k.merchantKey, `${merchantOid}${k.merchantSalt}${status}${totalAmount}`);

/** Kuruş as the status inquiry writes lira: a comma and two places (1080 → "10,80"). */
export const liraComma = (kurus: number): string => `${Math.trunc(kurus / 100)},${String(kurus % 100).padStart(2, '0')}`;

/** Kuruş as the hosted page shows it: "10,80" in Turkish, "10.80" in English. */
export const liraFor = (kurus: number, lang: 'tr' | 'en'): string => (lang === 'tr' ? liraComma(kurus) : liraComma(kurus).replace(',', '.'));

/** The basket as PayTR reads it: base64 of JSON [[name, price, quantity], …]; null when unreadable. */
export function decodeBasket(value: string): [string, string, number][] | null {
  try {
    const basket: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    const line = (l: unknown) => Array.isArray(l) && l.length === 3 && typeof l[0] === 'string' && /^\d+(\.\d{1,2})?$/.test(String(l[1])) && Number.isInteger(Number(l[2]));
    return Array.isArray(basket) && basket.length > 0 && basket.every(line) ? (basket as [string, string, number][]) : null;
  } catch {
    return null;
  }
}

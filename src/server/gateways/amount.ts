/**
 * Exact conversions between integer qəpik and the decimal strings gateways use ("17.17").
 * Pure string arithmetic: a float never holds money here.
 */

/** 1717 → "17.17", 5 → "0.05". Refuses anything but a non-negative safe integer. */
export function qepikToDecimal(qepik: number): string {
  if (!Number.isSafeInteger(qepik) || qepik < 0) {
    throw new RangeError(`amount must be a non-negative integer of qəpik, got ${qepik}`);
  }
  const digits = String(qepik).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * "17.17" / "17.1" / "17" / 17.17 → qəpik; null when the value is not a plain non-negative
 * decimal with at most two significant fraction digits. A number is read through its shortest
 * decimal form (what JSON carried), so 17.17 is exactly 1717.
 */
export function decimalToQepik(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null) return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (/[^0]/.test(fraction.slice(2))) return null;
  const qepik = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(qepik) ? qepik : null;
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { payments } from '../db/schema';
import { gatewayRegistry } from '../gateways';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';

/**
 * /payment-success?order=… (features/payments/PaymentSuccessPage.tsx, docs/decisions/0035): the
 * server checks the payment while it writes the page. "Attempt 1/3" goes out at once; each later
 * state follows in the same answer, hiding the one before; no island of the page's own.
 */
let database: Database;
let app: Hono;
let customer: Awaited<ReturnType<typeof signUpUser>>;

beforeAll(async () => {
  database = await createTestDatabase();
  // A built app (clientDir set): anonymous pages are kept in memory, customers' cut from shells.
  ({ app } = await createTestApp(database, { web: sourceRenderer(), gateways: gatewayRegistry({}), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
  customer = await signUpUser(app);
  const payment = (reference: string, status: 'completed' | 'failed') => ({ reference, userId: customer.id, amountUsdMicros: 5_000_000, amountMinor: 850, rate: '1.7', provider: 'sandbox', status });
  await database.db
    .insert(payments)
    .values([payment(`balance-done-${customer.id}`, 'completed'), { ...payment(`balance-declined-${customer.id}`, 'failed'), gatewayCode: '05', gatewayMessage: 'Do not honour' }]);
});
afterAll(async () => {
  await database.close();
});

/** The answer's parts as they arrive: the first read, and the whole page once it ends. */
async function readParts(res: Response): Promise<{ first: string; whole: string }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const first = decoder.decode((await reader.read()).value, { stream: true });
  let whole = first;
  for (let part = await reader.read(); !part.done; part = await reader.read()) whole += decoder.decode(part.value, { stream: true });
  return { first, whole: whole + decoder.decode() };
}

describe('the payment return page', () => {
  it('sends "attempt 1/3" at once and the completed state after, in the same answer, never kept', async () => {
    const reference = `balance-done-${customer.id}`;
    const res = await app.request(`/payment-success?order=${reference}`, { headers: { cookie: customer.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');
    const { first, whole } = await readParts(res);
    // The first part ends where the later states go: the page is on the screen, checking.
    expect(first).toContain('data-status="verifying"');
    expect(first).toContain('Attempt 1/3');
    expect(first).not.toContain('data-stream-step="1"');
    expect(first).not.toContain('</html>');
    // Then the completed state, which hides the first, and the rest of the page.
    expect(whole).toContain('<style>[data-stream-step="0"]{display:none}</style><div data-stream-step="1"');
    expect(whole.slice(whole.indexOf('data-stream-step="1"'))).toContain('data-status="completed"');
    expect(whole).toContain(reference);
    expect(whole.trimEnd().endsWith('</html>')).toBe(true);
    // In a live region, with no island of the page's own: only the header's.
    expect(whole).toMatch(/<div role="status" aria-live="polite"[^>]*><div data-stream-step="0"/);
    expect(whole).not.toContain('data-island="PaymentSuccess"');
  });

  it('sends the visitor on to the error page when the gateway declined the payment', async () => {
    const reference = `balance-declined-${customer.id}`;
    const { whole } = await readParts(await app.request(`/payment-success?order=${reference}`, { headers: { cookie: customer.cookie } }));
    const later = whole.slice(whole.indexOf('data-stream-step="1"'));
    expect(later).toContain('data-status="failed"');
    expect(later).toContain(`<meta http-equiv="refresh" content="0;url=/payment-error?order=${reference}"/>`);
    expect(later).toContain(`href="/payment-error?order=${reference}"`);
  });

  it('the error page: "checking" at once when the address gives no reason, then the reason the server knows', async () => {
    const reference = `balance-declined-${customer.id}`;
    const { first, whole } = await readParts(await app.request(`/payment-error?order=${reference}`));
    expect(first).toContain('data-status="checking"');
    expect(first).not.toContain('data-stream-step="1"');
    const later = whole.slice(whole.indexOf('data-stream-step="1"'));
    expect(later).toContain('data-status="error"');
    expect(later).toContain('Your bank declined the card. Try another card or contact your bank.');
    expect(whole).not.toContain('data-island="PaymentError"');
    // A reason in the address is shown as text at once, and nothing is asked.
    const given = await (await app.request(`/payment-error?order=${reference}&error=${encodeURIComponent('<b>Kart rədd edildi</b>')}`)).text();
    expect(given).toContain('&lt;b&gt;Kart rədd edildi&lt;/b&gt;');
    expect(given).not.toContain('data-stream-step="1"');
  });

  it('compresses each part as it is written when the browser accepts gzip', async () => {
    const { gunzipSync } = await import('node:zlib');
    const reference = `balance-done-${customer.id}`;
    const res = await app.request(`/payment-success?order=${reference}`, { headers: { cookie: customer.cookie, 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(part.value);
    // The first chunk alone decompresses to the page's first part (it was flushed, not held).
    const firstAlone = gunzipSync(chunks[0]!, { finishFlush: (await import('node:zlib')).constants.Z_SYNC_FLUSH }).toString();
    expect(firstAlone).toContain('Attempt 1/3');
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toContain('data-status="completed"');
  });
});

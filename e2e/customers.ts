import type { Browser, BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl } from './browser';

/** A short unique part for the e-mails journeys sign up with. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Signs a new customer up in `context` (which stays signed in as them) and gives them `micros`
 * through the admin API, as the team would: the journeys' way to a customer who can order.
 */
export async function signUpWithBalance(
  browser: Browser,
  context: BrowserContext,
  o: { name: string; email: string; password: string; micros: number; url?: string },
): Promise<{ id: string; email: string }> {
  const url = o.url ?? baseUrl();
  const signUp = await context.request.post('/api/auth/sign-up/email', { headers: { Origin: url }, data: { name: o.name, email: o.email, password: o.password } });
  expect(signUp.status()).toBe(200);
  const me = (await (await context.request.get('/api/me')).json()) as { user: { id: string } };
  const admin = await browser.newContext({ baseURL: url });
  try {
    expect((await admin.request.post('/api/auth/sign-in/email', { headers: { Origin: url }, data: E2E_ADMIN })).status()).toBe(200);
    const credit = await admin.request.post(`/api/admin/users/${me.user.id}/balance`, { headers: { Origin: url }, data: { amountMicros: o.micros, reason: 'journey balance' } });
    expect(credit.status()).toBe(200);
  } finally {
    await admin.close();
  }
  return { id: me.user.id, email: o.email };
}

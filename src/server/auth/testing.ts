import type { Hono } from 'hono';

/** Test helpers for signed-in requests against an app from `createTestApp()`. */

export const TEST_ORIGIN = 'http://localhost:3000';

/** `name=value` pairs of the Set-Cookie headers, ready for a Cookie header. */
export function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

/** JSON POST from our own origin, with cookies when given. */
export function post(app: Hono, path: string, body: unknown, opts: { cookie?: string; ip?: string; origin?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.origin !== null) headers.origin = opts.origin ?? TEST_ORIGIN;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  return app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
}

let counter = 0;

/** Signs up a fresh account and returns its session cookie and details. */
export async function signUpUser(app: Hono, overrides: { email?: string; password?: string; name?: string } = {}) {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${Date.now().toString(36)}@example.com`;
  const password = overrides.password ?? 'Str0ng-pass!';
  const name = overrides.name ?? 'Test User';
  const res = await post(app, '/api/auth/sign-up/email', { email, password, name }, { ip: `198.51.100.${counter % 250}` });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { id: body.user.id, email, password, name, cookie: cookiesFrom(res) };
}

/** Signs in and returns the session cookie. */
export async function signIn(app: Hono, email: string, password: string): Promise<string> {
  const res = await post(app, '/api/auth/sign-in/email', { email, password }, { ip: '198.51.100.250' });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookiesFrom(res);
}

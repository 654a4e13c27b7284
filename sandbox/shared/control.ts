/**
 * What the payment sandboxes share outside their protocols: the `/__control` routes (read and set
 * faults and the notification URL, reset, act on one payment) and serving the app on loopback.
 * Each sandbox names its own faults, its payments' key and its actions.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { z } from 'zod';
import { keepConnections } from './keepAlive';

/** The control body's fields every sandbox has: copies, the late wait, the notification URL. */
export const COMMON_FAULTS = {
  duplicates: z.int().min(1).max(100).optional(),
  lateMs: z.int().min(0).max(600_000).optional(),
  callbackUrl: z.url().nullable().optional(),
};

export interface ControlRoutes<S, B> {
  /** The strict body of `POST /__control`: the sandbox's faults and `callbackUrl`. */
  settingsBody: z.ZodType<Partial<S> & { callbackUrl?: string | null }>;
  settings(): S;
  set(patch: Partial<S>): S;
  reset(): void;
  callbackUrl(): string | null;
  setCallbackUrl(url: string | null): void;
  /** What `GET /__control` lists besides the settings, e.g. `{ payments }`. */
  listing(): Record<string, unknown>;
  /** The actions on one payment, as a route pattern: `complete|callback`. */
  actions: string;
  actionBody: z.ZodType<B>;
  /** Runs an action; a thrown error is answered 409 with its message. */
  act(action: string, body: B): Promise<Record<string, unknown>> | Record<string, unknown>;
}

export function addControlRoutes<S, B>(app: Hono, r: ControlRoutes<S, B>): void {
  app.get('/__control', (c) => c.json({ settings: r.settings(), callbackUrl: r.callbackUrl(), ...r.listing() }));
  app.post('/__control', async (c) => {
    const parsed = r.settingsBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 422);
    const { callbackUrl, ...patch } = parsed.data;
    if (callbackUrl !== undefined) r.setCallbackUrl(callbackUrl);
    return c.json({ settings: r.set(patch as Partial<S>), callbackUrl: r.callbackUrl() });
  });
  app.post('/__control/reset', (c) => {
    r.reset();
    return c.json({ settings: r.settings() });
  });
  app.post(`/__control/:action{${r.actions}}`, async (c) => {
    const parsed = r.actionBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 422);
    try {
      return c.json(await r.act(c.req.param('action'), parsed.data));
    } catch (err) {
      return c.json({ error: err instanceof Error ? err.message : String(err) }, 409);
    }
  });
}

/** Serves the app on `host:port` (loopback and any free port by default); the origin to reach it at. */
export async function listen(app: Hono, opts: { port?: number; host?: string }) {
  const server = keepConnections(createAdaptorServer({ fetch: app.fetch }) as Server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return {
    origin: `http://${host}:${address.port}`,
    /** Drops open connections and stops listening. */
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** The caller's address, as `clientAddresses` worked it out for this request. */
    clientIp: string;
  }
}

type NodeBindings = { incoming?: { socket?: { remoteAddress?: string } }; server?: { incoming?: { socket?: { remoteAddress?: string } } } } | undefined;

/**
 * The caller's address for rate limits. Without trusted proxies it is the socket's peer. With
 * `trustedHops` reverse proxies in front (each appending the address it saw to X-Forwarded-For),
 * it is the entry that many hops from the right of "forwarded entries, then the peer": what the
 * outermost trusted proxy saw. Entries further left are the caller's own words and are ignored.
 * A request handed to the app in process (tests, server rendering) has no socket; then the first
 * X-Forwarded-For entry is used, which nothing outside the process can set on such a request.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  const forwarded = (forwardedFor ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!socketAddress) return forwarded[0] || 'local';
  if (!trustedHops) return socketAddress;
  const chain = [...forwarded, socketAddress];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}

/** Works out the caller's address once per request (see `clientAddress`). */
export function clientAddresses(trustedHops: number): MiddlewareHandler {
  return async (c, next) => {
    const env = c.env as NodeBindings;
    const socket = env?.incoming?.socket?.remoteAddress ?? env?.server?.incoming?.socket?.remoteAddress;
    c.set('clientIp', clientAddress(socket, c.req.header('x-forwarded-for'), trustedHops));
    await next();
  };
}

/** The caller's address for rate limits. */
export function clientIp(c: Context): string {
  return c.get('clientIp') ?? clientAddress(undefined, c.req.header('x-forwarded-for'), 0);
}

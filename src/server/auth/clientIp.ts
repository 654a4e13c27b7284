import type { Context } from 'hono';

/**
 * The caller's address for rate limits: the socket's peer. A request handed to the app in
 * process (tests, server rendering) has no socket; then the first X-Forwarded-For entry is used,
 * which nothing outside the process can set on such a request.
 */
export function clientIp(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; server?: { incoming?: { socket?: { remoteAddress?: string } } } } | undefined;
  const socketAddress = env?.incoming?.socket?.remoteAddress ?? env?.server?.incoming?.socket?.remoteAddress;
  if (socketAddress) return socketAddress;
  return c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || 'local';
}

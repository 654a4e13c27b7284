import type { Server } from 'node:http';

/**
 * How long every sandbox keeps an idle connection open: longer than its clients keep one (Node's
 * fetch keeps one for the server's announced time less a second), as the shop's own server does
 * (src/server/server.ts). With Node's default of 5 s, a client could send its next request on a
 * connection the sandbox was closing at that moment — a call lost as "unreachable", which a busy
 * machine makes likely.
 */
export const SANDBOX_KEEP_ALIVE_MS = 65_000;

export function keepConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = SANDBOX_KEEP_ALIVE_MS;
  return server;
}

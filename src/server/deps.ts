import type { Database } from './db/client';
import type { Env } from './env';
import type { GatewayRegistry } from './gateways';
import type { Jobs } from './jobs/boss';
import type { Logger } from './logger';
import type { Mailer } from './mail/mailer';
import type { KeyBox, ProviderRegistry } from './providers';
import type { RealtimeHub } from './realtime/hub';
import type { WebRenderer } from './web/renderer';

/** What every feature's routes may use. Built once in main.ts (or by a test). */
export interface AppDeps {
  env: Env;
  database: Database;
  logger: Logger;
  jobs?: Jobs;
  web?: WebRenderer;
  /** Directory with the built client assets (dist/client) when serving a build. */
  clientDir?: string;
  publicUrl: string;
  /** The SMM providers orders are forwarded to (src/server/providers/registry.ts). */
  providers?: ProviderRegistry;
  /** Seals and opens the providers' API keys (PROVIDER_KEYS_SECRET). */
  providerKeys?: KeyBox;
  /** The gateway of each payment method kind top-ups are paid through (sandboxes or the real ones). */
  gateways?: GatewayRegistry;
  /** Live updates to open pages (SSE), across instances. */
  realtime?: RealtimeHub;
  /** Secret that signs session cookies. */
  authSecret: string;
  /** Outgoing mail (SMTP, or the dev mailbox table when unset). */
  mailer?: Mailer;
}

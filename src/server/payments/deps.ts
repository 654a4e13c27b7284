import type { Db } from '../db/client';
import type { payments } from '../db/schema';
import type { GatewayRegistry } from '../gateways';
import type { Logger } from '../logger';
import type { RealtimeHub } from '../realtime';

/** A payment's row. */
export type PaymentRow = typeof payments.$inferSelect;

/** What the payment services work with: the database, the gateway of each method kind, the log, live notices and the shop's address. */
export interface PaymentsDeps {
  db: Db;
  /** The gateway of each method kind; a payment is settled through its own method's. */
  gateways: GatewayRegistry;
  logger: Logger;
  realtime?: RealtimeHub;
  publicUrl: string;
}

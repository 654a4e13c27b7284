import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { rowsOf } from '../db/client';
import { orders, providers } from '../db/schema';
import { providerFundsMail, type Mailer } from '../mail';
import { getSettings } from '../settings';
import { failAndRefund, notifyOrder, wakeSubmission, type OrderRow, type OrdersDeps } from './service';

/**
 * When a provider's money runs out (docs/rules.md#provider-funds). A refusal for want of funds
 * does not lose the sale: the order keeps its charge and waits (`awaiting_provider_funds`), tried
 * again every FUNDS_RETRY_MS at the first provider of its service that can take it (routing.ts),
 * and refunded once it has waited `provider_funds_wait_hours`. The provider's episode of running
 * out starts at its first such refusal and the team is told once per episode; it ends when the
 * provider takes an order again or reports a balance above `provider_low_balance` after it began.
 */

/** How long a waiting order rests before it is tried again. */
export const FUNDS_RETRY_MS = 5 * 60_000;

/** A provider refused an order for want of funds: its episode starts, unless one is under way. */
export async function markShortOfFunds(deps: Pick<OrdersDeps, 'db'>, providerId: string): Promise<void> {
  await deps.db
    .update(providers)
    .set({ fundsShortSince: sql`coalesce(${providers.fundsShortSince}, now())` })
    .where(and(eq(providers.id, providerId), isNull(providers.fundsShortSince)));
}

/**
 * The order waits for a provider with money: the claim is given back with a time before which it
 * is not claimed again, and its wait starts (unless it is waiting already). `shortOf`: the
 * providers that said they had no money for it (their episodes started as they said so).
 */
export async function waitForFunds(deps: OrdersDeps, claimed: OrderRow, shortOf: readonly string[]): Promise<OrderRow> {
  const [waiting] = await deps.db
    .update(orders)
    .set({
      submittedAt: null,
      fundsWaitSince: sql`coalesce(${orders.fundsWaitSince}, now())`,
      fundsRetryAt: sql`now() + ${`${FUNDS_RETRY_MS} milliseconds`}::interval`,
      noteCode: 'awaiting_provider_funds',
      providerMessage: null,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, claimed.id), eq(orders.status, 'pending'), isNull(orders.providerOrderId)))
    .returning();
  if (waiting) await notifyOrder(deps, waiting);
  deps.logger.warn({ order: claimed.id, providers: shortOf }, 'no provider has the money for the order; it waits');
  return waiting ?? claimed;
}

export interface FundsCheck {
  /** Episodes that ended (the provider took an order or reported enough money since). */
  recovered: number;
  /** Providers whose episode the team was told of now. */
  alerted: number;
  /** Orders refunded after waiting the set time. */
  refunded: number;
}

/**
 * The scheduled check (every minute): ends episodes that are over and sends their waiting orders
 * at once, tells the team of each new episode once (mail to `notification_email`, and the
 * dashboard), and refunds orders that have waited longer than the setting allows.
 */
export async function checkProviderFunds(deps: OrdersDeps & { mailer?: Mailer }, now = new Date()): Promise<FundsCheck> {
  const settings = await getSettings(deps.db);
  const low = settings.provider_low_balance;
  const recovered = await deps.db.execute(sql`
    update ${providers} p set funds_short_since = null, funds_alerted_at = null
    where p.funds_short_since is not null and (
      exists (select 1 from ${orders} o where o.provider_id = p.id and o.provider_order_id is not null and o.submitted_at > p.funds_short_since)
      or (p.balance_at > p.funds_short_since and p.balance ~ '^[0-9]+(\\.[0-9]+)?$' and p.balance::numeric > ${low}::numeric))
    returning p.id`);
  const over = rowsOf(recovered);
  if (over.length) {
    await deps.db.update(orders).set({ fundsRetryAt: now }).where(and(isNotNull(orders.fundsWaitSince), eq(orders.status, 'pending')));
    wakeSubmission(deps.db);
  }

  const fresh = await deps.db.select().from(providers).where(and(isNotNull(providers.fundsShortSince), isNull(providers.fundsAlertedAt)));
  for (const p of fresh) {
    const [told] = await deps.db.update(providers).set({ fundsAlertedAt: now }).where(and(eq(providers.id, p.id), isNull(providers.fundsAlertedAt))).returning();
    if (!told) continue; // another instance told them
    const [{ n } = { n: 0 }] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(isNotNull(orders.fundsWaitSince), eq(orders.status, 'pending')));
    deps.logger.error({ provider: p.name, since: p.fundsShortSince, waiting: n }, 'a provider has run out of money; orders wait');
    const to = settings.notification_email.trim();
    if (to && deps.mailer) {
      await deps.mailer.send(providerFundsMail({ to, provider: p.name, since: p.fundsShortSince!, waiting: n, siteName: settings.site_name })).catch((err) => deps.logger.warn({ err }, 'provider funds mail not sent'));
    }
  }

  const limit = new Date(now.getTime() - settings.provider_funds_wait_hours * 3_600_000);
  const expired = await deps.db
    .update(orders)
    .set({ submittedAt: now })
    .where(and(lt(orders.fundsWaitSince, limit), eq(orders.status, 'pending'), isNull(orders.submittedAt), isNull(orders.providerOrderId)))
    .returning({ id: orders.id });
  for (const o of expired) {
    await failAndRefund(deps, o.id, 'error', 'provider_no_funds', null, (row) => row.providerOrderId === null && row.status === 'pending');
  }
  return { recovered: over.length, alerted: fresh.length, refunded: expired.length };
}

/** A provider the team should look at: its balance is below the set threshold, or it has run out. */
export interface ProviderAlert {
  id: string;
  name: string;
  /** As the provider last reported it (decimal text), and its currency. */
  balance: string | null;
  currency: string | null;
  /** The balance is below `provider_low_balance`. */
  low: boolean;
  /** It refuses orders for want of funds since then (null: it does not). */
  fundsShortSince: string | null;
}

/**
 * Every enabled provider with its balance as last read (docs/rules.md#provider-funds): `low` below
 * the `provider_low_balance` setting, `fundsShortSince` while it refuses orders for want of funds;
 * and how many orders wait for a provider with funds.
 */
export async function providerBalances(db: OrdersDeps['db']): Promise<{ providers: ProviderAlert[]; waitingForFunds: number }> {
  const settings = await getSettings(db);
  const rows = await db.select().from(providers).where(eq(providers.enabled, true)).orderBy(providers.name);
  const list = rows.map((p) => ({
    id: p.id,
    name: p.name,
    balance: p.balance,
    currency: p.balanceCurrency,
    low: p.balance !== null && /^\d+(\.\d+)?$/.test(p.balance) && Number(p.balance) < settings.provider_low_balance,
    fundsShortSince: p.fundsShortSince?.toISOString() ?? null,
  }));
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(isNotNull(orders.fundsWaitSince), eq(orders.status, 'pending')));
  return { providers: list, waitingForFunds: n };
}

/** The providers the dashboard warns about (docs/rules.md#provider-funds), and how many orders wait for funds. */
export async function providerAlerts(db: OrdersDeps['db']): Promise<{ providers: ProviderAlert[]; waitingForFunds: number }> {
  const all = await providerBalances(db);
  return { providers: all.providers.filter((a) => a.low || a.fundsShortSince !== null), waitingForFunds: all.waitingForFunds };
}

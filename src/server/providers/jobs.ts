import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { providers } from '../db/schema';
import type { JobDefinition } from '../jobs/boss';
import type { Logger } from '../logger';
import type { ProviderRegistry, RegisteredProvider } from './registry';

/** How often each enabled provider's balance is read. */
export const BALANCE_EVERY_MINUTES = 5;

export type BalanceReading = { ok: true; amount: string; currency: string; at: Date } | { ok: false; error: string };

/** Asks one provider for its balance and stores the answer on its row; a failure is returned, never thrown. */
export async function readBalance(db: Db, provider: RegisteredProvider): Promise<BalanceReading> {
  let answer: { amount: string; currency: string };
  try {
    answer = await provider.client.balance();
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  const at = new Date();
  if (provider.id) await db.update(providers).set({ balance: answer.amount, balanceCurrency: answer.currency, balanceAt: at }).where(eq(providers.id, provider.id));
  return { ok: true, ...answer, at };
}

/** Reads every enabled provider's balance, one after another; a provider that fails is logged and the others still read. */
export async function readBalances(db: Db, registry: ProviderRegistry, logger: Logger): Promise<{ read: number; failed: number }> {
  let read = 0;
  let failed = 0;
  for (const p of registry.all()) {
    if (!p.enabled || !p.id) continue;
    try {
      const r = await readBalance(db, p);
      if (r.ok) read++;
      else {
        failed++;
        logger.warn({ provider: p.id, name: p.name, error: r.error }, 'provider balance could not be read');
      }
    } catch (err) {
      failed++;
      logger.warn({ err, provider: p.id, name: p.name }, 'provider balance could not be stored');
    }
  }
  return { read, failed };
}

export function providerJobs(db: Db, registry: ProviderRegistry, logger: Logger): JobDefinition[] {
  return [
    {
      name: 'provider-balances',
      cron: `*/${BALANCE_EVERY_MINUTES} * * * *`,
      handler: async () => {
        await readBalances(db, registry, logger);
      },
    },
  ];
}

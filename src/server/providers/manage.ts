import { asc, eq } from 'drizzle-orm';
import type { ProviderTestResult, ProviderView } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { Db } from '../db/client';
import { providers } from '../db/schema';
import { readBalance } from './jobs';
import type { ProviderRegistry } from './registry';
import { keyHint, type KeyBox } from './secrets';
import { announceProviders, type ProviderRow } from './stored';

/** What the team edits of a provider (validated by providerInputSchema / providerUpdateSchema). */
export interface ProviderFields {
  name: string;
  protocol: ProviderRow['protocol'];
  url: string;
  key: string;
  callsPerSecond: number;
  enabled: boolean;
}

export function toProviderView(r: ProviderRow, isDefault: boolean): ProviderView {
  return {
    id: r.id,
    name: r.name,
    protocol: r.protocol,
    url: r.url,
    keyHint: `••••${r.keyHint}`,
    callsPerSecond: r.callsPerSecond,
    enabled: r.enabled,
    fromEnv: r.fromEnv,
    envSlot: r.envSlot,
    isDefault,
    balance: r.balance !== null && r.balanceAt ? { amount: r.balance, currency: r.balanceCurrency ?? '', at: r.balanceAt.toISOString() } : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Every provider in the order they were created; the first holds the catalogue (docs/decisions/0016). */
export async function listProviders(db: Db): Promise<ProviderView[]> {
  const rows = await db.select().from(providers).orderBy(asc(providers.createdAt), asc(providers.id));
  return rows.map((r, i) => toProviderView(r, i === 0));
}

const notFound = () => new AppError('NOT_FOUND', 'Provider not found.');

async function rowOf(db: Db, id: string): Promise<ProviderRow> {
  const [row] = await db.select().from(providers).where(eq(providers.id, id));
  if (!row) throw notFound();
  return row;
}

/** Tells every instance's registry, and waits for this one's to have read the change. */
async function changed(db: Db, registry: ProviderRegistry | undefined): Promise<void> {
  await announceProviders(db);
  await registry?.refresh?.();
}

export async function addProvider(db: Db, box: KeyBox, registry: ProviderRegistry | undefined, input: ProviderFields): Promise<ProviderRow> {
  const [row] = await db
    .insert(providers)
    .values({ name: input.name, protocol: input.protocol, url: input.url, keyEncrypted: box.seal(input.key), keyHint: keyHint(input.key), callsPerSecond: input.callsPerSecond, enabled: input.enabled })
    .returning();
  await changed(db, registry);
  return row!;
}

/** Changes what is given; a key given replaces the stored one, none keeps it. Returns the row before and after. */
export async function updateProvider(db: Db, box: KeyBox, registry: ProviderRegistry | undefined, id: string, input: Partial<ProviderFields>) {
  const before = await rowOf(db, id);
  if ((before.fromEnv || before.envSlot !== null) && (input.key !== undefined || (input.url !== undefined && input.url !== before.url) || (input.protocol !== undefined && input.protocol !== before.protocol))) {
    if (before.fromEnv) throw new AppError('CONFLICT', 'The protocol, address and key of this provider are set by the environment (PROVIDER, PROVIDER_URL, PROVIDER_KEY).', { reason: 'from_env' });
    throw new AppError('CONFLICT', 'The protocol, address and key of this provider are set by the process at each start (the second sandbox provider).', { reason: 'env_slot', envSlot: before.envSlot });
  }
  const { key, ...rest } = input;
  const [after] = await db
    .update(providers)
    .set({ ...rest, ...(key !== undefined ? { keyEncrypted: box.seal(key), keyHint: keyHint(key) } : {}), updatedAt: new Date() })
    .where(eq(providers.id, id))
    .returning();
  if (!after) throw notFound();
  await changed(db, registry);
  return { before, after };
}

/** Reads the provider's balance now (stored as the scheduled reading is); its failure is answered, not thrown. */
export async function testProvider(db: Db, registry: ProviderRegistry, id: string): Promise<ProviderTestResult> {
  await rowOf(db, id);
  const entry = registry.get(id);
  if (!entry) return { ok: false, balance: null, error: 'The key cannot be opened with this PROVIDER_KEYS_SECRET.' };
  const r = await readBalance(db, entry);
  return r.ok ? { ok: true, balance: { amount: r.amount, currency: r.currency, at: r.at.toISOString() }, error: null } : { ok: false, balance: null, error: r.error };
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { providers } from '../db/schema';
import type { Logger } from '../logger';
import { clientFor } from './client';
import { registryOver, type ProviderRegistry, type RegisteredProvider } from './registry';
import { keyHint, type KeyBox } from './secrets';
import type { ProviderProtocol } from './types';

export type ProviderRow = typeof providers.$inferSelect;

/** Told on every change of a `providers` row; each instance's registry reads the rows again. */
export const PROVIDERS_CHANNEL = 'artim_providers';

/** The provider the environment describes (PROVIDER*, or the sandbox of this process). */
export interface EnvProvider {
  name: string;
  protocol: ProviderProtocol;
  url: string;
  key: string;
  callsPerSecond: number;
  /** The sandbox of this process: its address and key change at each start. */
  sandbox: boolean;
  /**
   * Unset: the environment's first provider (the row `from_env`, which only a fresh shop gets).
   * A name: a further provider this process describes (the row with that `env_slot`, e.g. the
   * sandbox's second provider), created once whatever the shop has.
   */
  envSlot?: string;
}

/**
 * The secret provider keys are sealed with: PROVIDER_KEYS_SECRET, or outside production one
 * generated once into the data folder (production requires the variable, see env.ts).
 */
export function providerKeysSecret(env: { PROVIDER_KEYS_SECRET?: string; DATA_DIR: string }): string {
  if (env.PROVIDER_KEYS_SECRET) return env.PROVIDER_KEYS_SECRET;
  mkdirSync(env.DATA_DIR, { recursive: true });
  const file = resolve(env.DATA_DIR, 'provider-keys-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The environment's provider becomes the first provider of a fresh shop, once; a shop that has
 * providers already gets none added. A provider with an `envSlot` gets its row (`env_slot`) once,
 * whatever the shop has. Their protocol, address and key stay the environment's: the row is
 * brought up to date at each start (the sandbox listens on a new address with a new key each
 * time), and each process calls it as its own environment says (`openProviderRegistry`); name,
 * pace and enabled are the admin's. Idempotent, and safe for instances starting together (at most
 * one row `from_env`, one per `env_slot`). Returns the row's id, none when a shop with providers
 * keeps its own.
 */
export async function ensureEnvProvider(db: Db, box: KeyBox, env: EnvProvider): Promise<string | undefined> {
  const mine = env.envSlot === undefined ? eq(providers.fromEnv, true) : eq(providers.envSlot, env.envSlot);
  const [row] = await db.select().from(providers).where(mine);
  if (row) {
    let opened: string | undefined;
    try {
      opened = box.open(row.keyEncrypted);
    } catch {
      // Sealed under another secret (a generated one of another data folder): the environment
      // knows the key, so it is sealed again under this one.
    }
    if (opened === env.key && row.url === env.url && row.protocol === env.protocol) return row.id;
    await db
      .update(providers)
      .set({ url: env.url, protocol: env.protocol, keyEncrypted: box.seal(env.key), keyHint: keyHint(env.key), updatedAt: new Date() })
      .where(eq(providers.id, row.id));
    await announceProviders(db);
    return row.id;
  }
  if (env.envSlot === undefined) {
    const [any] = await db.select({ id: providers.id }).from(providers).limit(1);
    if (any) return undefined;
  }
  const [created] = await db
    .insert(providers)
    .values({
      name: env.name,
      protocol: env.protocol,
      url: env.url,
      keyEncrypted: box.seal(env.key),
      keyHint: keyHint(env.key),
      callsPerSecond: env.callsPerSecond,
      fromEnv: env.envSlot === undefined,
      envSlot: env.envSlot ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: providers.id });
  await announceProviders(db);
  if (created) return created.id;
  // Another instance starting together inserted it first.
  const [theirs] = await db.select({ id: providers.id }).from(providers).where(mine);
  return theirs?.id;
}

/**
 * Every provider this process describes, in order: the environment's first (so that on a fresh
 * shop it is created first and is the default provider), then those with an `envSlot`. The rows'
 * ids, in the same order (undefined where a shop with providers keeps its own).
 */
export async function ensureEnvProviders(db: Db, box: KeyBox, list: readonly EnvProvider[]): Promise<(string | undefined)[]> {
  const ids: (string | undefined)[] = [];
  for (const env of list) ids.push(await ensureEnvProvider(db, box, env));
  return ids;
}

/** Tells every instance's registry (this one's when it listens) that a provider row changed. */
export async function announceProviders(db: Db): Promise<void> {
  await db.execute(sql`select pg_notify(${PROVIDERS_CHANNEL}, 'providers')`);
}

export interface StoredRegistry extends ProviderRegistry {
  /** Reads the rows again, building a client for each row whose address, key or pace changed. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** What a client is built from: a row whose fingerprint is the same keeps its client and pacer. */
const fingerprint = (r: ProviderRow) => `${r.protocol}\n${r.url}\n${r.keyEncrypted}\n${r.callsPerSecond}`;

/**
 * The registry of the providers kept in the database (docs/decisions/0016): the rows in the
 * order they were created, each with its client. It reads them at start, again on each change
 * notice (any instance's) and after the listening connection was lost. A row whose key cannot be
 * opened (another PROVIDER_KEYS_SECRET) is left out and logged.
 */
export async function openProviderRegistry(
  database: Database,
  opts: {
    box: KeyBox;
    logger: Logger;
    listen?: boolean;
    /**
     * The providers this process describes (`ExternalParts.envProviders`): the `from_env` row and
     * each `env_slot` row are called as they say. A slot row this process does not describe (its
     * sandbox is not running here) takes no new orders here; it still answers for its orders.
     */
    envProviders?: readonly EnvProvider[];
  },
): Promise<StoredRegistry> {
  let list: RegisteredProvider[] = [];
  const built = new Map<string, { fingerprint: string; client: RegisteredProvider['client'] }>();
  let reading: Promise<void> | undefined;
  let again = false;

  const read = async () => {
    const rows = await database.db.select().from(providers).orderBy(asc(providers.createdAt), asc(providers.id));
    const next: RegisteredProvider[] = [];
    const described = opts.envProviders ?? [];
    for (const row of rows) {
      const env = row.fromEnv ? described.find((e) => e.envSlot === undefined) : row.envSlot !== null ? described.find((e) => e.envSlot === row.envSlot) : undefined;
      const orphan = row.envSlot !== null && !env;
      const r = env ? { ...row, protocol: env.protocol, url: env.url, keyEncrypted: `env:${env.key}` } : row;
      const print = fingerprint(r);
      let client = built.get(r.id)?.fingerprint === print ? built.get(r.id)!.client : undefined;
      if (!client) {
        try {
          client = clientFor({ protocol: r.protocol, url: r.url, key: env ? env.key : opts.box.open(r.keyEncrypted), callsPerSecond: r.callsPerSecond });
        } catch (err) {
          opts.logger.error({ err, provider: r.id, name: r.name }, 'a provider key cannot be opened (was PROVIDER_KEYS_SECRET changed?); the provider is left out');
          continue;
        }
        built.set(r.id, { fingerprint: print, client });
      }
      next.push({ id: r.id, name: r.name, enabled: r.enabled && !orphan, client });
    }
    list = next;
  };
  // One read at a time; a notice during a read asks for one more after it.
  const refresh = async (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          again = false;
          await read();
        } while (again);
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };

  await refresh();
  const onNotice = () => void refresh().catch((err) => opts.logger.warn({ err }, 'reading the providers again failed'));
  const unlisten = opts.listen === false ? async () => {} : await database.listen(PROVIDERS_CHANNEL, onNotice, { onReconnect: onNotice });
  return {
    ...registryOver(() => list),
    refresh,
    close: () => unlisten(),
  };
}

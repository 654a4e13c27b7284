import { sql } from 'drizzle-orm';
import { noticeParts, type Database, type Db } from './db/client';

/**
 * Read-through caches of what nearly every request reads and rarely changes: the settings, the
 * catalogue rows orders are priced from, the services' figures, the customers' discounts, the
 * reseller API keys, the signed-in identity behind a session cookie, and a customer's balance
 * with their discount as their pages show them.
 * Every instance keeps its own and hears of changes on the `artim_cache` channel (PostgreSQL
 * LISTEN/NOTIFY): the writers of settings, catalogue, discounts and API keys announce them, and triggers on
 * sessions, user_roles and users announce those (migration 0013) and every balance change
 * (migration 0036), whoever writes them. The writing instance forgets at once; the others when
 * the notification arrives, a few milliseconds after the commit. Entries also expire on their own
 * after a short time, so a notice lost without the connection dropping is not believed forever.
 *
 * Caches exist only for a database whose instance listens (`enableCaches`, called at start-up):
 * code running on a database nobody listens to (tests driving services by hand) always reads
 * the tables.
 */
export const CACHE_CHANNEL = 'artim_cache';

export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();
  /**
   * Bumped by the notices that concern this cache alone (a balance's): a reader of it that
   * started before one must not store what it read. Every other notice bumps `Caches.generation`.
   */
  generation = 0;
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: T, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose value matches. */
  deleteWhere(match: (value: T, key: string) => boolean): void {
    for (const [k, e] of this.entries) if (match(e.value, k)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface Caches {
  settings: TtlCache<unknown>;
  services: TtlCache<unknown>;
  /** Service figures (catalog/figures.ts): no notice, they only expire. */
  figures: TtlCache<unknown>;
  /** Live reseller API keys by the key's hash, with their owner (reseller/keys.ts `authenticateKey`). */
  apiKeys: TtlCache<{ userId: string }>;
  /** Customer discounts by user id (discounts/service.ts `discountOf`). */
  discounts: TtlCache<unknown>;
  /** By session token: the signed cookie value it was verified with and the identity. */
  identities: TtlCache<{ cookie: string; userId: string; value: unknown }>;
  /** A customer's balance and discount as they are told them, by user id (discounts/service.ts `balanceAndDiscount`). */
  balances: TtlCache<unknown>;
  /**
   * Bumped by every invalidation but a balance's: a reader that started before one must not store
   * what it read, which may be older than the change. A balance changes with every order, so its
   * notice bumps only `balances.generation`: it must not keep the other caches from filling.
   */
  generation: number;
}

const registry = new WeakMap<Db, Caches>();

/** The caches of this database, or undefined when its instance does not listen for changes. */
export const cachesOf = (db: Db): Caches | undefined => registry.get(db);

/**
 * Applies one change notice ("settings", "catalog", "catalog:<id>", "discount" (every customer's),
 * "discount:<user id>", "api-keys:<user id>" (the customer's keys or API access), "session:<token>", "user:<id>",
 * "balance:<user id>", "balance" (every customer's)).
 */
export function forget(caches: Caches, notice: string): void {
  const [kind, ...rest] = notice.split(':');
  const key = rest.join(':');
  if (kind === 'balance') {
    caches.balances.generation++;
    if (key) caches.balances.delete(key);
    else caches.balances.clear();
    return;
  }
  caches.generation++;
  if (kind === 'settings') caches.settings.clear();
  else if (kind === 'catalog') {
    if (key) caches.services.delete(key);
    else caches.services.clear();
  } else if (kind === 'discount') {
    if (key) {
      caches.discounts.delete(key);
      caches.balances.delete(key);
    } else {
      caches.discounts.clear();
      caches.balances.clear();
    }
  } else if (kind === 'api-keys') caches.apiKeys.deleteWhere((e) => e.userId === key);
  else if (kind === 'session') caches.identities.delete(key);
  else if (kind === 'user') {
    caches.identities.deleteWhere((e) => e.userId === key);
    caches.apiKeys.deleteWhere((e) => e.userId === key);
    caches.balances.delete(key);
  }
  else forgetAll(caches);
}

/** Forgets everything cached: after the listening connection was lost, any notice may have been missed. */
export function forgetAll(caches: Caches): void {
  caches.generation++;
  caches.settings.clear();
  caches.services.clear();
  caches.figures.clear();
  caches.discounts.clear();
  caches.apiKeys.clear();
  caches.identities.clear();
  caches.balances.clear();
}

/**
 * Starts caching for `database`: listens for change notices; returns the function that stops it.
 * When the listening connection was lost and is back, every cache is stale (a removed role may
 * have been announced meanwhile) and is emptied.
 */
export async function enableCaches(database: Database, ttlMs = 60_000): Promise<() => Promise<void>> {
  const caches: Caches = {
    settings: new TtlCache(ttlMs),
    services: new TtlCache(ttlMs),
    figures: new TtlCache(ttlMs),
    discounts: new TtlCache(ttlMs),
    apiKeys: new TtlCache(ttlMs),
    identities: new TtlCache(ttlMs),
    balances: new TtlCache(ttlMs),
    generation: 0,
  };
  // A notice may hold several, one per line (`announceBalanceSoon`).
  const unlisten = await database.listen(CACHE_CHANNEL, (payload) => payload.split('\n').forEach((notice) => forget(caches, notice)), { onReconnect: () => forgetAll(caches) });
  registry.set(database.db, caches);
  return async () => {
    registry.delete(database.db);
    await unlisten();
  };
}

/** Tells every instance (this one at once) that something cached changed; see `forget` for the notices. */
export async function announceChange(db: Db, notice: string): Promise<void> {
  const caches = cachesOf(db);
  if (caches) forget(caches, notice);
  await db.execute(sql`select pg_notify(${CACHE_CHANNEL}, ${notice})`);
}

/** Customers whose balance changed, to be announced together, by database handle (`announceBalanceSoon`). */
const balancesToAnnounce = new WeakMap<Db, Set<string>>();

/**
 * Tells every instance that a customer's balance changed, for a write that did not have the
 * database announce it at its commit (the order statement: migration 0041). This instance forgets
 * it at once; the others hear it a few milliseconds after the commit, with the balances of every
 * other order of those milliseconds in one notice (lines of "balance:<user id>"): PostgreSQL
 * commits notifying transactions one at a time, so a notice per order would queue the orders
 * behind each other. A notice lost (the process ends within those milliseconds, the database is
 * unreachable) leaves the others showing the balance before the change until their entry
 * expires (the caches' 60 s); what a customer can spend is always read in the debit itself.
 */
export function announceBalanceSoon(db: Db, userId: string): void {
  const caches = cachesOf(db);
  if (caches) forget(caches, `balance:${userId}`);
  let pending = balancesToAnnounce.get(db);
  if (!pending) {
    balancesToAnnounce.set(db, (pending = new Set()));
    setTimeout(() => {
      balancesToAnnounce.delete(db);
      // One statement for a notice: one is most often all there is.
      void (async () => {
        for (const part of noticeParts([...pending!].map((id) => `balance:${id}`))) await db.execute(sql`select pg_notify(${CACHE_CHANNEL}, ${part.join('\n')})`);
      })().catch(() => {});
    }, 5);
  }
  pending.add(userId);
}

/**
 * Reads through a cache: the cached value, or `load()`'s, kept unless a change notice arrived
 * while it was loading.
 */
export async function readThrough<T>(caches: Caches | undefined, cache: (c: Caches) => TtlCache<unknown>, key: string, load: () => Promise<T>): Promise<T> {
  if (!caches) return load();
  const store = cache(caches);
  const hit = store.get(key);
  if (hit !== undefined) return hit as T;
  const generation = caches.generation;
  const own = store.generation;
  const value = await load();
  if (caches.generation === generation && store.generation === own) store.set(key, value);
  return value;
}

import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { MAX_API_KEYS, type ApiKeyView, type CreatedApiKey } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import { announceChange, cachesOf } from '../cache';
import type { Db, Tx } from '../db/client';
import { apiAccessBlocks, apiKeys } from '../db/schema';

type KeyRow = typeof apiKeys.$inferSelect;

/**
 * Keys of the reseller API. A key is 32 lower-case hex characters (128 random bits), the form
 * panels use; only its SHA-256 is stored, so a leaked table reveals no key. A fast hash is
 * enough for a random secret of that size (nothing to guess from a dictionary).
 */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = () => randomBytes(16).toString('hex');
const PREFIX_LENGTH = 6;
/** Last use is written at most once a minute per key, so busy keys do not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

export function toKeyView(k: KeyRow): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: k.lastUsedIp,
  };
}

export async function listKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt))).orderBy(asc(apiKeys.createdAt));
  return rows.map(toKeyView);
}

export async function apiAccessEnabled(db: Db, userId: string): Promise<boolean> {
  const [block] = await db.select({ userId: apiAccessBlocks.userId }).from(apiAccessBlocks).where(eq(apiAccessBlocks.userId, userId));
  return !block;
}

/** Which of the given customers have API access turned off. */
export async function apiAccessBlockedAmong(db: Db, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db.select({ userId: apiAccessBlocks.userId }).from(apiAccessBlocks).where(inArray(apiAccessBlocks.userId, userIds));
  return new Set(rows.map((b) => b.userId));
}

/** Creates a key; at most MAX_API_KEYS live keys per customer (counted under a lock on the customer). */
export async function createKey(db: Db, userId: string, name: string): Promise<CreatedApiKey> {
  if (!(await apiAccessEnabled(db, userId))) throw new AppError('API_ACCESS_DISABLED', 'API access is turned off for this account.');
  const key = newKey();
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api-keys:${userId}`}))`);
    const [n] = await tx.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if ((n?.n ?? 0) >= MAX_API_KEYS) throw new AppError('API_KEY_LIMIT', `At most ${MAX_API_KEYS} keys.`, { max: MAX_API_KEYS });
    const [created] = await tx.insert(apiKeys).values({ userId, name, prefix: key.slice(0, PREFIX_LENGTH), keyHash: hashKey(key) }).returning();
    return created!;
  });
  return { key, view: toKeyView(row) };
}

const keyIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Tells every instance (this one at once) that a customer's keys or API access changed: the keys
 * they cached for `authenticateKey` are looked up again. Call it after the change committed.
 */
export const announceKeyChange = (db: Db, userId: string) => announceChange(db, `api-keys:${userId}`);

/** Revokes one of the customer's keys; another customer's key answers as a missing one. */
export async function revokeKey(db: Db, userId: string, keyId: string): Promise<void> {
  if (!keyIdPattern.test(keyId)) throw new AppError('NOT_FOUND', 'Key not found.');
  const done = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (!done.length) throw new AppError('NOT_FOUND', 'Key not found.');
  await announceKeyChange(db, userId);
}

/** Replaces a key by a new one with the same name, in one transaction: the old key stops working at once. */
export async function rotateKey(db: Db, userId: string, keyId: string): Promise<CreatedApiKey> {
  if (!keyIdPattern.test(keyId)) throw new AppError('NOT_FOUND', 'Key not found.');
  if (!(await apiAccessEnabled(db, userId))) throw new AppError('API_ACCESS_DISABLED', 'API access is turned off for this account.');
  const key = newKey();
  const row = await db.transaction(async (tx) => {
    const [old] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning();
    if (!old) throw new AppError('NOT_FOUND', 'Key not found.');
    const [created] = await tx.insert(apiKeys).values({ userId, name: old.name, prefix: key.slice(0, PREFIX_LENGTH), keyHash: hashKey(key) }).returning();
    return created!;
  });
  await announceKeyChange(db, userId);
  return { key, view: toKeyView(row) };
}

export interface KeyOwner {
  keyId: string;
  userId: string;
}

/** A live key as `authenticateKey` keeps it: its owner and when and from where it was last used. */
interface LiveKey {
  keyId: string;
  userId: string;
  lastUsedAt: number | null;
  lastUsedIp: string | null;
}

/**
 * The live key's owner, or null for an unknown, revoked or malformed key and for a customer whose
 * API access is turned off. Records the last use (time and address), at most once a minute per
 * key and address. A live key is kept by the instance (src/server/cache.ts) until its owner's
 * keys or API access change (`announceKeyChange`), so a busy key costs no lookup per call.
 */
export async function authenticateKey(db: Db, key: string, ip: string): Promise<KeyOwner | null> {
  if (!/^[0-9a-f]{32}$/i.test(key)) return null;
  const hash = hashKey(key.toLowerCase());
  const caches = cachesOf(db);
  let live = caches?.apiKeys.get(hash) as LiveKey | undefined;
  if (!live) {
    const generation = caches?.generation;
    const [row] = await db
      .select({ key: apiKeys, blocked: apiAccessBlocks.userId })
      .from(apiKeys)
      .leftJoin(apiAccessBlocks, eq(apiAccessBlocks.userId, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)));
    if (!row || row.blocked) return null;
    live = { keyId: row.key.id, userId: row.key.userId, lastUsedAt: row.key.lastUsedAt?.getTime() ?? null, lastUsedIp: row.key.lastUsedIp };
    // Kept unless a change notice arrived while it was read (it may be older than the change).
    if (caches && caches.generation === generation) caches.apiKeys.set(hash, live);
  }
  const now = Date.now();
  if (live.lastUsedAt === null || now - live.lastUsedAt >= LAST_USED_EVERY_MS || live.lastUsedIp !== ip) {
    live.lastUsedAt = now;
    live.lastUsedIp = ip;
    await db.update(apiKeys).set({ lastUsedAt: new Date(now), lastUsedIp: ip }).where(eq(apiKeys.id, live.keyId));
  }
  return { keyId: live.keyId, userId: live.userId };
}

/** Turns a customer's API access on or off; returns whether anything changed. After the commit, `announceKeyChange`. */
export async function setApiAccess(db: Db | Tx, userId: string, enabled: boolean, actorId: string): Promise<boolean> {
  if (enabled) return (await db.delete(apiAccessBlocks).where(eq(apiAccessBlocks.userId, userId)).returning()).length > 0;
  return (await db.insert(apiAccessBlocks).values({ userId, blockedBy: actorId }).onConflictDoNothing().returning()).length > 0;
}

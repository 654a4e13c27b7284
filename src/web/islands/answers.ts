import { useCallback, useSyncExternalStore } from 'react';

/**
 * The answers a page of islands asked for, kept for the page's life instead of a query cache
 * (docs/decisions/0028, 0032): each asked once and shared by every island that reads it, asked
 * again on "Try again" or when something says it changed. The catalogue's and the dashboard's
 * islands variants (features/catalog/api.islands.ts, features/dashboard/api.islands.ts) read
 * through it.
 */

/** What a component reads of a request, as TanStack Query words it in the app. */
export interface Loaded<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<void>;
}

interface Entry {
  data?: unknown;
  error?: unknown;
  fetching: boolean;
  done?: Promise<void>;
  /** How it is asked for again: known once a component reads it (an answer the page came with is not asked for first). */
  load?: () => Promise<unknown>;
}
const entries = new Map<string, Entry>();
/** The ETag each answer came with, if any (`fetchRevalidated`). */
const tags = new Map<string, string>();
/** The answers the page came with, as they came: what the server rendered with, so what hydration starts from. */
const seeded = new Map<string, Entry>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const changed = () => listeners.forEach((l) => l());

/**
 * An answer with a plain fetch: what reads through here shows any failure alike ("not loaded, try
 * again"), so the API client and its error codes stay out of a page's first scripts.
 */
export async function fetchJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The answer at `path`, kept under `key`, asked for with the ETag of the one held (if the API gave
 * one): a 304 answers with the one held, without its bytes. The browser's own cache cannot do it
 * for an answer the page came with (it never fetched it).
 */
export async function fetchRevalidated<T>(key: string, path: string): Promise<T> {
  const tag = tags.get(key);
  const held = entries.get(key)?.data;
  const res = await fetch(path, { credentials: 'same-origin', ...(tag && held !== undefined ? { headers: { 'If-None-Match': tag } } : {}) });
  if (res.status === 304 && held !== undefined) return held as T;
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  const etag = res.headers.get('ETag');
  if (etag) tags.set(key, etag);
  else tags.delete(key);
  return (await res.json()) as T;
}

/**
 * The answers the page came with (its boot data's `answers` and `answerTags`, app/page.ts
 * `PageAnswer`), before anything hydrates: the islands render with them, as the server did, and do
 * not ask for them; asked again, with their ETags.
 */
export function seedAnswers(answers: Record<string, unknown> | undefined, answerTags?: Record<string, string>): void {
  for (const [key, data] of Object.entries(answers ?? {})) {
    if (entries.has(key)) continue;
    const entry: Entry = { data, fetching: false };
    entries.set(key, entry);
    seeded.set(key, entry);
    const tag = answerTags?.[key];
    if (tag) tags.set(key, tag);
  }
}

/** Asks for `key` unless it is known or on its way (`again`: asked anew, the answer kept meanwhile). */
export function request(key: string, load: () => Promise<unknown>, again = false): Promise<void> {
  const known = entries.get(key);
  if (known) known.load ??= load;
  if (known && (known.fetching || !again)) return known.done ?? Promise.resolve();
  const done = load().then(
    (data) => void entries.set(key, { data, fetching: false, load }),
    (error: unknown) => void entries.set(key, { data: known?.data, error, fetching: false, load }),
  );
  entries.set(key, { ...known, fetching: true, done, load });
  changed();
  return done.then(changed);
}

/** Asks again for every answer already asked for whose key starts with `prefix` (a change was announced). */
export function requestAgain(prefix: string): Promise<void> {
  return Promise.all(
    [...entries].flatMap(([key, { load }]) => (key.startsWith(prefix) && load ? [request(key, load, true)] : [])),
  ).then(() => {});
}

/** The answer to `key` as it is now; the same value for a key until it changes. */
export function answer<T>(key: string): { data: T | undefined; error?: unknown } | undefined {
  return entries.get(key) as { data: T | undefined; error?: unknown } | undefined;
}

export function useLoaded<T>(key: string | undefined, load: () => Promise<T>): Loaded<T> {
  // The server rendered the page with the answers it sent and no other: hydration starts from there too.
  const entry = useSyncExternalStore(
    subscribe,
    () => (key ? entries.get(key) : undefined),
    () => (key ? seeded.get(key) : undefined),
  );
  const refetch = useCallback(() => (key ? request(key, load, true) : Promise.resolve()), [key, load]);
  return {
    data: entry?.data as T | undefined,
    isPending: entry === undefined || (entry.data === undefined && entry.error === undefined),
    isError: entry?.error !== undefined,
    error: entry?.error ?? null,
    isFetching: entry?.fetching ?? false,
    refetch,
  };
}

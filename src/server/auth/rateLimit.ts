import { sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

/** A fixed window: at most `limit` hits per `windowSeconds` for one key. */
export interface RateRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

const FIFTEEN_MINUTES = 15 * 60;

/** The account rules (DESIGN §8). Failed sign-ins count per account and per address. */
export const RATE_RULES = {
  signInFailuresPerAccount: { name: 'sign-in:account', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  signInFailuresPerIp: { name: 'sign-in:ip', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  signUpPerIp: { name: 'sign-up:ip', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  resetPerAccount: { name: 'reset:account', limit: 5, windowSeconds: FIFTEEN_MINUTES },
  resetPerIp: { name: 'reset:ip', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  /** The sign-up form checks as the visitor types (debounced), so this one is roomier. */
  emailCheckPerIp: { name: 'email-check:ip', limit: 60, windowSeconds: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateRule>;

export interface RateState {
  count: number;
  resetAt: Date;
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Rate limiting backed by the `rate_limits` table, so every instance sees the same counters.
 * `hit` counts one attempt atomically (an expired window starts again at 1); `peek` reads
 * without counting.
 */
export function createRateLimiter(db: Db) {
  const keyOf = (rule: RateRule, subject: string) => `${rule.name}:${subject.toLowerCase()}`;

  async function hit(rule: RateRule, subject: string): Promise<RateState> {
    const key = keyOf(rule, subject);
    const rows = rowsOf<{ count: number; reset_at: Date | string }>(
      await db.execute(sql`
        insert into ${rateLimits} (key, count, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
        on conflict (key) do update set
          count = case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end,
          reset_at = case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end
        returning count, reset_at`),
    );
    const row = rows[0]!;
    return { count: Number(row.count), resetAt: new Date(row.reset_at) };
  }

  async function peek(rule: RateRule, subject: string): Promise<RateState | null> {
    const rows = rowsOf<{ count: number; reset_at: Date | string }>(
      await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${keyOf(rule, subject)} and reset_at > now()`),
    );
    const row = rows[0];
    return row ? { count: Number(row.count), resetAt: new Date(row.reset_at) } : null;
  }

  const refuse = (state: RateState): never => {
    const retryAfterSeconds = Math.max(1, Math.ceil((state.resetAt.getTime() - Date.now()) / 1000));
    throw new AppError('RATE_LIMITED', 'Too many attempts. Please wait and try again.', { retryAfterSeconds });
  };

  return {
    hit,
    peek,
    /** Counts an attempt and throws RATE_LIMITED once it goes over the limit. */
    async consume(rule: RateRule, subject: string): Promise<void> {
      const state = await hit(rule, subject);
      if (state.count > rule.limit) refuse(state);
    },
    /** Throws RATE_LIMITED when the limit is already used up, without counting. */
    async assertOpen(rule: RateRule, subject: string): Promise<void> {
      const state = await peek(rule, subject);
      if (state && state.count >= rule.limit) refuse(state);
    },
    /** Forgets windows that ended (run by the clean-up job). */
    async prune(): Promise<void> {
      await db.execute(sql`delete from ${rateLimits} where reset_at <= now()`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

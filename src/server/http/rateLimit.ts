import { type SQL, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';
import { type Bound, type Db, rowsOf } from '../db/client';
import { rateLimits } from '../db/schema';

/** A fixed window: at most `limit` hits per `windowSeconds` for one key. */
export interface RateRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * A progressive delay: the first `limit` failures are free; from then on each attempt must wait
 * `baseDelaySeconds`, doubled per further failure, never more than `maxDelaySeconds`. The
 * failures are forgotten `windowSeconds` after the last one. Never a hard lock.
 */
export interface DelayRule extends RateRule {
  baseDelaySeconds: number;
  maxDelaySeconds: number;
}

const MINUTE = 60;
const FIFTEEN_MINUTES = 15 * MINUTE;
const HOUR = 60 * MINUTE;

/**
 * Every rate rule of the site, in one table (docs/rate-limits.md explains them for people). Counters live in the `rate_limits` table and are taken atomically before the work
 * they guard, so a parallel burst can never get past a limit.
 */
export const RATE_RULES = {
  /**
   * Password checks (sign-in, and the current password when changing it) that failed, per
   * address + account: one address guessing one account. Taken before the check, given back
   * when the password was right or never checked.
   */
  passwordFailuresPerIpAccount: { name: 'password:ip+account', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Failed password checks per address across all accounts (against spraying one password over
   * many accounts). Roomier, so people sharing an address (an office, a mobile carrier) are not
   * blocked by one of them mistyping.
   */
  passwordFailuresPerIp: { name: 'password:ip', limit: 50, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Failed password checks per account from anywhere: 5 free, then each further attempt waits
   * 2 s, 4 s, 8 s … at most 5 minutes, until 15 minutes pass without a failure. A guesser with
   * many addresses gets about one try per 5 minutes; the owner waits at most that long.
   */
  passwordFailuresPerAccount: { name: 'password:account', limit: 5, windowSeconds: FIFTEEN_MINUTES, baseDelaySeconds: 2, maxDelaySeconds: 5 * MINUTE },
  /** Sign-ups per address. */
  signUpPerIp: { name: 'sign-up:ip', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  /** Reset mails asked for one address (whether or not the account exists). */
  resetPerAccount: { name: 'reset:account', limit: 5, windowSeconds: FIFTEEN_MINUTES },
  /** Reset mails asked for from one network address. */
  resetPerIp: { name: 'reset:ip', limit: 10, windowSeconds: FIFTEEN_MINUTES },
  /** The new-password page asks once it opens whether its link still works. */
  resetLinkPerIp: { name: 'reset-link:ip', limit: 30, windowSeconds: FIFTEEN_MINUTES },
  /** The sign-up form checks as the visitor types (debounced), so this one is roomier. */
  emailCheckPerIp: { name: 'email-check:ip', limit: 60, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Calls of the reseller API (`/api/v2`) per key, every action counted. Answered with the
   * protocol's own `{ "error": … }` (HTTP 200) and a Retry-After header.
   */
  apiPerKey: { name: 'api:key', limit: 600, windowSeconds: MINUTE },
  /**
   * Orders per customer, one counter for every way of ordering: the site's form, the reseller
   * API, each line of a mass order, each drip-feed parent (its runs are not orders the customer
   * places). Taken through `orderCounter`, in the order's own statement (orders/service.ts
   * `placeOrder`) or for a whole mass order at once. The limit is the environment's
   * ORDERS_PER_MINUTE (100 unless set: a mass order of the most lines it may hold fits in one minute).
   */
  ordersPerUser: { name: 'orders:user', limit: 100, windowSeconds: MINUTE },
  /** Mass orders per customer (each may hold up to MASS_ORDER_MAX_LINES orders). */
  massOrdersPerUser: { name: 'orders:mass:user', limit: 10, windowSeconds: MINUTE },
  /** Public order tracking per address (docs/rules.md#tracking). */
  trackPerIp: { name: 'track:ip', limit: 30, windowSeconds: MINUTE },
  /** Card top-ups started per customer. */
  topUpPerUser: { name: 'topup:user', limit: 20, windowSeconds: FIFTEEN_MINUTES },
  /** A bank transfer's receipt, sent again when the first was the wrong file: room for a few tries per transfer. */
  receiptPerUser: { name: 'receipt:user', limit: 30, windowSeconds: FIFTEEN_MINUTES },
  /** Coupon codes tried on the top-up dialog per customer: enough to fix a typo, too few to guess codes. */
  couponCheckPerUser: { name: 'coupon:user', limit: 20, windowSeconds: FIFTEEN_MINUTES },
  /** Signed-out return pages check 3 times per visit; this leaves room for a few visits a minute. */
  paymentStatusPerIp: { name: 'payment-status:ip', limit: 20, windowSeconds: MINUTE },
  /**
   * How often the return pages may have the gateway asked: one payment at most once per window,
   * whoever asks and on whichever instance; counted before the gateway is called.
   */
  paymentCheckPerPayment: { name: 'payment-check:payment', limit: 1, windowSeconds: 3 },
  /** A customer's payment checks that reach the gateway. */
  paymentCheckPerCustomer: { name: 'payment-check:user', limit: 12, windowSeconds: MINUTE },
  /** Spam brakes. The contact form is public, so it is limited per address. */
  contactPerIp: { name: 'contact:ip', limit: 5, windowSeconds: FIFTEEN_MINUTES },
  ticketsPerUser: { name: 'tickets:user', limit: 20, windowSeconds: HOUR },
  ticketMessagesPerUser: { name: 'ticket-messages:user', limit: 120, windowSeconds: HOUR },
  consultationsPerUser: { name: 'consultations:user', limit: 20, windowSeconds: HOUR },
  /**
   * Codes of the second factor typed from one address (the sign-in's code step, and the first
   * code that turns it on), every attempt counted. Behind it the auth library allows 5 codes per
   * sign-in and stops an account's codes for 15 minutes after 10 wrong ones in a row.
   */
  twoFactorCodesPerIp: { name: 'two-factor:ip', limit: 30, windowSeconds: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateRule | DelayRule>;

/** The order rule with the limit the environment sets (ORDERS_PER_MINUTE). */
export const ordersPerUser = (perMinute: number): RateRule => ({ ...RATE_RULES.ordersPerUser, limit: perMinute });

/** The counter's key in `rate_limits` of a rule for one subject (an address, a user …). */
export const rateKey = (rule: RateRule, subject: string) => `${rule.name}:${subject.toLowerCase()}`;

/** One subject's counter under a fixed-window rule, for statements that take it themselves. */
export interface RateCounter {
  /** The counter's key in `rate_limits`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

const counterOf = (rule: RateRule, subject: string): RateCounter => ({ key: rateKey(rule, subject), limit: rule.limit, windowSeconds: rule.windowSeconds });

/**
 * A customer's one order counter (ORDERS_PER_MINUTE): the site's order route, the reseller API
 * and the mass order all count on it, so no way of ordering gets past the limit or around it.
 */
export const orderCounter = (perMinute: number, userId: string): RateCounter => counterOf(ordersPerUser(perMinute), userId);

/**
 * The statement (or a CTE of one) that takes `n` slots of a counter at once, only when `n` are
 * left in its window (a window that ended starts again). It returns one row (count, reset_at)
 * when they were taken and none when refused; a refused take changes nothing. The counter's
 * row is locked while it is taken, so parallel takes never go past the limit together. With
 * `only`, nothing is taken unless that condition holds too.
 */
export function takeSlotsSql(counter: { [K in keyof RateCounter]: Bound<RateCounter[K]> }, n: number, only?: SQL): SQL {
  return sql`
    insert into ${rateLimits} (key, count, reset_at)
    select ${counter.key}, ${n}::int, now() + make_interval(secs => ${counter.windowSeconds})
    where ${n}::int <= ${counter.limit}::int${only ? sql` and ${only}` : sql``}
    on conflict (key) do update set
      count = case when ${rateLimits.resetAt} <= now() then excluded.count else ${rateLimits.count} + excluded.count end,
      reset_at = case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end
    where ${rateLimits.resetAt} <= now() or ${rateLimits.count} + excluded.count <= ${counter.limit}::int
    returning count, reset_at`;
}

/**
 * The statement (or a CTE of one) that counts one hit, refused or not (returning count, reset_at;
 * over the rule's limit, the hit is refused); `slide` moves the window's end to a full window from now.
 */
export const hitSql = (rule: RateRule, subject: string, slide = false): SQL => hitKeySql(rateKey(rule, subject), rule.windowSeconds, slide);

/** `hitSql` by the counter's key (`rateKey`) and the window's length. */
export const hitKeySql = (key: Bound<string>, windowSeconds: Bound<number>, slide: boolean): SQL => sql`
        insert into ${rateLimits} (key, count, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
        on conflict (key) do update set
          count = case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end,
          reset_at = case when ${rateLimits.resetAt} <= now() or ${slide} then excluded.reset_at else ${rateLimits.resetAt} end
        returning count, reset_at`;

/** The RATE_LIMITED refusal, with the wait until `resetAt` (at least a second). */
export function rateLimitedUntil(resetAt: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  return new AppError('RATE_LIMITED', 'Too many attempts. Please wait and try again.', { retryAfterSeconds });
}

/** How long the attempt after `failures` failures must wait under a delay rule (0 while free). */
export function delayAfter(rule: DelayRule, failures: number): number {
  if (failures < rule.limit) return 0;
  const steps = Math.min(failures - rule.limit, 30);
  return Math.min(rule.maxDelaySeconds, rule.baseDelaySeconds * 2 ** steps);
}

export interface RateState {
  count: number;
  resetAt: Date;
}

type Row = { count: number; reset_at: Date | string };
const stateOf = (row: Row): RateState => ({ count: Number(row.count), resetAt: new Date(row.reset_at) });

/** A taken attempt at a password check: `failed()` keeps it counted, `passed()` gives it back. */
export interface PasswordCheck {
  failed(): Promise<void>;
  passed(): Promise<void>;
}

/**
 * Rate limiting backed by the `rate_limits` table, so every instance sees the same counters.
 * `hit` counts one attempt atomically (an expired window starts again at 1); `peek` reads
 * without counting.
 */
export function createRateLimiter(db: Db) {

  /** Counts one hit; `slide` moves the window's end to a full window from now. */
  async function hit(rule: RateRule, subject: string, slide = false): Promise<RateState> {
    return stateOf(rowsOf<Row>(await db.execute(hitSql(rule, subject, slide)))[0]!);
  }

  /** Gives back one hit of a window that is still running. */
  async function release(rule: RateRule, subject: string): Promise<void> {
    await db.execute(sql`
      update ${rateLimits} set count = greatest(${rateLimits.count} - 1, 0)
      where key = ${rateKey(rule, subject)} and ${rateLimits.resetAt} > now()`);
  }

  async function peek(rule: RateRule, subject: string): Promise<RateState | null> {
    const rows = rowsOf<Row>(await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${rateKey(rule, subject)} and reset_at > now()`));
    const row = rows[0];
    return row ? stateOf(row) : null;
  }

  const refuse = (resetAt: Date): never => {
    throw rateLimitedUntil(resetAt);
  };

  /** Takes one slot, or gives it straight back and throws RATE_LIMITED when none is left. */
  async function take(rule: RateRule, subject: string): Promise<void> {
    const state = await hit(rule, subject);
    if (state.count <= rule.limit) return;
    await release(rule, subject);
    refuse(state.resetAt);
  }

  /**
   * Passes the gate of a delay rule: atomically, only when it is open, and closes it again for
   * `seconds`. Returns when the gate opens if it is closed.
   */
  async function passGate(rule: DelayRule, subject: string, seconds: number): Promise<Date | null> {
    const key = `${rateKey(rule, subject)}:wait`;
    const passed = rowsOf<Row>(
      await db.execute(sql`
        insert into ${rateLimits} (key, count, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${seconds}))
        on conflict (key) do update set count = ${rateLimits.count} + 1, reset_at = excluded.reset_at
        where ${rateLimits.resetAt} <= now()
        returning count, reset_at`),
    );
    if (passed.length > 0) return null;
    const closed = rowsOf<Row>(await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${key}`));
    return closed[0] ? stateOf(closed[0]).resetAt : new Date(Date.now() + seconds * 1000);
  }

  /** Takes a slot under a delay rule: free up to its limit, then only through its gate. */
  async function takeDelayed(rule: DelayRule, subject: string): Promise<void> {
    const { count } = await hit(rule, subject, true);
    const failuresBefore = count - 1;
    if (failuresBefore < rule.limit - 1) return;
    // From the rule's last free attempt on, each one closes the gate for the next one.
    const openAt = await passGate(rule, subject, delayAfter(rule, failuresBefore + 1));
    if (!openAt) return;
    await release(rule, subject);
    refuse(openAt);
  }

  return {
    hit,
    peek,
    release,
    /** Counts an attempt and throws RATE_LIMITED once it goes over the limit. */
    async consume(rule: RateRule, subject: string): Promise<void> {
      const state = await hit(rule, subject);
      if (state.count > rule.limit) refuse(state.resetAt);
    },
    /**
     * `consume`, reading `along` (a scalar subquery) in the same statement: the attempt and what
     * the caller checks next cost one round trip. Answers what `along` read.
     */
    async consumeReading<T>(rule: RateRule, subject: string, along: SQL): Promise<T> {
      const [row] = rowsOf<Row & { along: T }>(await db.execute(sql`with hit as (${hitSql(rule, subject, false)}) select count, reset_at, ${along} as along from hit`));
      const state = stateOf(row!);
      if (state.count > rule.limit) refuse(state.resetAt);
      return row!.along;
    },
    /**
     * Takes, before a password is checked, one attempt under the three password rules (address
     * + account, address, account). Throws RATE_LIMITED, with nothing left taken, when any of
     * them refuses. The caller reports how the check went.
     */
    async beginPasswordCheck(ip: string, account: string): Promise<PasswordCheck> {
      const pair = `${ip}|${account}`;
      const taken: [RateRule, string][] = [];
      try {
        await take(RATE_RULES.passwordFailuresPerIpAccount, pair);
        taken.push([RATE_RULES.passwordFailuresPerIpAccount, pair]);
        await take(RATE_RULES.passwordFailuresPerIp, ip);
        taken.push([RATE_RULES.passwordFailuresPerIp, ip]);
        await takeDelayed(RATE_RULES.passwordFailuresPerAccount, account);
        taken.push([RATE_RULES.passwordFailuresPerAccount, account]);
      } catch (err) {
        for (const [rule, subject] of taken) await release(rule, subject);
        throw err;
      }
      return {
        async failed() {},
        async passed() {
          for (const [rule, subject] of taken) await release(rule, subject);
        },
      };
    },
    /**
     * Takes `n` slots of a counter in one statement, or none: throws RATE_LIMITED, with the
     * wait until its window ends, when fewer than `n` are left.
     */
    async takeSlots(counter: RateCounter, n: number): Promise<void> {
      if (n <= 0) return;
      if (rowsOf<Row>(await db.execute(takeSlotsSql(counter, n))).length > 0) return;
      const rows = rowsOf<Row>(await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${counter.key} and reset_at > now()`));
      refuse(rows[0] ? stateOf(rows[0]).resetAt : new Date(Date.now() + counter.windowSeconds * 1000));
    },
    /** Forgets windows that ended (run by the clean-up job). */
    async prune(): Promise<void> {
      await db.execute(sql`delete from ${rateLimits} where reset_at <= now()`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Route middleware: counts one attempt under `rule` for the subject `subjectOf` names (the
 * client address, the signed-in user …) before the route's own checks, and refuses with
 * RATE_LIMITED once the limit is passed.
 */
export function rateLimited(db: Db, rule: RateRule, subjectOf: (c: Context) => string | Promise<string>): MiddlewareHandler {
  const limiter = createRateLimiter(db);
  return async (c, next) => {
    await limiter.consume(rule, await subjectOf(c));
    await next();
  };
}

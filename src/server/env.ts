import { z } from 'zod';

/**
 * Every setting the server reads from the environment, parsed once at start-up. A wrong value
 * stops the process with a message naming the variable. Nothing else reads `process.env`.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where the server listens; unset → 127.0.0.1 while a sandbox part runs, 0.0.0.0 otherwise. */
  HOST: optionalString,
  /** The address customers use; used in e-mails, payment return URLs, canonical links and the sitemap. */
  PUBLIC_URL: optionalUrl,
  /**
   * How many reverse proxies in front of the app append the address they saw to X-Forwarded-For
   * (1 for one nginx). Rate limits then count per visitor instead of per proxy; 0 trusts no header.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  /** PostgreSQL connection string; unset → embedded PGlite in DATA_DIR. */
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('./.data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),

  /** Secret for signing session cookies; generated and kept in DATA_DIR when unset outside production. */
  AUTH_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().optional()),
  ADMIN_PASSWORD: optionalString,

  /** Runs the sandbox provider and card gateway on loopback for every external part not configured. */
  SANDBOX: bool.optional(),
  /** Lifetime of a sandbox order from pending to its outcome, in seconds. */
  SANDBOX_ORDER_SECONDS: z.coerce.number().positive().default(60),
  /**
   * How long the sandbox provider takes to answer each call, in ms: "300-1500" (a range drawn per
   * call, as real panels answer), a fixed "200", or "0" for none.
   */
  SANDBOX_PROVIDER_LATENCY_MS: z.string().regex(/^\d+(-\d+)?$/, 'a number of ms or a range such as 300-1500').default('300-1500'),
  /** Requests per second the sandbox provider accepts per API key; more are answered 429 (0: no limit). */
  SANDBOX_PROVIDER_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  /**
   * Which of its two protocols the shop speaks to the sandbox provider: `smm-v2` (SMM Panel API v2,
   * with refill, cancel and drip-feed) or `qqtube` (the QQTube-style API, which has none of them).
   */
  SANDBOX_PROVIDER_PROTOCOL: z.enum(['smm-v2', 'qqtube']).default('smm-v2'),
  /**
   * A second sandbox provider beside the first: the same services (same ids) at other prices,
   * speaking the other protocol, as each service's next source, so failover shows in normal use.
   */
  SANDBOX_SECOND_PROVIDER: bool.default(true),
  /** The second sandbox provider's prices: the first's times this factor (a decimal of at most 4 places). */
  SANDBOX_SECOND_PRICE_FACTOR: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,4})?$/, 'a decimal such as 1.15')
    .refine((f) => Number(f) > 0, 'must be more than 0')
    .default('1.15'),
  /**
   * The first sandbox provider refuses every N-th order ("Service temporarily unavailable"); 0 never.
   * Unset: 7 while the second provider runs (the refused orders go to it), else 0.
   */
  SANDBOX_PROVIDER_REFUSE_EVERY: z.coerce.number().int().min(0).optional(),
  /** Size of the sandbox provider's catalogue (up to 5000). */
  SANDBOX_SERVICE_COUNT: z.coerce.number().int().min(1).max(5000).default(320),
  /** Production refuses sandbox parts unless this is set. */
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),

  PROVIDER: z.enum(['sandbox', 'qqtube', 'smm-v2']).default('sandbox'),
  PROVIDER_URL: optionalUrl,
  PROVIDER_KEY: optionalString,
  /**
   * Seals the providers' API keys in the database (AES-256-GCM). Required in production; elsewhere
   * one is generated once into DATA_DIR. Every instance of a shop uses the same one.
   */
  PROVIDER_KEYS_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  CATALOG_SYNC_MINUTES: z.coerce.number().int().min(1).default(30),
  /**
   * Calls per second the storefront makes to its provider (0: as fast as the work comes, slowing
   * down only when the provider answers 429). Unset: the sandbox's limit with the sandbox, else 0.
   */
  PROVIDER_RATE_LIMIT: z.coerce.number().int().min(0).optional(),
  /** Orders one customer may place per minute (the reseller API and the dashboard alike). */
  ORDERS_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  /** Orders sent to the provider at once by one submission worker. */
  ORDER_SUBMIT_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(16),
  /**
   * Length in ms of one minute of a drip-feed's interval: 60000 in production; tests and demos
   * set it shorter (1000: an interval of 3 minutes passes in 3 seconds).
   */
  DRIP_FEED_MINUTE_MS: z.coerce.number().int().min(10).max(60_000).default(60_000),

  PAYMENT_GATEWAY: z.enum(['sandbox', 'epoint']).default('sandbox'),
  EPOINT_URL: z.url().default('https://epoint.az/api/1'),
  EPOINT_PUBLIC_KEY: optionalString,
  EPOINT_PRIVATE_KEY: optionalString,
  /**
   * Payriff (cards, Apple Pay, Google Pay): its API and the application's secret key. With the key
   * the real Payriff takes the method's payments; without it the sandbox Payriff does when
   * PAYMENT_GATEWAY=sandbox, and otherwise the method stays off.
   */
  PAYRIFF_URL: z.url().default('https://api.payriff.com'),
  PAYRIFF_SECRET_KEY: optionalString,
  /**
   * PayTR (lira: cards and EFT): the merchant's keys from PayTR's merchant panel. With all three
   * set the real PayTR is used; without them the method is served by the sandbox while
   * PAYMENT_GATEWAY=sandbox, and stays off otherwise.
   */
  PAYTR_URL: z.url().default('https://www.paytr.com'),
  PAYTR_MERCHANT_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^\d{1,12}$/, 'the merchant number: digits').optional()),
  PAYTR_MERCHANT_KEY: optionalString,
  PAYTR_MERCHANT_SALT: optionalString,
  /** PayTR's test mode (`test_mode=1`) for a merchant's test keys: no card is charged. */
  PAYTR_TEST_MODE: bool.default(false),

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Artım <no-reply@artim.az>'),

  /**
   * Background work in this process: the order submission worker, status sync, reconciliation and
   * the other recurring jobs. `false` leaves them to another instance or to `npm run worker`
   * (tests that drive jobs by hand set it too).
   */
  JOBS: bool.default(true),
});

/** The parsed settings, with the defaults that depend on other settings filled in. */
export type Env = Omit<z.infer<typeof envSchema>, 'HOST' | 'SANDBOX'> & { HOST: string; SANDBOX: boolean };

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  const usesSandbox = env.PROVIDER === 'sandbox' || env.PAYMENT_GATEWAY === 'sandbox';
  if (env.NODE_ENV === 'production') {
    if (usesSandbox && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
      throw new EnvError(
        'Invalid environment configuration:\n  PROVIDER/PAYMENT_GATEWAY: a sandbox part is configured in production (set ALLOW_SANDBOX_IN_PRODUCTION=true to allow it)',
      );
    }
    if (!env.AUTH_SECRET) {
      throw new EnvError('Invalid environment configuration:\n  AUTH_SECRET: required in production (at least 32 characters)');
    }
    if (!env.PUBLIC_URL) {
      throw new EnvError('Invalid environment configuration:\n  PUBLIC_URL: required in production');
    }
    // Without SMTP the mail (password resets included) would only be kept in a table nobody reads.
    if (!env.SMTP_URL) {
      throw new EnvError('Invalid environment configuration:\n  SMTP_URL: required in production (password-reset and verification mail)');
    }
    // Each instance must open the provider keys the others sealed; a generated secret is one machine's.
    if (!env.PROVIDER_KEYS_SECRET) {
      throw new EnvError('Invalid environment configuration:\n  PROVIDER_KEYS_SECRET: required in production (at least 32 characters)');
    }
  }
  if (env.PROVIDER !== 'sandbox' && (!env.PROVIDER_URL || !env.PROVIDER_KEY)) {
    throw new EnvError(`Invalid environment configuration:\n  PROVIDER_URL/PROVIDER_KEY: required when PROVIDER=${env.PROVIDER}`);
  }
  if (env.PAYMENT_GATEWAY === 'epoint' && (!env.EPOINT_PUBLIC_KEY || !env.EPOINT_PRIVATE_KEY)) {
    throw new EnvError('Invalid environment configuration:\n  EPOINT_PUBLIC_KEY/EPOINT_PRIVATE_KEY: required when PAYMENT_GATEWAY=epoint');
  }
  const paytrKeys = [env.PAYTR_MERCHANT_ID, env.PAYTR_MERCHANT_KEY, env.PAYTR_MERCHANT_SALT].filter(Boolean).length;
  if (paytrKeys > 0 && paytrKeys < 3) {
    throw new EnvError('Invalid environment configuration:\n  PAYTR_MERCHANT_ID/PAYTR_MERCHANT_KEY/PAYTR_MERCHANT_SALT: set all three or none');
  }
  const sandbox = env.SANDBOX ?? usesSandbox;
  // A sandbox is for trying the shop on this machine: it is not offered to the network unless asked.
  return { ...env, SANDBOX: sandbox, HOST: env.HOST ?? (sandbox ? '127.0.0.1' : '0.0.0.0') };
}

import { z } from 'zod';
import { PRICE_FACTOR } from './catalog';
import { parseLatencyRange, startSandboxProvider } from './server';

/**
 * Runs the sandbox provider as its own process. Settings from the environment:
 * PORT (default 4100; 0 = any free port), HOST, SEED, SERVICE_COUNT, ORDER_SECONDS,
 * DRIP_MINUTE_MS (length of a drip-feed interval's minute, default 60000), STATE_FILE,
 * SANDBOX_API_KEY, SANDBOX_BALANCE (USD, or "unlimited", the default), PRICE_FACTOR (every price
 * times it, default "1"), REFUSE_EVERY (every N-th order refused, default 0 = none),
 * LATENCY_MS ("300-1500" or "0"), RATE_LIMIT (requests per second per key, 0 = none).
 * Prints one JSON line with the URLs and the key.
 */
const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4100),
    HOST: z.string().default('127.0.0.1'),
    SEED: z.coerce.number().int().optional(),
    SERVICE_COUNT: z.coerce.number().int().min(1).max(5000).optional(),
    ORDER_SECONDS: z.coerce.number().positive().optional(),
    DRIP_MINUTE_MS: z.coerce.number().int().positive().optional(),
    STATE_FILE: z.string().min(1).optional(),
    SANDBOX_API_KEY: z.string().min(1).optional(),
    SANDBOX_BALANCE: z.union([z.literal('unlimited'), z.string().regex(/^\d+(\.\d+)?$/)]).default('unlimited'),
    PRICE_FACTOR: z.string().regex(PRICE_FACTOR).optional(),
    REFUSE_EVERY: z.coerce.number().int().min(0).optional(),
    LATENCY_MS: z.string().regex(/^\d+(-\d+)?$/).optional(),
    RATE_LIMIT: z.coerce.number().int().min(0).optional(),
  })
  .parse(process.env);

const sandbox = await startSandboxProvider({
  port: env.PORT,
  host: env.HOST,
  seed: env.SEED,
  serviceCount: env.SERVICE_COUNT,
  orderSeconds: env.ORDER_SECONDS,
  dripMinuteMs: env.DRIP_MINUTE_MS,
  stateFile: env.STATE_FILE,
  apiKey: env.SANDBOX_API_KEY,
  balance: env.SANDBOX_BALANCE === 'unlimited' ? null : env.SANDBOX_BALANCE,
  priceFactor: env.PRICE_FACTOR,
  refuseEvery: env.REFUSE_EVERY,
  latencyMs: env.LATENCY_MS ? parseLatencyRange(env.LATENCY_MS) : undefined,
  rateLimitPerSecond: env.RATE_LIMIT,
});

console.log(
  JSON.stringify({ sandboxProvider: 'listening', url: sandbox.url, qqtubeUrl: sandbox.qqtubeUrl, v2Url: sandbox.v2Url, apiKey: sandbox.apiKey }),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}

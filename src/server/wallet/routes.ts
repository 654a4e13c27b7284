import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../deps';
import { users } from '../db/schema';

/**
 * `GET /api/wallet`: the signed-in customer's balance. Mount at `/`. The accounts feature credits
 * wallets (the sign-up bonus), so it hands its `requireUser` in rather than being imported here.
 */
export function walletRoutes(deps: AppDeps, requireUser: (c: Context) => Promise<{ id: string }>) {
  return new Hono().get(
    '/wallet',
    async (c, next) => {
      await requireUser(c);
      await next();
    },
    async (c) => {
      const user = await requireUser(c);
      const [row] = await deps.database.db.select({ balanceMicros: users.balanceMicros }).from(users).where(eq(users.id, user.id));
      return c.json({ balanceMicros: row?.balanceMicros ?? 0 });
    },
  );
}

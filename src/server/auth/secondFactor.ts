import { and, eq } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Tx } from '../db/client';
import { sessions, twoFactors, users } from '../db/schema';
import { assertUserExists } from './users';

/**
 * The team removes another account's second factor, for someone who lost both the phone and the
 * recovery codes (docs/rules.md#second-factor): the factor's row goes, the account no longer asks
 * for a code, and every session of the account ends, so its next sign-in is with the password and
 * (for the team, in production) goes through the set-up again. One transaction, guarded by the
 * state it expects: of two resets at once, one removes and the other is told there is nothing left.
 *
 * Refuses the acting member's own account (TWO_FACTOR_RESET_OWN: that is turned off with the
 * password in their own settings), an unknown account (NOT_FOUND) and an account without a
 * second factor (TWO_FACTOR_NOT_ENABLED). Answers whom to tell.
 */
export async function removeSecondFactor(tx: Tx, input: { actorId: string; userId: string }): Promise<{ email: string; name: string }> {
  if (input.actorId === input.userId) throw new AppError('TWO_FACTOR_RESET_OWN', 'Turn off your own second factor in your account settings.');
  const [user] = await tx
    .update(users)
    .set({ twoFactorEnabled: false, updatedAt: new Date() })
    .where(and(eq(users.id, input.userId), eq(users.twoFactorEnabled, true)))
    .returning({ email: users.email, name: users.name });
  if (!user) {
    await assertUserExists(tx, input.userId);
    throw new AppError('TWO_FACTOR_NOT_ENABLED', 'This account has no second factor.');
  }
  await tx.delete(twoFactors).where(eq(twoFactors.userId, input.userId));
  await tx.delete(sessions).where(eq(sessions.userId, input.userId));
  return user;
}

-- Reseller order ids: new orders draw theirs at random below 2^31 (docs/decisions/0014); the
-- sequence goes, the ids it gave stay as they are.
ALTER TABLE "orders" ALTER COLUMN "api_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "api_id" SET DEFAULT (100000000 + ('x' || translate(left(gen_random_uuid()::text, 13), '-', ''))::bit(48)::bigint % 2047483648);--> statement-breakpoint
-- Sign-up bonus: once per mailbox (docs/rules.md#accounts). Bonuses given so far were keyed by the
-- account; the first of each mailbox takes the key `signup:<mailbox>` (src/core/mailbox.ts
-- `canonicalMailbox`, as it stands here: lower case, no `+tag`, no dots at gmail.com and
-- googlemail.com, which is gmail.com), so no account of that mailbox is credited again. Bonuses
-- a mailbox got more than once before keep their old key.
WITH address AS (
  SELECT l.id, lower(btrim(u.email)) AS email
  FROM ledger_entries l JOIN users u ON u.id = l.user_id
  WHERE l.kind = 'signup_bonus'
), parts AS (
  SELECT id, email, split_part(substring(email FROM '^(.*)@'), '+', 1) AS local, substring(email FROM '@([^@]*)$') AS domain
  FROM address
), mailbox AS (
  SELECT id, 'signup:' || CASE
    WHEN local IS NULL THEN email
    WHEN domain IN ('gmail.com', 'googlemail.com') THEN replace(local, '.', '') || '@gmail.com'
    ELSE local || '@' || domain
  END AS reference
  FROM parts
), first_of_mailbox AS (
  SELECT DISTINCT ON (reference) id, reference FROM mailbox ORDER BY reference, id
)
UPDATE ledger_entries l SET reference = f.reference FROM first_of_mailbox f WHERE l.id = f.id;

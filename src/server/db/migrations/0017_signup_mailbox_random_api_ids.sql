-- Reseller order ids: new orders draw theirs at random below 2^31 (docs/decisions/0014); the
-- sequence goes, the ids it gave stay as they are.
ALTER TABLE "orders" ALTER COLUMN "api_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "api_id" SET DEFAULT (100000000 + ('x' || translate(left(gen_random_uuid()::text, 13), '-', ''))::bit(48)::bigint % 2047483648);

-- USD amounts in micro-dollars (docs/decisions/0015-micro-dollars.md): every column that held
-- cents is renamed and multiplied by 10 000, exactly (bigint). The application reads these
-- columns as JavaScript safe integers, so a value that would pass 2^53 - 1 once multiplied stops
-- the migration instead of being converted.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM users WHERE abs(balance_cents) > 900719925474)
    OR EXISTS (SELECT 1 FROM ledger_entries WHERE abs(amount_cents) > 900719925474)
    OR EXISTS (SELECT 1 FROM orders WHERE abs(charge_cents) > 900719925474 OR abs(refunded_cents) > 900719925474)
    OR EXISTS (SELECT 1 FROM payments WHERE abs(amount_usd_cents) > 900719925474)
  THEN
    RAISE EXCEPTION 'an amount in cents is too large to be held in micro-dollars';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "users" RENAME COLUMN "balance_cents" TO "balance_micros";--> statement-breakpoint
ALTER TABLE "ledger_entries" RENAME COLUMN "amount_cents" TO "amount_micros";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "charge_cents" TO "charge_micros";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "refunded_cents" TO "refunded_micros";--> statement-breakpoint
ALTER TABLE "payments" RENAME COLUMN "amount_usd_cents" TO "amount_usd_micros";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_balance_non_negative";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_charge_positive";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_refund_bounded";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_refund_settled";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_amounts_positive";--> statement-breakpoint
DROP INDEX "orders_refund_owed_idx";--> statement-breakpoint
-- The constraints and the index naming these columns were dropped above and are written again
-- below, so that rows written before refunds were cumulative (for which orders_refund_settled is
-- NOT VALID) are converted too.
UPDATE users SET balance_micros = balance_micros * 10000;--> statement-breakpoint
UPDATE ledger_entries SET amount_micros = amount_micros * 10000;--> statement-breakpoint
UPDATE orders SET charge_micros = charge_micros * 10000, refunded_micros = refunded_micros * 10000;--> statement-breakpoint
UPDATE payments SET amount_usd_micros = amount_usd_micros * 10000;--> statement-breakpoint
-- A refund's ledger reference carries the order's refunded total after the step
-- (`<order id>:<total>`, and `admin-refund:<order id>:<refunded before>` from before refunds were
-- cumulative): the totals are amounts too, and are written in micro-dollars from here on.
UPDATE ledger_entries SET reference = regexp_replace(reference, ':[0-9]+$', '') || ':' || ((substring(reference FROM ':([0-9]+)$'))::numeric * 10000)::text
  WHERE kind = 'order_refund' AND reference ~ '^(admin-refund:)?[0-9a-f-]{36}:[0-9]+$';--> statement-breakpoint
-- The audit log names the amount of each balance adjustment and staff refund: `amountMicros` from
-- here on.
UPDATE audit_log SET details = (details - 'amountCents') || jsonb_build_object('amountMicros', (details->>'amountCents')::bigint * 10000)
  WHERE action IN ('balance.adjust', 'order.refund') AND jsonb_typeof(details->'amountCents') = 'number';--> statement-breakpoint
CREATE INDEX "orders_refund_owed_idx" ON "orders" USING btree ("created_at") WHERE status in ('error', 'stopped', 'refunded', 'cancelled') and refunded_micros < charge_micros;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_balance_non_negative" CHECK ("users"."balance_micros" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_charge_positive" CHECK ("orders"."charge_micros" > 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_bounded" CHECK ("orders"."refunded_micros" >= 0 and "orders"."refunded_micros" <= "orders"."charge_micros");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_settled" CHECK ("orders"."status" not in ('error', 'stopped', 'refunded', 'cancelled') or "orders"."refunded_micros" = "orders"."charge_micros") NOT VALID;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amounts_positive" CHECK ("payments"."amount_usd_micros" > 0 and "payments"."amount_qepik" > 0);
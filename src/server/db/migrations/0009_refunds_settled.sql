CREATE INDEX "orders_refund_owed_idx" ON "orders" USING btree ("created_at") WHERE status in ('error', 'stopped', 'refunded', 'cancelled') and refunded_cents < charge_cents;--> statement-breakpoint
-- NOT VALID: enforced for every row written from now on; rows written before refunds were
-- cumulative may still owe money, and reconciliation refunds them (orders_refund_owed_idx).
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_settled" CHECK ("orders"."status" not in ('error', 'stopped', 'refunded', 'cancelled') or "orders"."refunded_cents" = "orders"."charge_cents") NOT VALID;

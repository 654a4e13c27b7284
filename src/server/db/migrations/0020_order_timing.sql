-- started_at and completed_at are recorded by the status sync from now on. Orders finished before
-- are left without them: when they started or completed was never written, and nothing is guessed.
ALTER TABLE "orders" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_service_finished_idx" ON "orders" USING btree ("service_id","updated_at") WHERE status in ('completed', 'partial', 'error', 'stopped', 'refunded', 'cancelled') and provider_order_id is not null and runs is null;--> statement-breakpoint
CREATE INDEX "orders_link_created_idx" ON "orders" USING btree ("link_key","platform","created_at");
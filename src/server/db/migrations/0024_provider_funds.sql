ALTER TABLE "providers" ADD COLUMN "funds_short_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "funds_alerted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "funds_wait_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "funds_retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_funds_wait_idx" ON "orders" USING btree ("funds_wait_since") WHERE funds_wait_since is not null;
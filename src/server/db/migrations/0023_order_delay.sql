ALTER TABLE "orders" ADD COLUMN "delayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delay_minutes" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delay_cancel_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_delayed_idx" ON "orders" USING btree ("delayed_at") WHERE delayed_at is not null and started_at is null;
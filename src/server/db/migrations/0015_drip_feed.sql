DROP INDEX "orders_one_active_per_link";--> statement-breakpoint
ALTER TABLE "catalog_services" ADD COLUMN "dripfeed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "runs" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "interval_minutes" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "runs_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "next_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_parent_id_orders_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_drip_due_idx" ON "orders" USING btree ("next_run_at") WHERE next_run_at is not null;--> statement-breakpoint
CREATE INDEX "orders_parent_idx" ON "orders" USING btree ("parent_id") WHERE parent_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_active_per_link" ON "orders" USING btree ("user_id","platform","link_key") WHERE status in ('pending', 'processing', 'in_progress', 'active', 'running', 'unknown') and parent_id is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_drip_shape" CHECK ("orders"."runs" is null or ("orders"."runs" >= 2 and "orders"."interval_minutes" >= 1 and "orders"."quantity" % "orders"."runs" = 0 and "orders"."runs_sent" <= "orders"."runs" and "orders"."parent_id" is null));
CREATE TABLE "api_access_blocks" (
	"user_id" text PRIMARY KEY NOT NULL,
	"blocked_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_cancels" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"result" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_refills" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_refills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 5001 CACHE 1),
	"order_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_refill_id" text,
	"provider_status" text,
	"source" text NOT NULL,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_services" ADD COLUMN "refill_days" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "api_id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "orders_api_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "via_api" boolean GENERATED ALWAYS AS (left(idempotency_key, 4) = 'api_') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "api_access_blocks" ADD CONSTRAINT "api_access_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_cancels" ADD CONSTRAINT "order_cancels_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refills" ADD CONSTRAINT "order_refills_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_unique" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refills_order_idx" ON "order_refills" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refills_user_idx" ON "order_refills" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refills_one_open" ON "order_refills" USING btree ("order_id") WHERE status in ('pending', 'in_progress');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_api_id_unique" ON "orders" USING btree ("api_id");
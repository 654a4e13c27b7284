CREATE TABLE "ledger_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_kind_reference_unique" UNIQUE("kind","reference")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"user_id" text NOT NULL,
	"service_id" text NOT NULL,
	"service_name" text NOT NULL,
	"platform" text NOT NULL,
	"service_type" text NOT NULL,
	"link" text NOT NULL,
	"link_key" text NOT NULL,
	"quantity" integer NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"charge_cents" bigint NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_order_id" text,
	"provider_status" text,
	"start_count" integer,
	"current_count" integer,
	"remains" integer,
	"comment" text,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"submitted_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_number_unique" UNIQUE("number"),
	CONSTRAINT "orders_charge_positive" CHECK ("orders"."charge_cents" > 0),
	CONSTRAINT "orders_refund_bounded" CHECK ("orders"."refunded_cents" >= 0 and "orders"."refunded_cents" <= "orders"."charge_cents")
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_user_idx" ON "ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_unique" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_active_per_link" ON "orders" USING btree ("user_id","platform","link_key") WHERE status in ('pending', 'processing', 'in_progress', 'active', 'running', 'unknown');--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","checked_at");
CREATE TABLE "providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"protocol" text NOT NULL,
	"url" text NOT NULL,
	"key_encrypted" text NOT NULL,
	"key_hint" text NOT NULL,
	"calls_per_second" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"from_env" boolean DEFAULT false NOT NULL,
	"balance" text,
	"balance_currency" text,
	"balance_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "providers_calls_per_second_check" CHECK ("providers"."calls_per_second" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "providers_from_env_idx" ON "providers" USING btree ("from_env") WHERE "providers"."from_env";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;
CREATE TABLE "provider_service_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL,
	"service_id" text NOT NULL,
	"kind" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decision" text,
	"decided_by" text,
	CONSTRAINT "provider_service_changes_kind" CHECK ("provider_service_changes"."kind" in ('new', 'removed', 'price', 'limits'))
);
--> statement-breakpoint
CREATE TABLE "provider_services" (
	"provider_id" uuid NOT NULL,
	"service_id" text NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"example" text,
	"amount_minimum" integer NOT NULL,
	"amount_increment" integer NOT NULL,
	"tiers" jsonb NOT NULL,
	"params" jsonb NOT NULL,
	"refill" boolean DEFAULT false NOT NULL,
	"refill_days" integer,
	"cancel" boolean DEFAULT false NOT NULL,
	"dripfeed" boolean DEFAULT false NOT NULL,
	"present" boolean DEFAULT true NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_services_provider_id_service_id_pk" PRIMARY KEY("provider_id","service_id")
);
--> statement-breakpoint
CREATE TABLE "service_sources" (
	"service_id" text NOT NULL,
	"position" integer NOT NULL,
	"provider_id" uuid NOT NULL,
	"provider_service_id" text NOT NULL,
	CONSTRAINT "service_sources_service_id_position_pk" PRIMARY KEY("service_id","position"),
	CONSTRAINT "service_sources_one_per_provider" UNIQUE("service_id","provider_id"),
	CONSTRAINT "service_sources_position" CHECK ("service_sources"."position" >= 0)
);
--> statement-breakpoint
ALTER TABLE "catalog_services" ADD COLUMN "markup_percent" numeric(10, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_services" ADD COLUMN "markup_fixed_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_service_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cost_micros" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cost_refunded_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_charge_micros" bigint;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "env_slot" text;--> statement-breakpoint
ALTER TABLE "provider_service_changes" ADD CONSTRAINT "provider_service_changes_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_services" ADD CONSTRAINT "provider_services_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_sources" ADD CONSTRAINT "service_sources_service_id_catalog_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."catalog_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_sources" ADD CONSTRAINT "service_sources_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_service_changes_open" ON "provider_service_changes" USING btree ("provider_id","service_id","kind") WHERE "provider_service_changes"."decided_at" is null;--> statement-breakpoint
CREATE INDEX "service_sources_provider_idx" ON "service_sources" USING btree ("provider_id","provider_service_id");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_env_slot_idx" ON "providers" USING btree ("env_slot") WHERE "providers"."env_slot" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cost_refund_bounded" CHECK ("orders"."cost_refunded_micros" >= 0 and ("orders"."cost_micros" is null or "orders"."cost_refunded_micros" <= "orders"."cost_micros"));
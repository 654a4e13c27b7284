CREATE TABLE "catalog_services" (
	"id" text PRIMARY KEY NOT NULL,
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
	"cancel" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_custom_names" (
	"id" serial PRIMARY KEY NOT NULL,
	"api_service_name" text NOT NULL,
	"language_code" text NOT NULL,
	"custom_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_custom_names_unique" UNIQUE("api_service_name","language_code"),
	CONSTRAINT "service_custom_names_lang" CHECK ("service_custom_names"."language_code" in ('az', 'tr'))
);

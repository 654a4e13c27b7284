CREATE TABLE "customer_discounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"discount_bp" integer,
	"group_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_discounts_bounds" CHECK ("customer_discounts"."discount_bp" between 0 and 9000)
);
--> statement-breakpoint
CREATE TABLE "customer_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"discount_bp" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_groups_discount_bounds" CHECK ("customer_groups"."discount_bp" between 0 and 9000)
);
--> statement-breakpoint
ALTER TABLE "customer_discounts" ADD CONSTRAINT "customer_discounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_discounts" ADD CONSTRAINT "customer_discounts_group_id_customer_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."customer_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_discounts_group_idx" ON "customer_discounts" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_groups_name_unique" ON "customer_groups" USING btree (lower("name"));
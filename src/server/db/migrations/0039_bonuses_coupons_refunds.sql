CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"amount_micros" bigint,
	"percent_bp" integer,
	"cap_micros" bigint,
	"min_top_up_micros" bigint DEFAULT 0 NOT NULL,
	"per_customer" integer DEFAULT 1 NOT NULL,
	"total_uses" integer,
	"expires_at" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_upper" CHECK ("coupons"."code" = upper("coupons"."code")),
	CONSTRAINT "coupons_terms" CHECK (("coupons"."kind" = 'amount' and "coupons"."amount_micros" > 0 and "coupons"."percent_bp" is null and "coupons"."cap_micros" is null) or ("coupons"."kind" = 'percent' and "coupons"."amount_micros" is null and "coupons"."percent_bp" between 1 and 10000 and ("coupons"."cap_micros" is null or "coupons"."cap_micros" > 0))),
	CONSTRAINT "coupons_uses" CHECK ("coupons"."per_customer" >= 1 and ("coupons"."total_uses" is null or "coupons"."total_uses" >= 1) and "coupons"."min_top_up_micros" >= 0)
);
--> statement-breakpoint
CREATE TABLE "deposit_bonus_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"method" text,
	"min_micros" bigint NOT NULL,
	"percent_bp" integer NOT NULL,
	"cap_micros" bigint,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_bonus_rules_terms" CHECK ("deposit_bonus_rules"."min_micros" >= 0 and "deposit_bonus_rules"."percent_bp" between 1 and 10000 and ("deposit_bonus_rules"."cap_micros" is null or "deposit_bonus_rules"."cap_micros" > 0)),
	CONSTRAINT "deposit_bonus_rules_period" CHECK ("deposit_bonus_rules"."starts_at" is null or "deposit_bonus_rules"."ends_at" is null or "deposit_bonus_rules"."starts_at" < "deposit_bonus_rules"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "bonus_rule_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "bonus_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "coupon_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "coupon_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_by" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_unique" ON "coupons" USING btree ("code");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bonus_rule_id_deposit_bonus_rules_id_fk" FOREIGN KEY ("bonus_rule_id") REFERENCES "public"."deposit_bonus_rules"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_coupon_idx" ON "payments" USING btree ("coupon_id","user_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bonuses" CHECK ("payments"."bonus_micros" >= 0 and "payments"."coupon_micros" >= 0 and ("payments"."bonus_rule_id" is null) = ("payments"."bonus_micros" = 0) and ("payments"."coupon_id" is not null or "payments"."coupon_micros" = 0));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund" CHECK (("payments"."refund_status" is null) = ("payments"."refund_requested_at" is null) and ("payments"."refund_status" is null) = ("payments"."refunded_by" is null) and ("payments"."refund_status" is null or "payments"."status" = 'completed'));
ALTER TABLE "users" DROP CONSTRAINT "users_balance_non_negative";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "chargeback_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversed_by" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_by_users_id_fk" FOREIGN KEY ("reversed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_chargebacks_non_negative" CHECK ("users"."chargeback_micros" >= 0);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_balance_within_chargebacks" CHECK ("users"."balance_micros" >= -"users"."chargeback_micros");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversal_complete" CHECK (("payments"."reversed_at" is null) = ("payments"."reversed_by" is null) and ("payments"."reversed_at" is null) = ("payments"."reversal_reason" is null) and ("payments"."reversed_at" is null or "payments"."status" = 'completed'));
ALTER TABLE "order_cancels" ADD COLUMN "provider_id" uuid;--> statement-breakpoint
ALTER TABLE "order_refills" ADD COLUMN "provider_id" uuid;--> statement-breakpoint
ALTER TABLE "order_cancels" ADD CONSTRAINT "order_cancels_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refills" ADD CONSTRAINT "order_refills_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;
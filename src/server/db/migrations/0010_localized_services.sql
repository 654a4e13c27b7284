-- Existing single-language texts become the same text in az, tr and en.
ALTER TABLE "services" ALTER COLUMN "name" SET DATA TYPE jsonb USING jsonb_build_object('az', "name", 'tr', "name", 'en', "name");--> statement-breakpoint
UPDATE "services" SET "description" = '' WHERE "description" IS NULL;--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "description" SET DATA TYPE jsonb USING jsonb_build_object('az', "description", 'tr', "description", 'en', "description");--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "description" SET DEFAULT '{"az":"","tr":"","en":""}'::jsonb;--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "description" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "details" jsonb DEFAULT '{"az":"","tr":"","en":""}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "benefits" jsonb DEFAULT '{"az":"","tr":"","en":""}'::jsonb NOT NULL;

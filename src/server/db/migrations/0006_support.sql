CREATE TABLE "consultations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"service" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultations_status_valid" CHECK ("consultations"."status" in ('new', 'handled')),
	CONSTRAINT "consultations_service_valid" CHECK ("consultations"."service" in ('smm', 'google_ads', 'youtube_ads', 'seo', 'logo', 'website', 'tv_radio', 'facebook_instagram_ads', 'social_engagement', 'instagram_engagement', 'tiktok_marketing', 'youtube_growth', 'general', 'other')),
	CONSTRAINT "consultations_name_length" CHECK (char_length("consultations"."name") between 2 and 100),
	CONSTRAINT "consultations_email_length" CHECK (char_length("consultations"."email") between 3 and 254),
	CONSTRAINT "consultations_phone_length" CHECK (char_length("consultations"."phone") between 10 and 30),
	CONSTRAINT "consultations_message_length" CHECK (char_length("consultations"."message") between 10 and 5000)
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_messages_name_length" CHECK (char_length("contact_messages"."name") between 1 and 100),
	CONSTRAINT "contact_messages_email_length" CHECK (char_length("contact_messages"."email") between 3 and 254),
	CONSTRAINT "contact_messages_subject_length" CHECK (char_length("contact_messages"."subject") between 1 and 200),
	CONSTRAINT "contact_messages_message_length" CHECK (char_length("contact_messages"."message") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "support_ticket_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"message" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_ticket_messages_length" CHECK (char_length("support_ticket_messages"."message") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_tickets_priority_valid" CHECK ("support_tickets"."priority" in ('low', 'normal', 'high', 'urgent')),
	CONSTRAINT "support_tickets_status_valid" CHECK ("support_tickets"."status" in ('open', 'in_progress', 'resolved', 'closed')),
	CONSTRAINT "support_tickets_title_length" CHECK (char_length("support_tickets"."title") between 1 and 200),
	CONSTRAINT "support_tickets_description_length" CHECK (char_length("support_tickets"."description") between 1 and 5000)
);
--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_ticket_messages" ADD CONSTRAINT "support_ticket_messages_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_ticket_messages" ADD CONSTRAINT "support_ticket_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultations_created_idx" ON "consultations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "support_ticket_messages_ticket_idx" ON "support_ticket_messages" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "support_tickets_user_idx" ON "support_tickets" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "support_tickets_updated_idx" ON "support_tickets" USING btree ("updated_at");
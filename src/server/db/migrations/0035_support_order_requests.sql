CREATE TABLE "support_ticket_orders" (
	"ticket_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "support_ticket_orders_ticket_id_order_id_pk" PRIMARY KEY("ticket_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "support_ticket_messages" ADD COLUMN "outcomes" jsonb;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "request" text;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "support_ticket_orders" ADD CONSTRAINT "support_ticket_orders_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_ticket_orders" ADD CONSTRAINT "support_ticket_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_ticket_orders_order_idx" ON "support_ticket_orders" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "support_tickets_user_key_unique" ON "support_tickets" USING btree ("user_id","idempotency_key");--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_request_valid" CHECK ("support_tickets"."request" is null or "support_tickets"."request" in ('refill', 'cancel', 'speed_up', 'other'));
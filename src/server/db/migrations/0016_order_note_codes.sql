ALTER TABLE "orders" ADD COLUMN "note_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_message" text;--> statement-breakpoint
-- The sentences orders were given before notes were codes become their codes; any other text
-- (a provider's message) is kept as the message under `other`.
UPDATE "orders" SET
  "note_code" = CASE "comment"
    WHEN 'Sifariş verilmədi. Yenidən cəhd edin.' THEN 'provider_refused'
    WHEN 'API cavab vermədi. Yenidən cəhd edin.' THEN 'provider_no_answer'
    WHEN 'Provider cannot confirm this order; an admin will check it.' THEN 'provider_cannot_confirm'
    WHEN 'Sifariş ID alınmadı. Yenidən cəhd edin.' THEN 'provider_never_received'
    WHEN 'Cancelled before any run was sent.' THEN 'cancelled_before_runs'
    WHEN 'Cancelled before it was sent to the provider.' THEN 'cancelled_before_sending'
    ELSE 'other'
  END,
  "provider_message" = CASE WHEN "comment" IN (
    'Sifariş verilmədi. Yenidən cəhd edin.',
    'API cavab vermədi. Yenidən cəhd edin.',
    'Provider cannot confirm this order; an admin will check it.',
    'Sifariş ID alınmadı. Yenidən cəhd edin.',
    'Cancelled before any run was sent.',
    'Cancelled before it was sent to the provider.'
  ) THEN NULL ELSE "comment" END
WHERE "comment" IS NOT NULL AND "comment" <> '';--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "comment";

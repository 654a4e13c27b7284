CREATE TABLE "param_text_overrides" (
	"kind" text NOT NULL,
	"lang" text NOT NULL,
	"label" text,
	"hint" text,
	"placeholder" text,
	"required_message" text,
	"invalid_message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "param_text_overrides_kind_lang_pk" PRIMARY KEY("kind","lang"),
	CONSTRAINT "param_text_overrides_lang" CHECK ("param_text_overrides"."lang" in ('az', 'tr', 'en'))
);

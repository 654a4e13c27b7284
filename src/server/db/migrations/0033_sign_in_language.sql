-- Each sign-in keeps the site language the browser had: the account's security mails (its second
-- factor removed by the team) are written in the language of its newest sign-in.
ALTER TABLE "sign_ins" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_language_valid" CHECK ("sign_ins"."language" in ('az', 'tr', 'en'));
-- A service name's keyword matches in any letter case, so "Followers" and "followers" are one
-- keyword: of two rows that differ only in case the older is kept, then one per language is enforced.
DELETE FROM "service_custom_names" AS "later" USING "service_custom_names" AS "earlier"
  WHERE lower("later"."api_service_name") = lower("earlier"."api_service_name")
    AND "later"."language_code" = "earlier"."language_code"
    AND "later"."id" > "earlier"."id";--> statement-breakpoint
ALTER TABLE "service_custom_names" DROP CONSTRAINT "service_custom_names_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "service_custom_names_keyword_unique" ON "service_custom_names" USING btree (lower("api_service_name"),"language_code");

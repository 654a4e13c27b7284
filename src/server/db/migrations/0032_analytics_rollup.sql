CREATE TABLE "analytics_built_days" (
	"day" date PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_built_months" (
	"month" date PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_days" (
	"dimension" text NOT NULL,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"key" text NOT NULL,
	"sales_micros" bigint NOT NULL,
	"refunds_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL,
	"top_ups_micros" bigint NOT NULL,
	"top_ups_qepik" bigint NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "analytics_days_dimension_grain_day_key_pk" PRIMARY KEY("dimension","grain","day","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_stale_days" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_stale_days_day_idx" ON "analytics_stale_days" USING btree ("day");--> statement-breakpoint
-- A closed day is one of the shop's days (Asia/Baku) that has ended. A change to a closed day's
-- orders or ledger entries marks the day stale, so its rolled-up figures are computed again before
-- they are read (src/server/analytics/rollup.ts). Today's rows mark nothing: the order path pays
-- only the trigger's WHEN test.
CREATE OR REPLACE FUNCTION artim_shop_today_start() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT date_trunc('day', now() AT TIME ZONE 'Asia/Baku') AT TIME ZONE 'Asia/Baku'
$$;
--> statement-breakpoint
-- Marks the closed days of a row before and after a change (once when they are the same day).
CREATE OR REPLACE FUNCTION artim_analytics_mark(before timestamptz, after timestamptz) RETURNS void LANGUAGE sql AS $$
  INSERT INTO analytics_stale_days (day)
  SELECT DISTINCT (t AT TIME ZONE 'Asia/Baku')::date FROM (VALUES (before), (after)) v(t)
  WHERE t < artim_shop_today_start()
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artim_analytics_entry_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM artim_analytics_mark(NULL, NEW.created_at);
  ELSIF TG_OP = 'DELETE' THEN PERFORM artim_analytics_mark(OLD.created_at, NULL);
  ELSE PERFORM artim_analytics_mark(OLD.created_at, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_analytics_insert AFTER INSERT ON ledger_entries FOR EACH ROW
  WHEN (NEW.created_at < artim_shop_today_start()) EXECUTE FUNCTION artim_analytics_entry_changed();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_analytics_change AFTER UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION artim_analytics_entry_changed();
--> statement-breakpoint
-- An order's platform, service or provider names the breakdown row of its charge and refunds too,
-- which may be dated on other days than the order: those days are marked as well.
CREATE OR REPLACE FUNCTION artim_analytics_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM artim_analytics_mark(NULL, NEW.created_at);
  ELSIF TG_OP = 'DELETE' THEN PERFORM artim_analytics_mark(OLD.created_at, NULL);
  ELSE PERFORM artim_analytics_mark(OLD.created_at, NEW.created_at);
  END IF;
  IF TG_OP = 'UPDATE' AND (OLD.platform, OLD.service_id, OLD.provider_id) IS DISTINCT FROM (NEW.platform, NEW.service_id, NEW.provider_id) THEN
    INSERT INTO analytics_stale_days (day)
      SELECT DISTINCT (l.created_at AT TIME ZONE 'Asia/Baku')::date FROM ledger_entries l
      WHERE l.user_id = NEW.user_id AND l.created_at < artim_shop_today_start()
        AND l.kind IN ('order_charge', 'order_refund')
        AND (l.reference = NEW.id::text OR l.reference LIKE NEW.id::text || ':%' OR l.reference LIKE 'admin-refund:' || NEW.id::text || ':%');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_analytics_insert AFTER INSERT ON orders FOR EACH ROW
  WHEN (NEW.created_at < artim_shop_today_start()) EXECUTE FUNCTION artim_analytics_order_changed();
--> statement-breakpoint
CREATE TRIGGER orders_analytics_delete AFTER DELETE ON orders FOR EACH ROW
  WHEN (OLD.created_at < artim_shop_today_start()) EXECUTE FUNCTION artim_analytics_order_changed();
--> statement-breakpoint
-- Only what the figures read: an order's progress (remains, checks, notes) changes nothing here.
CREATE TRIGGER orders_analytics_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.status, OLD.cost_micros, OLD.cost_refunded_micros, OLD.created_at, OLD.platform, OLD.service_id, OLD.provider_id, OLD.user_id, OLD.parent_id, OLD.runs, OLD.upstream_drip)
          IS DISTINCT FROM (NEW.status, NEW.cost_micros, NEW.cost_refunded_micros, NEW.created_at, NEW.platform, NEW.service_id, NEW.provider_id, NEW.user_id, NEW.parent_id, NEW.runs, NEW.upstream_drip)
        AND (OLD.created_at < artim_shop_today_start() OR NEW.created_at < artim_shop_today_start()))
  EXECUTE FUNCTION artim_analytics_order_changed();
--> statement-breakpoint
-- Emptied tables empty their figures.
CREATE OR REPLACE FUNCTION artim_analytics_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM analytics_days;
  DELETE FROM analytics_built_days;
  DELETE FROM analytics_built_months;
  DELETE FROM analytics_stale_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_analytics_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION artim_analytics_forget();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_analytics_truncate AFTER TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION artim_analytics_forget();

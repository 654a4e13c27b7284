-- The caches of sessions and roles in every app instance are told when a row they may hold
-- changes: a NOTIFY on `artim_cache` with "session:<token>" or "user:<user id>", delivered when
-- the change commits.
CREATE OR REPLACE FUNCTION artim_cache_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('artim_cache', 'session:' || OLD.token);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_cache_notify AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION artim_cache_session_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artim_cache_roles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('artim_cache', 'user:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('artim_cache', 'user:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_roles_cache_notify AFTER INSERT OR UPDATE OR DELETE ON user_roles FOR EACH ROW EXECUTE FUNCTION artim_cache_roles_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artim_cache_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('artim_cache', 'user:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only the columns a signed-in identity carries: balance changes (every order) fire nothing.
CREATE TRIGGER users_cache_notify AFTER UPDATE OF name, email OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION artim_cache_user_changed();

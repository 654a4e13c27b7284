-- The balance a signed-in customer's pages and `GET /api/me` show is now cached with their discount
-- in every instance, so a change of it is announced when it commits: "balance:<user id>" on
-- `artim_cache`. It has a trigger of its own, not the identity's (0013), because a balance changes
-- with every order: it makes the instances forget that customer's balance, not their session.
CREATE OR REPLACE FUNCTION artim_cache_balance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('artim_cache', 'balance:' || NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_balance_cache_notify AFTER UPDATE OF balance_micros ON users FOR EACH ROW WHEN (OLD.balance_micros IS DISTINCT FROM NEW.balance_micros) EXECUTE FUNCTION artim_cache_balance_changed();

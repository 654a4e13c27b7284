-- An order's debit is announced by the app after its commit, many customers in one notice
-- (`announceBalanceSoon`, src/server/cache.ts), not by the trigger of 0036 inside its transaction:
-- PostgreSQL takes a database-wide lock from just before a notifying transaction's commit until
-- after it, so with a notice in every order's transaction the orders committed one at a time. The
-- order's statement says so for its own transaction (`artim.balance_told`, set local); every other
-- writer of a balance is still announced by the trigger at its commit.
CREATE OR REPLACE FUNCTION artim_cache_balance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('artim.balance_told', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('artim_cache', 'balance:' || NEW.id);
  RETURN NULL;
END $$;

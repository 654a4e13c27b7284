-- The signed-in identity now carries whether the account has a second factor (the admin gate reads
-- it), so turning the factor on or off is a change every instance forgets its cached identity on.
DROP TRIGGER IF EXISTS users_cache_notify ON users;
--> statement-breakpoint
CREATE TRIGGER users_cache_notify AFTER UPDATE OF name, email, two_factor_enabled OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION artim_cache_user_changed();

-- What a logged-in member's cached session, row and counters depend on changed: every write to
-- these tables, whoever makes it (any node, a staff tool, psql), announces the ids of the members
-- concerned on `vonk_members` once it commits, and every node drops what it keeps of them
-- (server/src/member_cache.rs). '0': everyone (a profile became findable or hidden, which
-- changes what others count). Identical announcements of one transaction arrive once.
-- The table is SQLite's way of saying the same (one node reads it); here it stays empty and
-- keeps both schemas alike.
CREATE TABLE member_changes (
    seq BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL,
    at BIGINT NOT NULL DEFAULT (EXTRACT(EPOCH FROM now())::BIGINT)
);
CREATE FUNCTION vonk_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
    col text;
BEGIN
    FOREACH col IN ARRAY TG_ARGV LOOP
        PERFORM pg_notify('vonk_members', r ->> col);
    END LOOP;
    RETURN NULL;
END;
$$;
CREATE FUNCTION vonk_profile_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('vonk_members', OLD.user_id::text);
        PERFORM pg_notify('vonk_members', '0');
    ELSE
        PERFORM pg_notify('vonk_members', NEW.user_id::text);
        IF OLD.searchable IS DISTINCT FROM NEW.searchable THEN
            PERFORM pg_notify('vonk_members', '0');
        END IF;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER profiles_member_change AFTER UPDATE OR DELETE ON profiles FOR EACH ROW EXECUTE FUNCTION vonk_profile_changed();
CREATE TRIGGER users_member_change AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('id');
CREATE TRIGGER likes_member_change AFTER INSERT OR UPDATE OR DELETE ON likes FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('liked_id', 'liker_id');
CREATE TRIGGER blocks_member_change AFTER INSERT OR UPDATE OR DELETE ON blocks FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('blocker_id', 'blocked_id');
CREATE TRIGGER notifications_member_change AFTER INSERT OR UPDATE OR DELETE ON notifications FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');
CREATE TRIGGER chat_members_member_change AFTER INSERT OR UPDATE OR DELETE ON chat_members FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');
CREATE TRIGGER sessions_member_change AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');
CREATE TRIGGER notifications_disabled_member_change AFTER INSERT OR UPDATE OR DELETE ON notifications_disabled FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');
CREATE TRIGGER alert_dismissals_member_change AFTER INSERT OR UPDATE OR DELETE ON alert_dismissals FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');

-- A chat send names its two members in its own chat signal (`NOTIFY vonk_chat`), which every
-- node's member cache hears as well (server/src/member_cache). Its transaction sets
-- `vonk.chat_announces` (chat/send.rs, LOCK_POSTGRES) and the row triggers stay silent: one
-- notification a send instead of five, since notifying transactions commit one after the other.
-- Every other write announces as before.
CREATE OR REPLACE FUNCTION vonk_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r jsonb;
    col text;
BEGIN
    IF current_setting('vonk.chat_announces', true) = 'on' THEN
        RETURN NULL;
    END IF;
    r := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
    FOREACH col IN ARRAY TG_ARGV LOOP
        PERFORM pg_notify('vonk_members', r ->> col);
    END LOOP;
    RETURN NULL;
END;
$$;

-- Of a conversation's member rows the cache depends on the unread count alone (the member's
-- unread total, server/src/counters.rs): a delivery mark or a claimed new-message mail does not
-- announce anyone.
DROP TRIGGER chat_members_member_change ON chat_members;
CREATE TRIGGER chat_members_member_change AFTER INSERT OR DELETE OR UPDATE OF unread ON chat_members
    FOR EACH ROW EXECUTE FUNCTION vonk_member_changed('user_id');

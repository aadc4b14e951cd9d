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

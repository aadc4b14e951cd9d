-- A chat send names its two members in its own chat signal (`NOTIFY vonk_chat`), which every
-- node's member cache hears as well (server/src/member_cache). Its transaction sets
-- `vonk.chat_announces` (chat/send.rs, LOCK_POSTGRES), and the triggers on the rows a send
-- writes (the sender's user row, both members' conversation rows) stay silent then: one
-- notification a send instead of five, since notifying transactions commit one after the other.
-- Every other write announces as before.
--
-- Of a conversation's member rows the cache depends on the unread count alone (the member's
-- unread total, server/src/counters.rs): a delivery mark or a claimed new-message mail does not
-- announce anyone.
DROP TRIGGER users_member_change ON users;
CREATE TRIGGER users_member_change AFTER UPDATE OR DELETE ON users FOR EACH ROW
    WHEN (current_setting('vonk.chat_announces', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION vonk_member_changed('id');
DROP TRIGGER chat_members_member_change ON chat_members;
CREATE TRIGGER chat_members_member_change AFTER INSERT OR DELETE OR UPDATE OF unread ON chat_members FOR EACH ROW
    WHEN (current_setting('vonk.chat_announces', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION vonk_member_changed('user_id');

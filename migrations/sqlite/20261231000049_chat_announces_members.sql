-- Of a conversation's member rows the member cache depends on the unread count alone (the
-- member's unread total, server/src/counters.rs): a delivery mark or a claimed new-message mail
-- leaves no change behind. (On PostgreSQL this migration also keeps a chat send's triggers
-- silent; SQLite's change log is read by its one node and needs no such thing.)
DROP TRIGGER chat_members_member_change_update;
CREATE TRIGGER chat_members_member_change_update AFTER UPDATE OF unread ON chat_members BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;

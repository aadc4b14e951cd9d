-- What a logged-in member's cached session, row and counters depend on changed: every write to
-- these tables, whoever makes it (any request, a staff tool, the command line), leaves the ids of
-- the members concerned here, in the same transaction. The server reads the new rows before it
-- serves a member from memory (server/src/member_cache.rs) and deletes them after ten minutes.
-- `user_id` 0: everyone (a profile became findable or hidden, which changes what others count).
CREATE TABLE member_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL,
    at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);

CREATE TRIGGER users_member_change_update AFTER UPDATE ON users BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.id);
END;
CREATE TRIGGER users_member_change_delete AFTER DELETE ON users BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.id);
END;
CREATE TRIGGER profiles_member_change_update AFTER UPDATE ON profiles BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
    INSERT INTO member_changes (user_id) SELECT 0 WHERE OLD.searchable IS NOT NEW.searchable;
END;
CREATE TRIGGER profiles_member_change_delete AFTER DELETE ON profiles BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id), (0);
END;
CREATE TRIGGER likes_member_change_insert AFTER INSERT ON likes BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.liked_id), (NEW.liker_id);
END;
CREATE TRIGGER likes_member_change_update AFTER UPDATE ON likes BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.liked_id), (NEW.liker_id);
END;
CREATE TRIGGER likes_member_change_delete AFTER DELETE ON likes BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.liked_id), (OLD.liker_id);
END;
CREATE TRIGGER blocks_member_change_insert AFTER INSERT ON blocks BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.blocker_id), (NEW.blocked_id);
END;
CREATE TRIGGER blocks_member_change_update AFTER UPDATE ON blocks BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.blocker_id), (NEW.blocked_id);
END;
CREATE TRIGGER blocks_member_change_delete AFTER DELETE ON blocks BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.blocker_id), (OLD.blocked_id);
END;
CREATE TRIGGER notifications_member_change_insert AFTER INSERT ON notifications BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER notifications_member_change_update AFTER UPDATE ON notifications BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER notifications_member_change_delete AFTER DELETE ON notifications BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id);
END;
CREATE TRIGGER chat_members_member_change_insert AFTER INSERT ON chat_members BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER chat_members_member_change_update AFTER UPDATE ON chat_members BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER chat_members_member_change_delete AFTER DELETE ON chat_members BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id);
END;
CREATE TRIGGER sessions_member_change_update AFTER UPDATE ON sessions BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER sessions_member_change_delete AFTER DELETE ON sessions BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id);
END;
CREATE TRIGGER notifications_disabled_member_change_insert AFTER INSERT ON notifications_disabled BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER notifications_disabled_member_change_update AFTER UPDATE ON notifications_disabled BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER notifications_disabled_member_change_delete AFTER DELETE ON notifications_disabled BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id);
END;
CREATE TRIGGER alert_dismissals_member_change_insert AFTER INSERT ON alert_dismissals BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER alert_dismissals_member_change_update AFTER UPDATE ON alert_dismissals BEGIN
    INSERT INTO member_changes (user_id) VALUES (NEW.user_id);
END;
CREATE TRIGGER alert_dismissals_member_change_delete AFTER DELETE ON alert_dismissals BEGIN
    INSERT INTO member_changes (user_id) VALUES (OLD.user_id);
END;

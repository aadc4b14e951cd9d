-- Notifications (SPEC §2 /notifications): likes, matches and system notices, newest first, with
-- their read state. `actor_id` is the other member of a like or match; system notices have none.
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('like', 'match', 'photo_approved', 'photo_rejected', 'welcome')),
    actor_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    read_at INTEGER
);
CREATE INDEX notifications_user ON notifications (user_id, created_at);
CREATE INDEX notifications_unread ON notifications (user_id, read_at);

-- When the last like mail went out, so that likes mail at most once in a while (matches always).
ALTER TABLE users ADD COLUMN like_mailed_at INTEGER;

-- Auto-likes for new members: how many at most (0 = off) and how far apart.
ALTER TABLE sites ADD COLUMN auto_likes INTEGER NOT NULL DEFAULT 3 CHECK (auto_likes >= 0);
ALTER TABLE sites ADD COLUMN auto_like_gap_secs INTEGER NOT NULL DEFAULT 3600 CHECK (auto_like_gap_secs >= 0);

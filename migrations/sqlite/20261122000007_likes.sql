-- Likes (SPEC §3 Like item): one row per liker and liked member. A match is two rows, one each
-- way. `seen` clears when the liked member opens the liker's profile or the likes page (SPEC §4:
-- new likes first). `source` says where the like was given; the swipe game's daily allowance
-- counts the `swipe` ones.
CREATE TABLE likes (
    liker_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    liked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'profile' CHECK (source IN ('profile', 'search', 'swipe', 'auto')),
    PRIMARY KEY (liker_id, liked_id)
);
CREATE INDEX likes_received ON likes (liked_id, seen, created_at);
CREATE INDEX likes_given_recent ON likes (liker_id, source, created_at);

-- Likes (SPEC §3 Like item): one row per liker and liked member. A match is two rows, one each
-- way. `seen` clears when the liked member opens the liker's profile or the likes page (SPEC §4:
-- new likes first). `source` says where the like was given; the swipe game's daily allowance
-- counts the `swipe` ones.
CREATE TABLE likes (
    liker_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    liked_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    seen BOOLEAN NOT NULL DEFAULT FALSE,
    source TEXT NOT NULL DEFAULT 'profile' CHECK (source IN ('profile', 'search', 'swipe', 'auto')),
    PRIMARY KEY (liker_id, liked_id)
);
CREATE INDEX likes_received ON likes (liked_id, seen, created_at);
CREATE INDEX likes_given_recent ON likes (liker_id, source, created_at);

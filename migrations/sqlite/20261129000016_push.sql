-- Web push subscriptions (SPEC §7), one per browser: the push service's address is unique, so
-- a browser that logs in as another member moves its subscription along. Each belongs to the
-- session it was stored in: when that session ends (logout, expiry, "log out everywhere"),
-- the browser stops receiving the member's pushes.
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_hash TEXT NOT NULL REFERENCES sessions (token_hash) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions (session_hash);

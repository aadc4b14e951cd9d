-- The swipe game's passes: a profile passed on stays out of the stack for a week.
CREATE TABLE swipe_passes (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    passed_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, passed_id)
);

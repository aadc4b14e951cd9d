-- One-tap sign-in links in lifecycle mails (`/{token}`, SPEC §2): a new kind of account token,
-- bound to its member and the page the mail was about (`payload`), working for a number of
-- hours staff choose per site.
CREATE TABLE account_tokens_new (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('activation', 'password_reset', 'mail_change', 'reactivation', 'mail_undo', 'two_step', 'sign_in')),
    payload TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
INSERT INTO account_tokens_new SELECT token_hash, user_id, kind, payload, created_at, expires_at, used_at FROM account_tokens;
DROP TABLE account_tokens;
ALTER TABLE account_tokens_new RENAME TO account_tokens;
CREATE INDEX account_tokens_user ON account_tokens (user_id, kind);
CREATE INDEX account_tokens_expiry ON account_tokens (expires_at);

ALTER TABLE sites ADD COLUMN sign_in_link_hours INTEGER NOT NULL DEFAULT 48;

-- When each account was last seen (its session used), for the win-back messages after 7 and 30
-- days away; a member's sessions may have expired by then. Filled from the sessions there are,
-- else from the signup.
ALTER TABLE users ADD COLUMN last_seen_at INTEGER;
UPDATE users SET last_seen_at = COALESCE((SELECT MAX(s.last_seen_at) FROM sessions s WHERE s.user_id = users.id), signup_date);
CREATE INDEX users_last_seen ON users (last_seen_at);
ALTER TABLE sites ADD COLUMN win_back INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sites ADD COLUMN discount_ending INTEGER NOT NULL DEFAULT 1;

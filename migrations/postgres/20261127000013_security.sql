-- Account security: sessions a member can see and end, security events, the undo link of an
-- email change, and two-step login with an authenticator app.

-- Sessions slide with use: `last_seen_at` moves (at most every few minutes) and a session ends
-- after 30 idle days. The device and country are what settings show; no address is kept here.
ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN country TEXT;
UPDATE sessions SET last_seen_at = created_at;
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Two more kinds of account token: the old address's undo link after an email change, and the
-- short-lived step between a right password and the authenticator code.
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_kind_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_kind_check
    CHECK (kind IN ('activation', 'password_reset', 'mail_change', 'reactivation', 'mail_undo', 'two_step'));
CREATE INDEX account_tokens_expiry ON account_tokens (expires_at);

-- What happened to an account (logins, failures, lockouts, password and email changes,
-- deletion). Never a password or a token.
CREATE TABLE security_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    ip TEXT,
    country TEXT,
    user_agent TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX security_events_user ON security_events (user_id, created_at);

-- Two-step login: the authenticator's secret (set once the member confirmed a code), the last
-- time step used (a code works once), and one-time recovery codes (hashes only).
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
-- The recovery codes shown while setting up (readable until two-step login is on, then only
-- their hashes remain in recovery_codes).
ALTER TABLE users ADD COLUMN totp_pending_codes TEXT;
ALTER TABLE users ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;
CREATE TABLE recovery_codes (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

-- The last like or match mail per pair of members: one a day per pair, so taking a like back
-- and giving it again sends no new mail.
CREATE TABLE like_mails (
    to_user BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    from_user BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mailed_at BIGINT NOT NULL,
    PRIMARY KEY (to_user, from_user)
);

-- "Like them all" per day: the day (unix days) and how many bulk likes it has used.
ALTER TABLE users ADD COLUMN bulk_likes_day BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN bulk_likes BIGINT NOT NULL DEFAULT 0;

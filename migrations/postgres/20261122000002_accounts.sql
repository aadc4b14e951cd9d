-- Members, their sessions, single-use account tokens and the credit ledger.
-- SQLite keeps booleans as BIGINT 0/1 (see the first migration).
CREATE TABLE users (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    site_id BIGINT NOT NULL REFERENCES sites (id),
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'not_confirmed' CHECK (status IN ('not_confirmed', 'active', 'blocked', 'deleted')),
    language TEXT NOT NULL,
    credits BIGINT NOT NULL DEFAULT 0 CHECK (credits >= 0),
    paid_user BOOLEAN NOT NULL DEFAULT FALSE,
    invisible BOOLEAN NOT NULL DEFAULT FALSE,
    failed_logins BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT,
    signup_date BIGINT NOT NULL,
    deleted_at BIGINT,
    tracking_network TEXT,
    tracking_ref TEXT,
    tracking_sub1 TEXT,
    tracking_sub2 TEXT,
    tracking_sub3 TEXT,
    UNIQUE (site_id, email)
);

CREATE TABLE profiles (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    signup_message TEXT,
    gender TEXT,
    sexuality TEXT,
    country TEXT,
    region TEXT,
    city TEXT
);

-- Only a hash of the session token is stored: a leaked database opens no sessions.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE account_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('activation', 'password_reset', 'mail_change', 'reactivation')),
    payload TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX account_tokens_user ON account_tokens (user_id, kind);

-- Every credit change is a row here, written in the same transaction as the change itself.
-- (reason, reference) is unique so that a repeated event (a webhook twice) books once.
CREATE TABLE credit_ledger (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    delta BIGINT NOT NULL,
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    reason TEXT NOT NULL,
    reference TEXT,
    created_at BIGINT NOT NULL,
    UNIQUE (reason, reference)
);
CREATE INDEX credit_ledger_user ON credit_ledger (user_id, id);

-- One-tap sign-in links in lifecycle mails (`/{token}`, SPEC §2): a new kind of account token,
-- bound to its member and the page the mail was about (`payload`), working for a number of
-- hours staff choose per site.
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_kind_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_kind_check
    CHECK (kind IN ('activation', 'password_reset', 'mail_change', 'reactivation', 'mail_undo', 'two_step', 'sign_in'));

ALTER TABLE sites ADD COLUMN sign_in_link_hours BIGINT NOT NULL DEFAULT 48;

-- When each account was last seen (its session used), for the win-back messages after 7 and 30
-- days away; a member's sessions may have expired by then. Filled from the sessions there are,
-- else from the signup.
ALTER TABLE users ADD COLUMN last_seen_at BIGINT;
UPDATE users SET last_seen_at = COALESCE((SELECT MAX(s.last_seen_at) FROM sessions s WHERE s.user_id = users.id), signup_date);
CREATE INDEX users_last_seen ON users (last_seen_at);
ALTER TABLE sites ADD COLUMN win_back BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE sites ADD COLUMN discount_ending BOOLEAN NOT NULL DEFAULT TRUE;

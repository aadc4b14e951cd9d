-- Regions per country (reference data, filled at start-up from server/reference/regions.tsv), the profile's
-- visibility status, mail preferences, the reasons notification mails are switched off, and
-- dismissed alerts.
CREATE TABLE regions (
    code TEXT PRIMARY KEY,
    country TEXT NOT NULL,
    name TEXT NOT NULL,
    lat REAL NOT NULL,
    lon REAL NOT NULL
);
CREATE INDEX regions_country ON regions (country, name);

-- 'disabled' until the member confirms the email address (SPEC §4), then 'active'.
ALTER TABLE profiles ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'under_inspection', 'disabled'));

ALTER TABLE users ADD COLUMN notify_messages INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN notify_likes INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN notify_news INTEGER NOT NULL DEFAULT 1;
-- The capability in a mail's List-Unsubscribe link; it can only switch notification mails off.
ALTER TABLE users ADD COLUMN unsubscribe_token TEXT;
CREATE UNIQUE INDEX users_unsubscribe_token ON users (unsubscribe_token);

-- Why notification mails are off for a member: a spam complaint, a bounce or list-unsubscribe.
CREATE TABLE notifications_disabled (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('spam', 'bounce', 'list_unsubscribe')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, reason)
);

-- Dismissed alerts stay dismissed (SPEC §4), with the moment of dismissal.
CREATE TABLE alert_dismissals (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    alert TEXT NOT NULL,
    dismissed_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, alert)
);

-- Age assurance (`domain::age`): where a site asks for a passed check, each check a member
-- started with a provider (only its reference and outcome: never a document or a photo), and
-- when the member passed. The built-in test provider keeps its own checks, as a real provider
-- would on its side.
ALTER TABLE sites ADD COLUMN age_check_countries TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN age_verified_at INTEGER;
CREATE TABLE age_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    reference TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    decided_at INTEGER,
    UNIQUE (provider, reference)
);
CREATE INDEX age_checks_by_member ON age_checks (user_id, id);
CREATE TABLE test_age_checks (
    id TEXT PRIMARY KEY,
    return_url TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

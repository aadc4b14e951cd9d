-- The company's leaving discount (`companies.delete_discount`), offered once in the
-- delete-account flow: a code only its member can use. One row per member who took it.
ALTER TABLE discount_codes ADD COLUMN member_id INTEGER REFERENCES users (id) ON DELETE CASCADE;
CREATE TABLE leaving_discounts (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    percentage INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

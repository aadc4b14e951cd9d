-- Members as others see them: the rest of the profile (SPEC §3), interests, photos, blocks,
-- and what search needs to be fast on 100,000 profiles.

-- Interests members pick from (reference data, filled at start-up; names come from locales/).
CREATE TABLE interests (
    code TEXT PRIMARY KEY,
    icon TEXT NOT NULL,
    position BIGINT NOT NULL
);

ALTER TABLE profiles ADD COLUMN hair_colour TEXT;
ALTER TABLE profiles ADD COLUMN eye_colour TEXT;
ALTER TABLE profiles ADD COLUMN body_type TEXT;
ALTER TABLE profiles ADD COLUMN relationship_status TEXT;
ALTER TABLE profiles ADD COLUMN tattoos TEXT;
ALTER TABLE profiles ADD COLUMN reason TEXT;
ALTER TABLE profiles ADD COLUMN about TEXT;
-- Copied from users so that search reads one table through one index.
ALTER TABLE profiles ADD COLUMN site_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN searchable BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE profiles ADD COLUMN last_active BIGINT NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN main_photo TEXT;
ALTER TABLE profiles ADD COLUMN main_thumb TEXT;
ALTER TABLE profiles ADD COLUMN fictional BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE profiles SET site_id = (SELECT site_id FROM users WHERE users.id = profiles.user_id);

-- Operator-run profiles (SPEC §3 fictional_icon / fictional_warning) and demo members; set on
-- both tables (profiles carries it for search).
ALTER TABLE users ADD COLUMN fictional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'staff'));

CREATE TABLE profile_interests (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    interest TEXT NOT NULL REFERENCES interests (code),
    PRIMARY KEY (user_id, interest)
);

CREATE TABLE photos (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    thumb_filename TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'under_inspection' CHECK (status IN ('active', 'under_inspection', 'disabled')),
    private BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
CREATE INDEX photos_user ON photos (user_id, id);

-- Either member's block hides each from the other everywhere (SPEC §6).
CREATE TABLE blocks (
    blocker_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id, blocker_id);

-- Search walks newest activity first through the index that fits the filters (all, gender,
-- country or region) and stops at the page's end; the other filter columns ride along in the
-- index, so rows that do not match are skipped without reading the table.
CREATE INDEX profiles_search_all ON profiles (site_id, searchable, last_active DESC, gender, country, region, date_of_birth);
CREATE INDEX profiles_search_gender ON profiles (site_id, searchable, gender, last_active DESC, country, region, date_of_birth);
CREATE INDEX profiles_search_country ON profiles (site_id, searchable, country, last_active DESC, gender, region, date_of_birth);
CREATE INDEX profiles_search_region ON profiles (site_id, searchable, region, last_active DESC, gender, date_of_birth);

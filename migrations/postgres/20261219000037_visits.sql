-- Landing visits (`domain::visits`, the owner's figures): one row per visitor, day and touch
-- (the same page with the same tracking), never for bots or prefetches. `visitor` is the hash
-- of a first-party cookie's random value; of the address only its network is kept.
CREATE TABLE visits (
    id BIGSERIAL PRIMARY KEY,
    site_id BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    day BIGINT NOT NULL,
    visitor TEXT NOT NULL,
    touch TEXT NOT NULL,
    page TEXT NOT NULL,
    lander TEXT,
    slug TEXT,
    network TEXT,
    ref TEXT,
    sub1 TEXT,
    sub2 TEXT,
    sub3 TEXT,
    click_id TEXT,
    country TEXT,
    device TEXT NOT NULL,
    ip_prefix TEXT,
    created_at BIGINT NOT NULL,
    UNIQUE (site_id, visitor, day, touch)
);
CREATE INDEX visits_by_day ON visits (site_id, day);
CREATE INDEX visits_by_visitor ON visits (visitor, created_at);

-- The first and the last landing with a source before a member signed up (within the site's
-- attribution window), copied so that figures outlive the visits kept.
CREATE TABLE signup_touches (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    touch TEXT NOT NULL CHECK (touch IN ('first', 'last')),
    landed_at BIGINT NOT NULL,
    page TEXT NOT NULL,
    lander TEXT,
    slug TEXT,
    network TEXT,
    ref TEXT,
    sub1 TEXT,
    sub2 TEXT,
    sub3 TEXT,
    click_id TEXT,
    PRIMARY KEY (user_id, touch)
);

-- Which touch a signup counts for, and how many days a touch counts.
ALTER TABLE sites ADD COLUMN attribution_first_touch BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE sites ADD COLUMN attribution_days BIGINT NOT NULL DEFAULT 30;

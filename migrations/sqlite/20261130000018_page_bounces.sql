-- Page bounces (SPEC §9 `lb`): a lander opened with `lb` in its URL sends a beacon when it is
-- hidden before the visitor clicked anything; staff see the counts per lander.
CREATE TABLE page_bounces (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    lander TEXT NOT NULL,
    slug TEXT NOT NULL DEFAULT '',
    network TEXT,
    ref TEXT,
    sub1 TEXT,
    sub2 TEXT,
    sub3 TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX page_bounces_site ON page_bounces (site_id, created_at);

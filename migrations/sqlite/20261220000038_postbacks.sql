-- Postbacks (`domain::postbacks`, `server::postbacks`): per site, network and event the URL
-- staff set, with macros; and each call Vonk made or will make, once per event (`event_key`),
-- with its last answer. The calls run from the job queue (`postback:{id}`).
CREATE TABLE postback_urls (
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    network TEXT NOT NULL,
    event TEXT NOT NULL CHECK (event IN ('signup', 'confirmed', 'first_purchase', 'purchase', 'reversal')),
    url TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (site_id, network, event)
);

CREATE TABLE postbacks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    network TEXT NOT NULL,
    event TEXT NOT NULL,
    event_key TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    http_status INTEGER,
    answer TEXT,
    created_at INTEGER NOT NULL,
    sent_at INTEGER
);
CREATE INDEX postbacks_by_site ON postbacks (site_id, id);

-- Complaints and reports (/complaints, and "report" on a profile or a conversation). Each gets a
-- reference for the complainant; support is mailed (mailed_at stays NULL until the mail went
-- out, and housekeeping sends what is still due). A reported member or conversation is linked
-- when it was reported from its page; the complaint stays when they are deleted.
CREATE TABLE complaints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    reference TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    language TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    category TEXT NOT NULL,
    concerning TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL,
    reporter_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    member_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    conversation_id INTEGER REFERENCES conversations (id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'open',
    handled_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    handled_at INTEGER,
    mailed_at INTEGER
);
CREATE INDEX complaints_site_status ON complaints (site_id, status, created_at);
CREATE INDEX complaints_unmailed ON complaints (mailed_at) WHERE mailed_at IS NULL;

-- What staff did, by whom and when (SPEC: staff area). Kept when the staff member's account
-- goes: the name is copied.
CREATE TABLE staff_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id),
    staff_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    staff_name TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX staff_actions_site ON staff_actions (site_id, created_at);

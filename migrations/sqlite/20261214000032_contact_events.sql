-- Each try at sharing a contact detail the site does not allow, per kind: masked, held for
-- review or refused (`server::chat::contact`). Staff's weekly figures and the count of a
-- member's tries (warned, then held) read it. `attempt` is the send's client id, so a retried
-- send counts once.
CREATE TABLE contact_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    attempt TEXT NOT NULL,
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX contact_events_by_user ON contact_events (user_id, created_at);
CREATE INDEX contact_events_by_site ON contact_events (site_id, created_at);

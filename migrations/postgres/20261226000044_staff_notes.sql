-- Staff's notes on a member (the member file on `/staff/members`): what support or moderators
-- want the next colleague to know. Never shown to the member; gone with the account.
CREATE TABLE staff_notes (
    id BIGSERIAL PRIMARY KEY,
    site_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    staff_id BIGINT,
    staff_name TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX staff_notes_by_member ON staff_notes (user_id, id);

-- Invitations to an invite-only site: a one-time link (only its hash is kept), who made it,
-- until when it works and who used it. Staff always invite; members when the site allows it.
ALTER TABLE sites ADD COLUMN member_invites BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE sites ADD COLUMN invitation_days BIGINT NOT NULL DEFAULT 14;
CREATE TABLE invitations (
    id BIGSERIAL PRIMARY KEY,
    site_id BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    used_by BIGINT REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX invitations_by_site ON invitations (site_id, created_at);
CREATE INDEX invitations_by_inviter ON invitations (invited_by, created_at);

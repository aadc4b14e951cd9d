-- A site's own logo, uploaded by staff: a PNG made anew from the upload (nothing of the
-- original file kept), at most 480 x 160 pixels. Every node keeps it in memory with the settings.
CREATE TABLE site_logos (
    site_id BIGINT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    png BYTEA NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL
);
-- The current logo's version (part of its address, so browsers may keep it for a year);
-- NULL: the flame mark with the site's name. Changing it announces the change to every node.
ALTER TABLE sites ADD COLUMN logo_version TEXT;

-- Stored files whose rows are gone and that must leave the media store (local folder or S3):
-- written in the same transaction that removes the rows, emptied right after the commit and
-- again by the hourly housekeeping until the store confirms, so a crash or an unreachable
-- store never leaves a purged member's photo behind.
CREATE TABLE media_trash (
    key TEXT PRIMARY KEY
);

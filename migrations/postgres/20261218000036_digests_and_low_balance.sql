-- The last lifecycle messages (`domain::lifecycle`): the digests of unread messages and of new
-- likes, and a premium member's low balance, each switched per site on `/staff/site`.
ALTER TABLE sites ADD COLUMN unread_digest BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE sites ADD COLUMN likes_digest BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE sites ADD COLUMN low_balance BOOLEAN NOT NULL DEFAULT TRUE;

-- Which channel carried a lifecycle message, the mail's Message-ID (a spam complaint quotes
-- it, so the complaint counts against its kind) and when a complaint about it came.
ALTER TABLE lifecycle_sent ADD COLUMN message_id TEXT;
ALTER TABLE lifecycle_sent ADD COLUMN complained_at BIGINT;
CREATE INDEX lifecycle_sent_by_message ON lifecycle_sent (message_id);

-- The member's time zone as the browser tells it (an IANA name); the country's zone without it.
ALTER TABLE users ADD COLUMN time_zone TEXT;

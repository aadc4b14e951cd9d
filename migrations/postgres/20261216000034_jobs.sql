-- The one job queue (DESIGN.md habit 11, `server::jobs`): work that happens later, a row per
-- job with its due time, tries and last error. `job_key` names the event a job is for, so that
-- enqueuing the same event twice (a retried request, two nodes) makes one job. A node running a
-- job holds it until `locked_until`; when it dies, the lease ends and another node runs it.
CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    -- The site the job is for (staff of a site see its jobs only); none for the whole node's work.
    site_id BIGINT REFERENCES sites (id) ON DELETE CASCADE,
    job_key TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'queued',
    due_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    locked_by TEXT,
    locked_until BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX jobs_due ON jobs (status, due_at);
CREATE INDEX jobs_by_site ON jobs (site_id, status, finished_at);

-- Each lifecycle message sent (`domain::lifecycle`): the per-member cap reads it, and staff's
-- figures per kind and day.
CREATE TABLE lifecycle_sent (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    channel TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX lifecycle_sent_by_user ON lifecycle_sent (user_id, sent_at);
CREATE INDEX lifecycle_sent_by_time ON lifecycle_sent (sent_at, kind);

-- A member who said no to one kind of lifecycle message (one click in its mail).
CREATE TABLE lifecycle_optouts (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX lifecycle_optouts_by_time ON lifecycle_optouts (created_at, kind);

-- Lifecycle messages a site sends (staff switch each kind on `/staff/site`).
ALTER TABLE sites ADD COLUMN confirm_reminders BOOLEAN NOT NULL DEFAULT TRUE;

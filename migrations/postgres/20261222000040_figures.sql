-- The owner's figures (`domain::figures`, `/staff/figures`).

-- Where each member came from, as the figures count them: the attributed source at signup
-- (`users.tracking_*`), its touch's lander, the country and device class of the signup.
CREATE TABLE member_sources (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    site_id BIGINT NOT NULL,
    signup_at BIGINT NOT NULL,
    network TEXT,
    ref TEXT,
    sub1 TEXT,
    sub2 TEXT,
    sub3 TEXT,
    lander TEXT,
    country TEXT,
    device TEXT
);
-- Members from before: their tracking, their touch's lander and profile country (the device
-- was not kept).
INSERT INTO member_sources (user_id, site_id, signup_at, network, ref, sub1, sub2, sub3, lander, country, device)
SELECT u.id, u.site_id, u.signup_date, u.tracking_network, u.tracking_ref, u.tracking_sub1, u.tracking_sub2, u.tracking_sub3,
    (SELECT t.lander FROM signup_touches t WHERE t.user_id = u.id ORDER BY t.touch DESC LIMIT 1),
    (SELECT p.country FROM profiles p WHERE p.user_id = u.id), NULL
FROM users u WHERE u.fictional = FALSE AND u.staff_roles = 0;

-- Daily rollups kept by the events' own transactions: one row per site, day, scope (''
-- for all networks, or one network), dimension, value and currency (the payment's for money,
-- '' for the rest); the page sums rows, never events.
CREATE TABLE figure_days (
    site_id BIGINT NOT NULL,
    scope TEXT NOT NULL,
    dim TEXT NOT NULL,
    day BIGINT NOT NULL,
    value TEXT NOT NULL,
    currency TEXT NOT NULL,
    visits BIGINT NOT NULL DEFAULT 0,
    signups BIGINT NOT NULL DEFAULT 0,
    confirmed BIGINT NOT NULL DEFAULT 0,
    first_purchases BIGINT NOT NULL DEFAULT 0,
    purchases BIGINT NOT NULL DEFAULT 0,
    gross BIGINT NOT NULL DEFAULT 0,
    refunded BIGINT NOT NULL DEFAULT 0,
    cohort_1d BIGINT NOT NULL DEFAULT 0,
    cohort_7d BIGINT NOT NULL DEFAULT 0,
    cohort_30d BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (site_id, scope, dim, day, value, currency)
);

-- The members who paid on a day, with their source: buyers are distinct over any period.
CREATE TABLE figure_payers (
    site_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    network TEXT NOT NULL,
    ref TEXT NOT NULL,
    sub1 TEXT NOT NULL,
    sub2 TEXT NOT NULL,
    sub3 TEXT NOT NULL,
    lander TEXT NOT NULL,
    country TEXT NOT NULL,
    device TEXT NOT NULL,
    PRIMARY KEY (site_id, day, user_id)
);
CREATE INDEX member_sources_by_signup ON member_sources (site_id, signup_at);

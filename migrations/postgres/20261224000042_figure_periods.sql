-- The figures' weekly and monthly rollups beside the daily ones: a long range is read as its
-- whole months and weeks plus the days at its ends (`domain::figures::cover`), a fraction of
-- the daily rows. Kept by the same events, in the same transactions, as `figure_days`.
CREATE TABLE figure_periods (
    site_id BIGINT NOT NULL,
    grain TEXT NOT NULL CHECK (grain IN ('week', 'month')),
    scope TEXT NOT NULL,
    dim TEXT NOT NULL,
    start BIGINT NOT NULL,
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
    PRIMARY KEY (site_id, grain, scope, dim, start, value, currency)
);

-- What the daily rollups hold so far, summed per week (from Monday) and per month.
INSERT INTO figure_periods (site_id, grain, scope, dim, start, value, currency, visits, signups, confirmed, first_purchases, purchases, gross, refunded, cohort_1d, cohort_7d, cohort_30d)
SELECT site_id, 'week', scope, dim, day - ((day + 3) % 7), value, currency, SUM(visits), SUM(signups), SUM(confirmed), SUM(first_purchases), SUM(purchases), SUM(gross), SUM(refunded), SUM(cohort_1d), SUM(cohort_7d), SUM(cohort_30d)
FROM figure_days GROUP BY site_id, scope, dim, day - ((day + 3) % 7), value, currency;
INSERT INTO figure_periods (site_id, grain, scope, dim, start, value, currency, visits, signups, confirmed, first_purchases, purchases, gross, refunded, cohort_1d, cohort_7d, cohort_30d)
SELECT site_id, 'month', scope, dim, CAST(EXTRACT(EPOCH FROM date_trunc('month', to_timestamp(day * 86400) AT TIME ZONE 'UTC')) AS BIGINT) / 86400, value, currency, SUM(visits), SUM(signups), SUM(confirmed), SUM(first_purchases), SUM(purchases), SUM(gross), SUM(refunded), SUM(cohort_1d), SUM(cohort_7d), SUM(cohort_30d)
FROM figure_days GROUP BY site_id, scope, dim, CAST(EXTRACT(EPOCH FROM date_trunc('month', to_timestamp(day * 86400) AT TIME ZONE 'UTC')) AS BIGINT) / 86400, value, currency;

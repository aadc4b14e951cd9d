-- Split tests of landers (`domain::splits`, `/staff/figures/tests`): a lander's traffic shared
-- between designs by weight. A test's designs and weights never change while it runs (a
-- visitor keeps their design: it is drawn from the visitor's cookie and the test); staff stop
-- it and start another.
CREATE TABLE split_tests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    lander TEXT NOT NULL,
    variants TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    stopped_at INTEGER
);
-- One running test per lander; a name once per site.
CREATE UNIQUE INDEX split_tests_running ON split_tests (site_id, lander) WHERE stopped_at IS NULL;
CREATE UNIQUE INDEX split_tests_name ON split_tests (site_id, name);

-- The test and design a visit was shown (`name:design`), and the one a member counts under.
ALTER TABLE visits ADD COLUMN variant TEXT;
ALTER TABLE member_sources ADD COLUMN variant TEXT;
ALTER TABLE figure_payers ADD COLUMN variant TEXT NOT NULL DEFAULT '';
CREATE INDEX member_sources_by_variant ON member_sources (site_id, variant) WHERE variant IS NOT NULL;

-- What each member has paid, net of refunds and chargebacks, per currency: kept by the same
-- events as the rollups (a test's revenue per visit and its spread come from it).
CREATE TABLE member_money (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    currency TEXT NOT NULL,
    purchases INTEGER NOT NULL DEFAULT 0,
    net INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, currency)
);

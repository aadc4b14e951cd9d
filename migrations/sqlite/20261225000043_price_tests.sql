-- Price tests (`domain::splits`, `/staff/figures/tests`): the members shown one credit bundle
-- share two to four prices by weight. A price test is a split test whose subject (`lander`)
-- is `pack:{id}`, so one runs per bundle; its bundle and currency are kept beside it (the
-- prices are in that currency, and only money in it counts).
ALTER TABLE split_tests ADD COLUMN pack_id INTEGER;
ALTER TABLE split_tests ADD COLUMN currency TEXT;

-- The members shown a tested bundle: their price is fixed by the first page that shows it
-- to them, and what they pay from then on while the test runs (in its currency, net of
-- refunds, chargebacks and reversals) is added here by the payment's own transaction.
CREATE TABLE price_exposures (
    test_id INTEGER NOT NULL REFERENCES split_tests (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    price_minor INTEGER NOT NULL,
    first_seen_at INTEGER NOT NULL,
    purchases INTEGER NOT NULL DEFAULT 0,
    net INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (test_id, user_id)
);
CREATE INDEX price_exposures_by_member ON price_exposures (user_id);

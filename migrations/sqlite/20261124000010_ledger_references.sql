-- Every ledger row names what caused it (a reference is never NULL) and a reference is booked
-- once: a repeated booking is a quiet no-op. The ledger is append-only.
CREATE TABLE credit_ledger_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    delta INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    reason TEXT NOT NULL,
    reference TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
INSERT INTO credit_ledger_new (id, user_id, delta, balance_after, reason, reference, created_at)
    SELECT id, user_id, delta, balance_after, reason, COALESCE(reference, reason || ':ledger:' || id), created_at FROM credit_ledger;
DROP TABLE credit_ledger;
ALTER TABLE credit_ledger_new RENAME TO credit_ledger;
CREATE INDEX credit_ledger_user ON credit_ledger (user_id, id);

CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger
BEGIN
    SELECT RAISE(ABORT, 'credit_ledger is append-only');
END;
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger
BEGIN
    SELECT RAISE(ABORT, 'credit_ledger is append-only');
END;

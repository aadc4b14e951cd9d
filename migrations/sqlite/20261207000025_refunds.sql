-- Money after the sale: a paid payment can be refunded in full or charged back (statuses move
-- forward only); `refunded` is the part of the amount that went back or is on its way.
-- SQLite cannot change a CHECK constraint: the table is rebuilt inside the migration's
-- transaction (foreign keys stay on, so they cannot be switched off for the swap). Renaming the
-- old table away also points the two tables that refer to it at the old name; they are rebuilt
-- after the new `payments` holds the rows, referring to it again, and then the old table goes.
ALTER TABLE payments RENAME TO payments_before_refunds;
CREATE TABLE payments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id),
    site_id INTEGER NOT NULL REFERENCES sites (id),
    pack_id INTEGER NOT NULL REFERENCES credit_packs (id),
    credits INTEGER NOT NULL CHECK (credits > 0),
    list_price INTEGER NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    currency TEXT NOT NULL,
    vat_rate INTEGER NOT NULL,
    country TEXT NOT NULL,
    method TEXT NOT NULL,
    provider TEXT NOT NULL,
    provider_id TEXT,
    checkout_url TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'paid', 'failed', 'canceled', 'expired', 'reversed', 'refunded', 'charged_back')),
    discount_code TEXT,
    discount_percent INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- When the provider was last asked (the recovery job asks again after a while).
    checked_at INTEGER NOT NULL,
    paid_at INTEGER,
    receipt_sent_at INTEGER,
    refunded INTEGER NOT NULL DEFAULT 0 CHECK (refunded >= 0),
    UNIQUE (provider, provider_id)
);
INSERT INTO payments (id, user_id, site_id, pack_id, credits, list_price, amount, currency, vat_rate, country, method, provider, provider_id, checkout_url, status, discount_code, discount_percent, created_at, updated_at, checked_at, paid_at, receipt_sent_at)
    SELECT id, user_id, site_id, pack_id, credits, list_price, amount, currency, vat_rate, country, method, provider, provider_id, checkout_url, status, discount_code, discount_percent, created_at, updated_at, checked_at, paid_at, receipt_sent_at FROM payments_before_refunds;

CREATE TABLE discount_redemptions_rebuilt (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    payment_id INTEGER NOT NULL REFERENCES payments (id),
    PRIMARY KEY (user_id, code)
);
INSERT INTO discount_redemptions_rebuilt (user_id, code, payment_id) SELECT user_id, code, payment_id FROM discount_redemptions;
DROP TABLE discount_redemptions;
ALTER TABLE discount_redemptions_rebuilt RENAME TO discount_redemptions;

CREATE TABLE direct_debits_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id),
    pack_id INTEGER NOT NULL REFERENCES credit_packs (id),
    iban TEXT NOT NULL,
    phone TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    discount_code TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    payment_id INTEGER REFERENCES payments (id),
    -- The provider's mandate once it collects the order.
    mandate_id TEXT
);
INSERT INTO direct_debits_rebuilt (id, user_id, pack_id, iban, phone, code_hash, attempts, discount_code, created_at, expires_at, payment_id)
    SELECT id, user_id, pack_id, iban, phone, code_hash, attempts, discount_code, created_at, expires_at, payment_id FROM direct_debits;
DROP TABLE direct_debits;
ALTER TABLE direct_debits_rebuilt RENAME TO direct_debits;
CREATE INDEX direct_debits_user ON direct_debits (user_id, id);

DROP TABLE payments_before_refunds;
CREATE INDEX payments_user ON payments (user_id, id);
CREATE INDEX payments_open ON payments (status, checked_at);

-- Each refund (staff's, one made in the provider's dashboard, a chargeback). `request_key` is
-- the idempotency key: the staff form's key (also sent to the provider) or the provider's own
-- reference, so a repeat is found, never booked twice. A `requested` refund reserves its
-- amount until the provider answers.
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_id INTEGER NOT NULL REFERENCES payments (id),
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    credits_taken INTEGER NOT NULL DEFAULT 0,
    credits_spent INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    staff_id INTEGER REFERENCES users (id),
    request_key TEXT NOT NULL UNIQUE,
    provider_refund_id TEXT,
    note_sent_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX refunds_payment ON refunds (payment_id, id);
CREATE INDEX refunds_state ON refunds (state, updated_at);

-- A chargeback stops card and direct-debit payments until staff lift it.
ALTER TABLE users ADD COLUMN payments_blocked INTEGER NOT NULL DEFAULT 0;
-- The test provider refunds and charges back too: its own records, like a real provider's.
ALTER TABLE test_checkouts ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE test_checkouts ADD COLUMN charged_back INTEGER NOT NULL DEFAULT 0;
CREATE TABLE test_refunds (
    idempotency_key TEXT PRIMARY KEY,
    checkout_id TEXT NOT NULL REFERENCES test_checkouts (id),
    amount INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

-- Direct debit collected by the provider: the member's customer there (one per provider), and
-- whether the site gives the credits at once (the default) or only once the money is collected.
CREATE TABLE provider_customers (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    PRIMARY KEY (user_id, provider)
);
ALTER TABLE sites ADD COLUMN direct_debit_on_collection INTEGER NOT NULL DEFAULT 0;

-- Money after the sale: a paid payment can be refunded in full or charged back (statuses move
-- forward only); `refunded` is the part of the amount that went back or is on its way.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('open', 'pending', 'paid', 'failed', 'canceled', 'expired', 'reversed', 'refunded', 'charged_back'));
ALTER TABLE payments ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0 CHECK (refunded >= 0);

-- Each refund (staff's, one made in the provider's dashboard, a chargeback). `request_key` is
-- the idempotency key: the staff form's key (also sent to the provider) or the provider's own
-- reference, so a repeat is found, never booked twice. A `requested` refund reserves its
-- amount until the provider answers.
CREATE TABLE refunds (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id BIGINT NOT NULL REFERENCES payments (id),
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0),
    credits_taken BIGINT NOT NULL DEFAULT 0,
    credits_spent BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    staff_id BIGINT REFERENCES users (id),
    request_key TEXT NOT NULL UNIQUE,
    provider_refund_id TEXT,
    note_sent_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX refunds_payment ON refunds (payment_id, id);
CREATE INDEX refunds_state ON refunds (state, updated_at);

-- A chargeback stops card and direct-debit payments until staff lift it.
ALTER TABLE users ADD COLUMN payments_blocked BOOLEAN NOT NULL DEFAULT FALSE;

-- The test provider refunds and charges back too: its own records, like a real provider's.
ALTER TABLE test_checkouts ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0;
ALTER TABLE test_checkouts ADD COLUMN charged_back BIGINT NOT NULL DEFAULT 0;
CREATE TABLE test_refunds (
    idempotency_key TEXT PRIMARY KEY,
    checkout_id TEXT NOT NULL REFERENCES test_checkouts (id),
    amount BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Direct debit collected by the provider: the member's customer there (one per provider), the
-- order's mandate, and whether the site gives the credits at once (the default) or only once
-- the money is collected.
CREATE TABLE provider_customers (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    PRIMARY KEY (user_id, provider)
);
ALTER TABLE direct_debits ADD COLUMN mandate_id TEXT;
ALTER TABLE sites ADD COLUMN direct_debit_on_collection BOOLEAN NOT NULL DEFAULT FALSE;

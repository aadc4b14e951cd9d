-- Buying credits (SPEC §1–4, §8, §9): payments through a provider, discount codes and their
-- once-per-member redemptions, direct debit with an SMS code, and the built-in test provider's
-- own records. Credits of a paid payment are booked in the ledger as `payment:{id}`, in the
-- same transaction that marks it paid and makes the member premium.
-- SQLite keeps booleans as INTEGER 0/1 (see the first migration).

-- Welcome discount for new non-paid members: percentage and hours after signup (0 = none).
ALTER TABLE sites ADD COLUMN welcome_discount_percent INTEGER NOT NULL DEFAULT 25;
ALTER TABLE sites ADD COLUMN welcome_discount_hours INTEGER NOT NULL DEFAULT 48;
-- Direct debits per member per calendar month, in minor units (0 = no limit).
ALTER TABLE sites ADD COLUMN direct_debit_monthly_limit INTEGER NOT NULL DEFAULT 15000;
-- A bundle for one country (in its currency); NULL: for countries without their own bundles.
ALTER TABLE credit_packs ADD COLUMN country TEXT;
-- Set when a direct debit was reversed: no more direct debits for this member.
ALTER TABLE users ADD COLUMN direct_debit_blocked INTEGER NOT NULL DEFAULT 0;

CREATE TABLE discount_codes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    percentage INTEGER NOT NULL CHECK (percentage BETWEEN 1 AND 90),
    -- Orders below this list price (minor units) get no discount.
    minimum_order INTEGER NOT NULL DEFAULT 0,
    -- Only for buyers in this country; NULL: everywhere.
    country TEXT,
    active INTEGER NOT NULL DEFAULT 1,
    expires_at INTEGER,
    UNIQUE (site_id, code)
);

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
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'paid', 'failed', 'canceled', 'expired', 'reversed')),
    discount_code TEXT,
    discount_percent INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- When the provider was last asked (the recovery job asks again after a while).
    checked_at INTEGER NOT NULL,
    paid_at INTEGER,
    receipt_sent_at INTEGER,
    UNIQUE (provider, provider_id)
);
CREATE INDEX payments_user ON payments (user_id, id);
CREATE INDEX payments_open ON payments (status, checked_at);

-- A discount code (also TIMEBONUS25 and WELCOME) once per member: taken when a checkout starts,
-- given back when that payment fails.
CREATE TABLE discount_redemptions (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    payment_id INTEGER NOT NULL REFERENCES payments (id),
    PRIMARY KEY (user_id, code)
);

-- A direct-debit order waiting for its SMS code; the code is stored hashed.
CREATE TABLE direct_debits (
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
    payment_id INTEGER REFERENCES payments (id)
);
CREATE INDEX direct_debits_user ON direct_debits (user_id, id);

-- The built-in test provider's side: what its hosted checkout page shows and where it reports.
CREATE TABLE test_checkouts (
    id TEXT PRIMARY KEY,
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    description TEXT NOT NULL,
    method TEXT NOT NULL,
    redirect_url TEXT NOT NULL,
    webhook_url TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

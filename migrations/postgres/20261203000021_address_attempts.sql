-- Counts kept per e-mail address whether or not it has an account here, so that no answer
-- tells which addresses have one: wrong passwords for an address without an account (the same
-- lockout an account has: five, then 15 minutes) and password-reset mails asked for an address
-- (three a day). Keyed by a SHA-256 of the lower-case address, never the address itself.
CREATE TABLE address_attempts (
    site_id BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    address_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    uses BIGINT NOT NULL,
    since BIGINT NOT NULL,
    locked_until BIGINT,
    PRIMARY KEY (site_id, address_hash, kind)
);
CREATE INDEX address_attempts_since ON address_attempts (since);

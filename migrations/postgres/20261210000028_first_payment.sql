-- A site may ask members to confirm their address before their first payment (card, iDEAL…);
-- direct debit always asks it.
ALTER TABLE sites ADD COLUMN first_payment_needs_confirmed_address BOOLEAN NOT NULL DEFAULT FALSE;

-- Every ledger row names what caused it (a reference is never NULL) and a reference is booked
-- once: a repeated booking is a quiet no-op. The ledger is append-only.
UPDATE credit_ledger SET reference = reason || ':ledger:' || id WHERE reference IS NULL;
ALTER TABLE credit_ledger ALTER COLUMN reference SET NOT NULL;
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_reason_reference_key;
ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_reference_key UNIQUE (reference);

CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'credit_ledger is append-only';
END;
$$;
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE OR DELETE ON credit_ledger
    FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();

-- Rate-limit counts shared by every node (one row per limit and address or member, counted in
-- fixed windows). Unlogged: counters need no crash safety, and skip the write-ahead log.
CREATE UNLOGGED TABLE rate_counters (
    name TEXT NOT NULL,
    subject TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    hits BIGINT NOT NULL,
    PRIMARY KEY (name, subject)
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);

-- Every node reloads its site settings when they change, whoever changed them (staff pages, a
-- script, psql): statement triggers announce it on the channel the nodes listen to.
CREATE FUNCTION vonk_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('vonk_settings', TG_TABLE_NAME);
    RETURN NULL;
END;
$$;
CREATE TRIGGER companies_changed AFTER INSERT OR UPDATE OR DELETE ON companies FOR EACH STATEMENT EXECUTE FUNCTION vonk_settings_changed();
CREATE TRIGGER sites_changed AFTER INSERT OR UPDATE OR DELETE ON sites FOR EACH STATEMENT EXECUTE FUNCTION vonk_settings_changed();
CREATE TRIGGER credit_packs_changed AFTER INSERT OR UPDATE OR DELETE ON credit_packs FOR EACH STATEMENT EXECUTE FUNCTION vonk_settings_changed();

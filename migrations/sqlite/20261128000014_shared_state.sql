-- Rate-limit counts shared by every node (PostgreSQL). A SQLite database serves one node, which counts in
-- memory; the table keeps both schemas the same.
CREATE TABLE rate_counters (
    name TEXT NOT NULL,
    subject TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY (name, subject)
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);

-- On PostgreSQL a member's chat send becomes one function call (one round trip). SQLite runs
-- in the server's process, where a statement costs no round trip: the send stays statement by
-- statement there, and this migration changes nothing.
SELECT 1;

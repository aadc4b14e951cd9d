-- PostgreSQL's chat sends keep its member-cache triggers silent and announce their members in
-- the chat signal. SQLite's triggers write to `member_changes`, which one node reads without
-- notifications: nothing changes here, and both schemas keep the same list of migrations.
SELECT 1;

-- Staff roles: admin, support, moderator, finance, operator (domain::staff::StaffRole), one bit
-- each in `staff_roles` (admin 1, support 2, moderator 4, finance 8, operator 16); 0 is a member.
-- Staff of the old single role become admins, operators keep their role. Staff and operators are
-- not members others can find.
ALTER TABLE users ADD COLUMN staff_roles INTEGER NOT NULL DEFAULT 0;
UPDATE users SET staff_roles = (CASE WHEN role = 'staff' THEN 1 ELSE 0 END) | (CASE WHEN operator <> 0 THEN 16 ELSE 0 END)
    WHERE role = 'staff' OR operator <> 0;
UPDATE profiles SET searchable = 0 WHERE user_id IN (SELECT id FROM users WHERE staff_roles <> 0);
ALTER TABLE users DROP COLUMN role;
ALTER TABLE users DROP COLUMN operator;

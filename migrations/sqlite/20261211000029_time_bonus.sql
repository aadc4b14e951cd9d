-- The time bonus becomes a site setting (percentage, hours; 0 % is off), beside the welcome
-- discount. Where the welcome discount was as good as the time bonus, the time bonus's "only the
-- first hours" was untrue: it is switched off there (members get the same discount, for the
-- welcome discount's hours, without a false deadline).
ALTER TABLE sites ADD COLUMN time_bonus_percent INTEGER NOT NULL DEFAULT 25;
ALTER TABLE sites ADD COLUMN time_bonus_hours INTEGER NOT NULL DEFAULT 4;
UPDATE sites SET time_bonus_percent = 0
 WHERE welcome_discount_percent > 0 AND welcome_discount_hours > 0
   AND (welcome_discount_percent >= 25 OR welcome_discount_hours <= 4);

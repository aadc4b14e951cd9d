-- Photos (SPEC §3 main_image, §9 limits): the member's chosen main photo, review data for the
-- staff moderation queue, and the last profile a member opened (SPEC §3 chat state).

-- The member's choice, whatever its status; profiles.main_photo / main_thumb hold what others
-- see (set only while that photo is active), as paths under /media/.
ALTER TABLE profiles ADD COLUMN main_photo_id BIGINT;
UPDATE profiles SET main_photo = 'public/' || main_photo WHERE main_photo IS NOT NULL AND main_photo NOT LIKE 'public/%' AND main_photo NOT LIKE 'photos/%';
UPDATE profiles SET main_thumb = 'public/' || main_thumb WHERE main_thumb IS NOT NULL AND main_thumb NOT LIKE 'public/%' AND main_thumb NOT LIKE 'photos/%';

ALTER TABLE photos ADD COLUMN width BIGINT NOT NULL DEFAULT 0;
ALTER TABLE photos ADD COLUMN height BIGINT NOT NULL DEFAULT 0;
ALTER TABLE photos ADD COLUMN reviewed_by BIGINT;
ALTER TABLE photos ADD COLUMN reviewed_at BIGINT;
-- The moderation queue: oldest photo under inspection first.
CREATE INDEX photos_queue ON photos (status, id);

ALTER TABLE users ADD COLUMN last_opened_profile BIGINT;
ALTER TABLE users ADD COLUMN last_opened_at BIGINT;

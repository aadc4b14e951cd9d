-- Chat photos in the moderation queue (`server::moderation`, `/staff/chat-photos`): a share of
-- members' chat photos (`sites.chat_photo_review_percent`: 0 none, 100 all), and every photo a
-- classifier flags, wait for staff. `messages.photo_review`: `waiting` (the recipient sees it
-- meanwhile), `hidden` (not until approved; `sites.chat_photo_hide_waiting` at the send),
-- then `approved` or `rejected` (with `photo_reason`); `photo_score` is a classifier's. The same
-- classifier's view of a new profile photo (`photos.review_score`, `review_reason`) sorts the
-- profile-photo queue.
ALTER TABLE sites ADD COLUMN chat_photo_review_percent BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sites ADD COLUMN chat_photo_hide_waiting BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE messages ADD COLUMN photo_review TEXT;
ALTER TABLE messages ADD COLUMN photo_reason TEXT;
ALTER TABLE messages ADD COLUMN photo_score BIGINT;
CREATE INDEX messages_photo_review ON messages (photo_review) WHERE photo_review IS NOT NULL;
ALTER TABLE photos ADD COLUMN review_score BIGINT;
ALTER TABLE photos ADD COLUMN review_reason TEXT;

-- Profile texts wait for review (`domain::moderation`): `about` stays the text others see (the one
-- approved last); a changed text waits in `about_draft` until staff approve it (it becomes
-- `about`) or turn it down (it stays the member's draft, with the reason, and is never shown).
-- `about_score` is the classifier's, when one pre-sorts the queue.
ALTER TABLE profiles ADD COLUMN about_draft TEXT;
ALTER TABLE profiles ADD COLUMN about_status TEXT;
ALTER TABLE profiles ADD COLUMN about_reason TEXT;
ALTER TABLE profiles ADD COLUMN about_changed_at INTEGER;
ALTER TABLE profiles ADD COLUMN about_score INTEGER;
CREATE INDEX profiles_text_queue ON profiles (site_id, about_status, about_changed_at);

-- What the chat does with contact details in members' messages, per kind (JSON: phone, email,
-- web, messenger → allow | mask | refuse; a kind not named is masked), set by staff.
ALTER TABLE sites ADD COLUMN contact_rules TEXT NOT NULL DEFAULT '{}';

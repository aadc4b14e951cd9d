-- Spam held back: thresholds per site (JSON: recipients, window_minutes, similarity; a field
-- not named takes its default), and messages held for staff review (not delivered, not
-- charged until released). A held-for-review message is also `held`, so it stays out of the
-- recipient's sight like a message waiting for a confirmation.
ALTER TABLE sites ADD COLUMN spam_rules TEXT NOT NULL DEFAULT '{}';
ALTER TABLE messages ADD COLUMN review INTEGER NOT NULL DEFAULT 0;
-- The review list and a member's recent first messages.
CREATE INDEX messages_review ON messages (review, sender_id) WHERE review = 1;
CREATE INDEX conversations_started_by ON conversations (started_by, created_at);

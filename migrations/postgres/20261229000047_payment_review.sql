-- Payments waiting for review (`server::fraud::payment_gate`): from the site's review score, a
-- member's checkout waits (nothing is charged) until staff allowed their payments
-- (`users.payment_review`: `waiting`, then `cleared`; with the score and moment it was asked).
ALTER TABLE sites ADD COLUMN payment_review_score BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN payment_review TEXT;
ALTER TABLE users ADD COLUMN payment_review_at BIGINT;
ALTER TABLE users ADD COLUMN payment_review_score BIGINT;
CREATE INDEX users_payment_review ON users (site_id, payment_review);

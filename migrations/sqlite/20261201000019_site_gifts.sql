-- The gifts a site offers in its chats (JSON list of gift codes; empty: all of them), set by staff.
ALTER TABLE sites ADD COLUMN gifts TEXT NOT NULL DEFAULT '[]';

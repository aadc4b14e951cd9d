-- Why a member left (optional, for the team; removed with the rest at purge time).
ALTER TABLE users ADD COLUMN delete_reason TEXT;

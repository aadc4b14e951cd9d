-- Photos are stored a second time as WebP (full and thumbnail, keys `….webp` beside the JPEGs).
-- Photos stored before have no copies until the hourly housekeeping has made them.
ALTER TABLE photos ADD COLUMN webp INTEGER NOT NULL DEFAULT 0;

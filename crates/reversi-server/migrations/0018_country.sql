-- The country a player names on their profile (issue 53), shown as a flag beside the name: an
-- ISO 3166-1 alpha-2 code (`reversi_site::country`), NULL when none was named.
ALTER TABLE users ADD COLUMN country TEXT;

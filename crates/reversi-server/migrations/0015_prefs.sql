-- Settings that follow an account from browser to browser (issue 53): the colour scheme, the
-- board and discs, coordinates, sounds and the low-time tick, animation speed, zen mode, as the
-- JSON of `reversi_site_api::Prefs` (checked by the server before it is stored).
ALTER TABLE users ADD COLUMN prefs TEXT;

-- As sqlite/015: rebuys, add-ons, re-entries and scheduled tournaments.
ALTER TABLE tournaments ADD COLUMN addon_price BIGINT NOT NULL DEFAULT 0 CHECK (addon_price >= 0);
ALTER TABLE tournament_entries ADD COLUMN rebuys INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0);
ALTER TABLE tournament_entries ADD COLUMN addons INTEGER NOT NULL DEFAULT 0
    CHECK (addons IN (0, 1));
ALTER TABLE tournament_entries ADD COLUMN reentries INTEGER NOT NULL DEFAULT 0
    CHECK (reentries >= 0);

-- Scheduled tournaments: when one starts by itself (unix time), the Discord Scheduled Event
-- that announces it, and when its players were reminded (once, even across a restart).
ALTER TABLE tournaments ADD COLUMN starts_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN event_id BIGINT;
ALTER TABLE tournaments ADD COLUMN reminded_at DOUBLE PRECISION;

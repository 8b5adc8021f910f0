-- Rebuys, add-ons and re-entries (issue 38): each one moves chips from the player's balance
-- (a bot's from the house) into the tournament's escrow with a 'buy-in' entry noted
-- "tournament N rebuy" / "add-on" / "re-entry". Each entry row counts them, so while a
-- tournament is open its escrow holds
--   buy_in * (entrants + rebuys + reentries) + addon_price * addons
-- (audit() checks it), a cancellation refunds each entrant what they paid, and a finished
-- tournament's net for a person is their prize minus all of it.
ALTER TABLE tournaments ADD COLUMN addon_price INTEGER NOT NULL DEFAULT 0 CHECK (addon_price >= 0);
ALTER TABLE tournament_entries ADD COLUMN rebuys INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0);
ALTER TABLE tournament_entries ADD COLUMN addons INTEGER NOT NULL DEFAULT 0
    CHECK (addons IN (0, 1));
ALTER TABLE tournament_entries ADD COLUMN reentries INTEGER NOT NULL DEFAULT 0
    CHECK (reentries >= 0);

-- Scheduled tournaments: when one starts by itself (unix time), the Discord Scheduled Event
-- that announces it, and when its players were reminded (once, even across a restart).
ALTER TABLE tournaments ADD COLUMN starts_at REAL;
ALTER TABLE tournaments ADD COLUMN event_id INTEGER;
ALTER TABLE tournaments ADD COLUMN reminded_at REAL;

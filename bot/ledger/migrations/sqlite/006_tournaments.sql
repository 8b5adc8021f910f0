-- Tournaments: everyone pays the same buy-in into the tournament's escrow, and the prize pool
-- is paid out of it when the places are decided. The chips played at tournament tables are
-- not in the ledger (they are play chips of the tournament), only the buy-ins are.
--
-- A tournament's escrow is an 'escrow' account with table_id = -(tournament id), user_id 0
-- and bot_name '': table ids are Discord channel ids (positive), so no table's escrow is ever
-- one of these; its chips always equal buy_in times the entrants while the tournament is open
-- (registering or running), and 0 once it is finished or cancelled (audit() checks both).
-- Entries keep using the existing reasons: 'buy-in' (register), 'refund' (unregister,
-- cancel, recover) and 'cash-out' (a prize), each noted with the tournament's id.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    buy_in      INTEGER NOT NULL CHECK (buy_in >= 0),
    status      TEXT    NOT NULL DEFAULT 'registering'
                CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    settings    TEXT    NOT NULL,  -- a JSON object, the runtime's settings
    account_id  INTEGER REFERENCES accounts (id),  -- the escrow, set once it is opened
    created_at  REAL    NOT NULL,
    started_at  REAL,
    finished_at REAL
);
CREATE INDEX tournaments_open ON tournaments (guild_id)
    WHERE status IN ('registering', 'running');

-- Who entered each tournament, in the order they registered (rowid); place and prize once it
-- is finished. Leaving before the start deletes the row (the buy-in is refunded).
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL DEFAULT 0,
    bot_name      TEXT    NOT NULL DEFAULT '',
    registered_at REAL    NOT NULL,
    place         INTEGER CHECK (place >= 1),
    prize         INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, user_id, bot_name)
);
CREATE INDEX tournament_entries_by_person ON tournament_entries (user_id, tournament_id)
    WHERE bot_name = '';

-- People's tournament record per guild, updated when a tournament they entered finishes.
ALTER TABLE players ADD COLUMN tournaments_played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournaments_cashed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournaments_won INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournament_net INTEGER NOT NULL DEFAULT 0;

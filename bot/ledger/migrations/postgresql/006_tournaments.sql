-- As sqlite/006: tournaments, their entrants, and people's tournament record. A tournament's
-- escrow is an 'escrow' account with table_id = -(tournament id); see the SQLite file.
-- rowid keeps the order entrants registered in, as SQLite's implicit rowid does.

CREATE TABLE tournaments (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    creator_id  BIGINT  NOT NULL,
    buy_in      BIGINT  NOT NULL CHECK (buy_in >= 0),
    status      TEXT    NOT NULL DEFAULT 'registering'
                CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    settings    TEXT    NOT NULL,
    account_id  BIGINT  REFERENCES accounts (id),
    created_at  DOUBLE PRECISION NOT NULL,
    started_at  DOUBLE PRECISION,
    finished_at DOUBLE PRECISION
);
CREATE INDEX tournaments_open ON tournaments (guild_id)
    WHERE status IN ('registering', 'running');

CREATE TABLE tournament_entries (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id),
    user_id       BIGINT  NOT NULL DEFAULT 0,
    bot_name      TEXT    NOT NULL DEFAULT '',
    registered_at DOUBLE PRECISION NOT NULL,
    place         BIGINT  CHECK (place >= 1),
    prize         BIGINT  NOT NULL DEFAULT 0 CHECK (prize >= 0),
    rowid         BIGINT  GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (tournament_id, user_id, bot_name)
);
CREATE INDEX tournament_entries_by_person ON tournament_entries (user_id, tournament_id)
    WHERE bot_name = '';

ALTER TABLE players ADD COLUMN tournaments_played BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournaments_cashed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournaments_won BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN tournament_net BIGINT NOT NULL DEFAULT 0;

-- Chips live in accounts: a person's balance, a guild's house (funds bots, may go negative)
-- and escrow (a stack at a table, owned by a person or a bot). Every change of an account's
-- chips is an append-only entry; transfers are two entries that sum to zero, grants one.

CREATE TABLE accounts (
    id        INTEGER PRIMARY KEY,
    kind      TEXT    NOT NULL CHECK (kind IN ('balance', 'house', 'escrow')),
    table_id  INTEGER NOT NULL DEFAULT 0,   -- escrow only
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL DEFAULT 0,   -- people: balance and their escrow
    bot_name  TEXT    NOT NULL DEFAULT '',  -- bots: their escrow ('' for people)
    chips     INTEGER NOT NULL DEFAULT 0,
    CHECK (kind = 'house' OR chips >= 0),
    UNIQUE (kind, table_id, guild_id, user_id, bot_name)
);

CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    table_id    INTEGER NOT NULL,
    hand_number INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    status      TEXT    NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'settled', 'refunded')),
    history     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX hands_running ON hands (table_id) WHERE status = 'running';

-- Start-of-hand stacks: what a hand that never settles goes back to.
CREATE TABLE hand_stacks (
    hand_id    INTEGER NOT NULL REFERENCES hands (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    chips      INTEGER NOT NULL CHECK (chips >= 0),
    PRIMARY KEY (hand_id, account_id)
) WITHOUT ROWID;

CREATE TABLE entries (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    delta      INTEGER NOT NULL CHECK (delta <> 0),
    reason     TEXT    NOT NULL CHECK (reason IN (
                   'grant', 'daily', 'admin', 'buy-in', 'top-up', 'cash-out',
                   'hand result', 'refund')),
    hand_id    INTEGER REFERENCES hands (id),
    note       TEXT,
    created_at REAL    NOT NULL
);

CREATE TRIGGER entries_are_never_updated BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;

CREATE TRIGGER entries_are_never_deleted BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;

-- People, per guild: display name, daily bonus clock and lifetime stats.
CREATE TABLE players (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    last_daily_at REAL,
    hands_played  INTEGER NOT NULL DEFAULT 0,
    hands_won     INTEGER NOT NULL DEFAULT 0,
    showdowns_won INTEGER NOT NULL DEFAULT 0,
    net_chips     INTEGER NOT NULL DEFAULT 0,
    biggest_pot   INTEGER NOT NULL DEFAULT 0,
    vpip_hands    INTEGER NOT NULL DEFAULT 0,
    pfr_hands     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

-- Who was dealt into each settled hand and how it went for them.
CREATE TABLE hand_players (
    hand_id      INTEGER NOT NULL REFERENCES hands (id),
    user_id      INTEGER NOT NULL DEFAULT 0,
    bot_name     TEXT    NOT NULL DEFAULT '',
    name         TEXT    NOT NULL,
    net          INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    showdown_won INTEGER NOT NULL CHECK (showdown_won IN (0, 1)),
    vpip         INTEGER NOT NULL CHECK (vpip IN (0, 1)),
    pfr          INTEGER NOT NULL CHECK (pfr IN (0, 1)),
    pot_won      INTEGER NOT NULL CHECK (pot_won >= 0),
    PRIMARY KEY (hand_id, user_id, bot_name)
);
CREATE INDEX hand_players_by_person ON hand_players (user_id, hand_id) WHERE bot_name = '';

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT    NOT NULL  -- a JSON object
);

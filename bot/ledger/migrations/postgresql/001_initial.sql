-- The same schema as sqlite/001_initial.sql, in PostgreSQL's types: ids and chips are BIGINT
-- (Discord ids pass 2^31), times DOUBLE PRECISION (Unix seconds), and the append-only rule on
-- entries is a trigger function. Comments on the meaning of each table are in the SQLite file.

CREATE TABLE accounts (
    id        BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind      TEXT    NOT NULL CHECK (kind IN ('balance', 'house', 'escrow')),
    table_id  BIGINT  NOT NULL DEFAULT 0,
    guild_id  BIGINT  NOT NULL,
    user_id   BIGINT  NOT NULL DEFAULT 0,
    bot_name  TEXT    NOT NULL DEFAULT '',
    chips     BIGINT  NOT NULL DEFAULT 0,
    CHECK (kind = 'house' OR chips >= 0),
    UNIQUE (kind, table_id, guild_id, user_id, bot_name)
);

CREATE TABLE hands (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    table_id    BIGINT  NOT NULL,
    hand_number BIGINT  NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    status      TEXT    NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'settled', 'refunded')),
    history     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX hands_running ON hands (table_id) WHERE status = 'running';

CREATE TABLE hand_stacks (
    hand_id    BIGINT NOT NULL REFERENCES hands (id),
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    chips      BIGINT NOT NULL CHECK (chips >= 0),
    PRIMARY KEY (hand_id, account_id)
);

CREATE TABLE entries (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT  NOT NULL REFERENCES accounts (id),
    delta      BIGINT  NOT NULL CHECK (delta <> 0),
    reason     TEXT    NOT NULL CHECK (reason IN (
                   'grant', 'daily', 'admin', 'buy-in', 'top-up', 'cash-out',
                   'hand result', 'refund')),
    hand_id    BIGINT  REFERENCES hands (id),
    note       TEXT,
    created_at DOUBLE PRECISION NOT NULL
);

CREATE FUNCTION entries_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only';
END;
$$;

CREATE TRIGGER entries_are_never_changed BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION entries_are_append_only();
CREATE TRIGGER entries_are_never_truncated BEFORE TRUNCATE ON entries
    FOR EACH STATEMENT EXECUTE FUNCTION entries_are_append_only();

CREATE TABLE players (
    guild_id      BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    name          TEXT    NOT NULL,
    created_at    DOUBLE PRECISION NOT NULL,
    last_daily_at DOUBLE PRECISION,
    hands_played  BIGINT  NOT NULL DEFAULT 0,
    hands_won     BIGINT  NOT NULL DEFAULT 0,
    showdowns_won BIGINT  NOT NULL DEFAULT 0,
    net_chips     BIGINT  NOT NULL DEFAULT 0,
    biggest_pot   BIGINT  NOT NULL DEFAULT 0,
    vpip_hands    BIGINT  NOT NULL DEFAULT 0,
    pfr_hands     BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

-- rowid keeps the order rows were recorded in, as SQLite's implicit rowid does, so that the
-- same query lists a hand's players in the same order on both databases.
CREATE TABLE hand_players (
    hand_id      BIGINT  NOT NULL REFERENCES hands (id),
    user_id      BIGINT  NOT NULL DEFAULT 0,
    bot_name     TEXT    NOT NULL DEFAULT '',
    name         TEXT    NOT NULL,
    net          BIGINT  NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    showdown_won INTEGER NOT NULL CHECK (showdown_won IN (0, 1)),
    vpip         INTEGER NOT NULL CHECK (vpip IN (0, 1)),
    pfr          INTEGER NOT NULL CHECK (pfr IN (0, 1)),
    pot_won      BIGINT  NOT NULL CHECK (pot_won >= 0),
    rowid        BIGINT  GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (hand_id, user_id, bot_name)
);
CREATE INDEX hand_players_by_person ON hand_players (user_id, hand_id) WHERE bot_name = '';

CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    settings TEXT   NOT NULL
);

-- The state of each cash table that outlives the process: who sits where (the chips stay in
-- the seats' escrow accounts), the button, the settings and the bots. Written when it changes,
-- at hand boundaries; read at start-up to open the table again in its channel. A table that
-- closes for good (empty, its channel gone, its server left) deletes its row.

CREATE TABLE table_states (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    state      TEXT    NOT NULL,  -- a JSON object (bot.tables.saved_state)
    saved_at   REAL    NOT NULL
);

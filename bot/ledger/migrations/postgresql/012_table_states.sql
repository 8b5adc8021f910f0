-- As sqlite/012: the state of each cash table that outlives the process.

CREATE TABLE table_states (
    channel_id BIGINT           PRIMARY KEY,
    guild_id   BIGINT           NOT NULL,
    state      TEXT             NOT NULL,
    saved_at   DOUBLE PRECISION NOT NULL
);

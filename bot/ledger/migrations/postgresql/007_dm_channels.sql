-- As sqlite/007: each person's DM channel with the bot, found again after a restart.

CREATE TABLE dm_channels (
    user_id BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL
);

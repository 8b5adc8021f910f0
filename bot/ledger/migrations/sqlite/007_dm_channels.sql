-- Each person's DM channel with the bot, so that after a restart hole cards go straight to it:
-- opening a DM channel is a request against the bot token's global rate limit, and a restart
-- would otherwise open one for every person at every table within the first hand.

CREATE TABLE dm_channels (
    user_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);

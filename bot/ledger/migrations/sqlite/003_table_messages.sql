-- The live table message of each channel, so that after a restart the bot can find the message
-- whose hand it cancelled and say so there (instead of leaving its buttons up).

CREATE TABLE table_messages (
    channel_id INTEGER PRIMARY KEY,
    message_id INTEGER NOT NULL
);

-- As sqlite/003: the live table message of each channel, found again after a restart.

CREATE TABLE table_messages (
    channel_id BIGINT PRIMARY KEY,
    message_id BIGINT NOT NULL
);

-- As sqlite/011: the people who asked to be pinged when it is their turn.

CREATE TABLE turn_pings (
    user_id BIGINT PRIMARY KEY
);

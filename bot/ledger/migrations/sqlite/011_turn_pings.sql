-- The people who asked to be pinged when it is their turn (/notify on); one row each, kept
-- across restarts.

CREATE TABLE turn_pings (
    user_id INTEGER PRIMARY KEY
);

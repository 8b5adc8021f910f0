-- A table runs at most one hand at a time: the index that finds a table's running hand is now
-- unique, so starting a second one fails inside SQLite without a lookup first.

DROP INDEX hands_running;
CREATE UNIQUE INDEX hands_running ON hands (table_id) WHERE status = 'running';

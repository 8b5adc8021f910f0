-- As sqlite/002: a table runs at most one hand at a time, enforced by a unique index.

DROP INDEX hands_running;
CREATE UNIQUE INDEX hands_running ON hands (table_id) WHERE status = 'running';

-- As sqlite/013: the saved state of a running tournament, so that it resumes after a restart.

ALTER TABLE tournaments ADD COLUMN state TEXT;

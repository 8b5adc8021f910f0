-- As sqlite/005: each settled hand's replay record (JSON), NULL for hands settled before.

ALTER TABLE hands ADD COLUMN replay TEXT;

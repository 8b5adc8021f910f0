-- What a replay of a settled hand needs (engine.hand_record.HandRecord as JSON): the start,
-- every card dealt and every action. NULL for hands settled before replays were recorded.

ALTER TABLE hands ADD COLUMN replay TEXT;

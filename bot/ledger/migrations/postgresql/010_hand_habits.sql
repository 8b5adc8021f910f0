-- How each player played each hand, as tracking software counts it (bot.ledger.habits): the
-- chances and actions behind 3-bet %, fold to 3-bet %, c-bet %, aggression factor, WTSD and
-- W$SD. Counted in Python from the hand's replay the first time a figure is asked for, not
-- at settlement (replaying a hand costs about a millisecond): NULL until then. A hand
-- without a replay is counted as zeros (no chances).

ALTER TABLE hand_players ADD COLUMN three_bet_chance INTEGER;
ALTER TABLE hand_players ADD COLUMN three_bet INTEGER;
ALTER TABLE hand_players ADD COLUMN fold_to_three_bet_chance INTEGER;
ALTER TABLE hand_players ADD COLUMN fold_to_three_bet INTEGER;
ALTER TABLE hand_players ADD COLUMN cbet_chance INTEGER;
ALTER TABLE hand_players ADD COLUMN cbet INTEGER;
ALTER TABLE hand_players ADD COLUMN postflop_aggression INTEGER;
ALTER TABLE hand_players ADD COLUMN postflop_calls INTEGER;
ALTER TABLE hand_players ADD COLUMN saw_flop INTEGER;
ALTER TABLE hand_players ADD COLUMN went_to_showdown INTEGER;
ALTER TABLE hand_players ADD COLUMN won_at_showdown INTEGER;
-- The rows still to count, found without reading the others.
CREATE INDEX hand_players_uncounted ON hand_players (hand_id) WHERE saw_flop IS NULL;
-- A server's hands, for its averages and leaderboards.
CREATE INDEX hands_by_guild ON hands (guild_id, id);

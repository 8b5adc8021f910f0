-- Each person's habits (bot.ledger.habits) as running totals beside hands_played, so that
-- /stats and the habit leaderboards read one row a person instead of adding up the hand log:
-- a hand is counted when it settles, its counts stored in its hand_players rows (migration
-- 010's columns, no longer left NULL) and added here in the same statement. habit_hands is
-- the hands counted. The rows an older version counted already are totalled below; those it
-- had not counted yet (saw_flop IS NULL) wait for the operator's `python -m bot
-- backfill-habits`, which counts them and adds them here.

ALTER TABLE players ADD COLUMN habit_hands BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_three_bet_chance BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_three_bet BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_fold_to_three_bet_chance BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_fold_to_three_bet BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_cbet_chance BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_cbet BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_postflop_aggression BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_postflop_calls BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_saw_flop BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_went_to_showdown BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN habit_won_at_showdown BIGINT NOT NULL DEFAULT 0;

UPDATE players SET habit_hands = t.hands,
    habit_three_bet_chance = t.three_bet_chance, habit_three_bet = t.three_bet,
    habit_fold_to_three_bet_chance = t.fold_to_three_bet_chance,
    habit_fold_to_three_bet = t.fold_to_three_bet,
    habit_cbet_chance = t.cbet_chance, habit_cbet = t.cbet,
    habit_postflop_aggression = t.postflop_aggression, habit_postflop_calls = t.postflop_calls,
    habit_saw_flop = t.saw_flop, habit_went_to_showdown = t.went_to_showdown,
    habit_won_at_showdown = t.won_at_showdown
FROM (SELECT h.guild_id, hp.user_id, COUNT(*) AS hands,
             SUM(hp.three_bet_chance) AS three_bet_chance, SUM(hp.three_bet) AS three_bet,
             SUM(hp.fold_to_three_bet_chance) AS fold_to_three_bet_chance,
             SUM(hp.fold_to_three_bet) AS fold_to_three_bet,
             SUM(hp.cbet_chance) AS cbet_chance, SUM(hp.cbet) AS cbet,
             SUM(hp.postflop_aggression) AS postflop_aggression,
             SUM(hp.postflop_calls) AS postflop_calls, SUM(hp.saw_flop) AS saw_flop,
             SUM(hp.went_to_showdown) AS went_to_showdown,
             SUM(hp.won_at_showdown) AS won_at_showdown
      FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
      WHERE hp.bot_name = '' AND hp.saw_flop IS NOT NULL
      GROUP BY h.guild_id, hp.user_id) AS t
WHERE players.guild_id = t.guild_id AND players.user_id = t.user_id;

-- The state of a running tournament that outlives the process: entrants, places of those out,
-- stacks, tables and seats, buttons, the blind level and what is left of it (JSON written by
-- the runtime at hand boundaries, bot.tables.tournament_state). A running tournament with a
-- state opens again at the next start instead of being refunded; NULL until the first save.

ALTER TABLE tournaments ADD COLUMN state TEXT;

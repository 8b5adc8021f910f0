-- Tournament hands are recorded in the hand log like cash hands, for /history, /replay and the
-- hand counts of /stats. Their chips are the tournament's play chips: such a hand moves no
-- account, has no hand_stacks, and its results count in no chip figure (net, biggest pot).
-- NULL for a cash hand.

ALTER TABLE hands ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);

"""How each player of a settled hand played it, counted from its record as tracking software
counts (PokerTracker, Hold'em Manager): the chances and the actions behind 3-bet %, fold to
3-bet %, continuation bet %, aggression factor, WTSD and W$SD (``records.Habits`` has the
definitions of the figures).

Each decision is seen with what was legal at that moment (``HabitCounter`` is shown the hand
after each action): a player who could only call or fold facing an open raise had no chance
to 3-bet. A hand's counts never change once it is settled, so each hand is counted once: the
table runtime counts its hand as it plays it and settles it with the counts; a settlement
without them is counted from its replay (``count_hand``, the stored ``RecordedHand`` of
``engine.hand_record`` played again). The counts go into the hand's ``hand_players`` rows
and are added to each person's running totals in ``players`` (migration 014) in the same
statement, as ``hands_played`` is. ``/stats`` and the habit leaderboards read those totals,
one row a person, never the hand log. Hands settled before that (their counts NULL) are
counted once by the operator's backfill (``uncounted``, ``count_rows``, ``record_counts``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields

from bot.ledger.records import HabitFigure, Habits
from bot.ledger.statements import Row, Script, command, command_many, placeholders, rows
from engine.actions import ActionKind, Street
from engine.hand import Hand, IllegalActionError
from engine.hand_record import RecordedHand
from engine.replay import ScenarioError
from engine.view import ActionRecord

log = logging.getLogger(__name__)

_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE})


@dataclass(slots=True)
class HandHabits:
    """One player's counts in one hand; each ``*_chance`` is 1 when the situation came to
    them (at most once a hand), the field beside it 1 when they took it."""

    three_bet_chance: int = 0
    """Faced the preflop open raise (the only raise so far) with a raise of their own legal."""
    three_bet: int = 0
    """Re-raised it."""
    fold_to_three_bet_chance: int = 0
    """Made the open raise and then faced a re-raise (the 3-bet), as the second raise."""
    fold_to_three_bet: int = 0
    """Folded to it."""
    cbet_chance: int = 0
    """Made the last preflop raise, saw the flop, and nobody had bet the flop when it was
    their turn there first, with a bet legal (checked to, or first to act)."""
    cbet: int = 0
    """Bet then: a continuation bet."""
    postflop_aggression: int = 0
    """Bets and raises on the flop, turn and river."""
    postflop_calls: int = 0
    """Calls on the flop, turn and river."""
    saw_flop: int = 0
    """Still in the hand (all-in included) when the flop was dealt."""
    went_to_showdown: int = 0
    """Still in the hand at a showdown."""
    won_at_showdown: int = 0
    """Went to showdown and took chips from a pot there (a split or side pot counts)."""

    def as_row(self) -> tuple[int, ...]:
        """The counts in the order of ``COLUMNS``."""
        return astuple(self)


COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(HandHabits))
"""The counts' names, which are also their columns in ``hand_players`` (migration 010)."""

TOTALS: tuple[str, ...] = tuple(f"habit_{name}" for name in COLUMNS)
"""The columns of ``players`` that total each count over a person's counted hands (beside
``habit_hands``, the hands counted; migration 014)."""


def count_hand(hand_id: int, replay: str | None, players: int) -> list[HandHabits]:
    """The counts of each of a hand's ``players``, in seat order, from its replay: zeros (no
    chances) for a hand without one, or whose replay cannot be played again (logged), which
    still counts as a hand.

    About 0.3 ms a hand of six (a random strategy's, 15 actions on average, 2-core machine):
    the same order as rendering its history text, so it runs where the settlement does."""
    if replay is not None:
        try:
            seats = count_habits(RecordedHand.from_json(replay))
            if len(seats) != players:
                raise ScenarioError(f"{len(seats)} seats for {players} players")
            return seats
        except (ScenarioError, IllegalActionError) as error:
            log.warning("hand %s is counted as no chances: its replay %s", hand_id, error)
    return [HandHabits() for _ in range(players)]


def count_habits(record: RecordedHand) -> list[HandHabits]:
    """Each seat's counts in the recorded hand, in seat order.

    Raises what ``RecordedHand.steps`` raises for a record that does not fit the rules.
    """
    counter = HabitCounter(len(record.stacks))
    hand: Hand | None = None
    for hand in record.steps():
        counter.saw(hand)
    assert hand is not None
    return counter.counts(hand)


class HabitCounter:
    """Counts a hand's habits while it is played: shown the hand as dealt and after each
    action (``saw``), then asked for the counts once it is over (``counts``).

    The table runtime counts its live hand this way, so that settling a hand needs no replay
    of its record: at 1,000 tables (``benchmarks.tables``) the replay from JSON was 0.63 ms of
    the 4.1 profiled per hand; the backfill counts recorded hands with the same counter
    (``count_habits``)."""

    __slots__ = ("_counter", "_seen")

    def __init__(self, seats: int) -> None:
        self._counter = _Counter(seats)
        self._seen = 0

    def saw(self, hand: Hand) -> None:
        """Take the actions ``hand`` has had since the last look, and note what the player
        to act now may do."""
        history = hand.history
        for action in history[self._seen:]:
            self._counter.take(action)
        self._seen = len(history)
        self._counter.look_ahead(hand)

    def counts(self, hand: Hand) -> list[HandHabits]:
        """Each seat's counts, in seat order, once ``hand`` (the hand ``saw`` was shown) is
        over."""
        result = hand.result
        assert result is not None
        counted = self._counter
        for seat, habits in enumerate(counted.seats):
            habits.saw_flop = int(len(hand.board) >= 3 and seat not in counted.folded_preflop)
            habits.went_to_showdown = int(not result.ended_by_folds and not hand.folded[seat])
            habits.won_at_showdown = int(habits.went_to_showdown and result.won_by(seat) > 0)
        return counted.seats


class _Counter:
    """Walks a hand's actions in order; ``look_ahead`` notes, before each decision, whether
    a raise or a bet is legal to the player about to decide, which ``take`` needs for the
    chances that require it."""

    def __init__(self, seats: int) -> None:
        self.seats = [HandHabits() for _ in range(seats)]
        self.folded_preflop: set[int] = set()
        self.raises = 0
        """Bets and raises so far preflop (the blinds are the first bet, not counted)."""
        self.opener: int | None = None
        self.last_aggressor: int | None = None
        self.flop_bet = False
        self.can_raise = False
        """Whether the player about to decide may bet or raise."""

    def look_ahead(self, hand: Hand) -> None:
        seat = hand.to_act
        if seat is None or hand.is_over:
            return
        street = hand.street
        needed = (street is Street.PREFLOP and self.raises == 1) or (
            street is Street.FLOP and seat == self.last_aggressor and not self.flop_bet)
        self.can_raise = needed and hand.legal_actions().can_bet_or_raise

    def take(self, action: ActionRecord) -> None:
        habits, kind = self.seats[action.seat], action.kind
        aggressive = kind in _AGGRESSIVE
        if action.street is Street.PREFLOP:
            if self.raises == 1 and action.seat != self.opener and self.can_raise:
                habits.three_bet_chance = 1
                habits.three_bet = int(aggressive)
            elif self.raises == 2 and action.seat == self.opener:
                habits.fold_to_three_bet_chance = 1
                habits.fold_to_three_bet = int(kind is ActionKind.FOLD)
            if kind is ActionKind.FOLD:
                self.folded_preflop.add(action.seat)
            if aggressive:
                self.raises += 1
                self.opener = action.seat if self.raises == 1 else self.opener
                self.last_aggressor = action.seat
            return
        if action.street is Street.FLOP and not self.flop_bet:
            if action.seat == self.last_aggressor and self.can_raise:
                habits.cbet_chance = 1
                habits.cbet = int(aggressive)
            self.flop_bet = aggressive
        habits.postflop_aggression += aggressive
        habits.postflop_calls += kind is ActionKind.CALL


BATCH_HANDS = 500
"""The most hands one round of the backfill reads, counts and writes (under a second of
counting at about 1.3 ms a hand, as measured when counting ran on ``/stats``): none holds much
in memory or a long transaction."""


def uncounted() -> Script[list[Row]]:
    """The rows of up to ``BATCH_HANDS`` settled hands not counted yet (settled before habits
    were counted at settlement): ``(hand_id, user_id, bot_name, replay)`` in seat order, hand
    by hand, found through the partial index of the rows not counted."""
    return (yield from rows(
        "SELECT hp.hand_id, hp.user_id, hp.bot_name, h.replay FROM hand_players hp"
        " JOIN hands h ON h.id = hp.hand_id WHERE hp.hand_id IN (SELECT DISTINCT hand_id"
        " FROM hand_players WHERE saw_flop IS NULL ORDER BY hand_id LIMIT ?)"
        " ORDER BY hp.hand_id, hp.rowid",
        BATCH_HANDS,
    ))  # fmt: skip


def count_rows(found: Sequence[Row]) -> list[tuple[object, ...]]:
    """``uncounted``'s rows counted (``count_hand``): ``record_counts``'s arguments."""
    by_hand: dict[int, list[Row]] = {}
    for row in found:
        by_hand.setdefault(row[0], []).append(row)
    counted: list[tuple[object, ...]] = []
    for hand_id, players in by_hand.items():
        seats = count_hand(hand_id, players[0][3], len(players))
        counted += [(*habits.as_row(), hand_id, user_id, bot_name)
                    for habits, (_, user_id, bot_name, _) in zip(seats, players, strict=True)]
    return counted


def record_counts(counted: Sequence[tuple[object, ...]]) -> Script[int]:
    """Store ``count_rows``'s counts in ``hand_players`` and add them to people's totals, for
    the hands still uncounted (another backfill may have counted some meanwhile: their rows
    are locked and looked at again, so that each hand is added once); how many hands."""
    wanted = sorted({int(str(row[-3])) for row in counted})
    found = yield from rows(
        "SELECT hand_id FROM hand_players WHERE saw_flop IS NULL"
        f" AND hand_id IN ({placeholders(len(wanted))})", *wanted, lock=True)
    hand_ids = sorted({int(hand_id) for (hand_id,) in found})
    if not hand_ids:
        return 0
    still = set(hand_ids)
    assignments = ", ".join(f"{name} = ?" for name in COLUMNS)
    yield from command_many(
        f"UPDATE hand_players SET {assignments}"
        " WHERE hand_id = ? AND user_id = ? AND bot_name = ?",
        [row for row in counted if row[-3] in still],
        unnest=f"UPDATE hand_players SET {', '.join(f'{n} = r.{n}' for n in COLUMNS)}"
        f" FROM unnest({'?::int[], ' * len(COLUMNS)}?::bigint[], ?::bigint[], ?::text[])"
        f" AS r({', '.join(COLUMNS)}, hand_id, user_id, bot_name)"
        " WHERE hand_players.hand_id = r.hand_id AND hand_players.user_id = r.user_id"
        " AND hand_players.bot_name = r.bot_name",
    )
    sums = ", ".join(f"SUM(hp.{name}) AS {name}" for name in COLUMNS)
    yield from command(
        f"UPDATE players SET {add_totals('t.hands', 't')} FROM (SELECT h.guild_id, hp.user_id,"
        f" COUNT(*) AS hands, {sums} FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
        f" WHERE hp.bot_name = '' AND hp.hand_id IN ({placeholders(len(hand_ids))})"
        " GROUP BY h.guild_id, hp.user_id) t"
        " WHERE players.guild_id = t.guild_id AND players.user_id = t.user_id",
        *hand_ids,
    )  # fmt: skip
    return len(hand_ids)


def add_totals(hands: str, counts: str) -> str:
    """An SQL assignment list for ``players``: the totals after ``hands`` more counted hands
    (an SQL expression) whose counts are the columns of ``counts`` (a table's name)."""
    return ", ".join([f"habit_hands = habit_hands + {hands}",
                      *(f"{total} = {total} + {counts}.{name}"
                        for total, name in zip(TOTALS, COLUMNS, strict=True))])


def people_habits(guild_id: int | None) -> Script[dict[int, Habits]]:
    """The totals of each person who has played a hand in a guild (``None``: summed over all
    guilds), by user id: one row of ``players`` a person, whatever the length of the hand
    log."""
    guild = "" if guild_id is None else " AND guild_id = ?"
    sums = ", ".join(f"SUM({total})" for total in ("habit_hands", *TOTALS))
    found = yield from rows(
        f"SELECT user_id, {sums} FROM players WHERE hands_played > 0{guild} GROUP BY user_id",
        *([] if guild_id is None else [guild_id]),
    )  # fmt: skip
    return {user_id: Habits(*(int(total) for total in totals)) for user_id, *totals in found}


_RANKED: dict[HabitFigure, tuple[str, str, int]] = {
    "won_at_showdown": ("habit_won_at_showdown", "habit_went_to_showdown", 100),
    "aggression": ("habit_postflop_aggression", "habit_postflop_calls", 1),
}
"""``RANKED_HABITS`` as ``Habits.figure`` defines them, from the totals: (part, whole,
scale). Each is computed in floating point as Python does (``100 * part / whole``, exact
integers then one rounded division), so the values are ``Habits.figure``'s to the last bit."""


def ranked(guild_id: int | None, by: HabitFigure, min_hands: int, page_size: int,
           offset: int) -> Script[list[Row]]:
    """A page of people with ``min_hands`` counted hands and the figure ``by`` defined, in a
    guild (``None``: summed over all), highest first, ties by user id: ``(user_id, name,
    value)``, ranked by the database from the totals."""
    part, whole, scale = _RANKED[by]
    guild = "" if guild_id is None else "WHERE guild_id = ? "
    return (yield from rows(
        f"SELECT user_id, MAX(name), CAST(SUM({part}) AS DOUBLE PRECISION) * {scale}"
        f" / CAST(SUM({whole}) AS DOUBLE PRECISION) AS value FROM players {guild}"
        f"GROUP BY user_id HAVING SUM(habit_hands) >= ? AND SUM({whole}) > 0"
        " ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
        *([] if guild_id is None else [guild_id]), min_hands, page_size, offset,
    ))  # fmt: skip

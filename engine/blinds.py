"""Tournament blind schedules: levels, how long each lasts, and the preset structures.

A tournament ends because the blinds rise: every level costs a bigger share of each stack, so
players must gamble more and the field shrinks. A schedule is a tuple of levels plus a level
length, counted either in minutes (the usual online clock) or in hands (fair to slow tables
and to bots, and what a test can replay exactly). Everything here is arithmetic on the clock
the caller reads; nothing here keeps time.

>>> schedule = preset_schedule("regular", 1000)
>>> schedule.level(0), schedule.length, schedule.unit
(BlindLevel(small_blind=5, big_blind=10, ante=0), 6, <LevelUnit.MINUTES: 'minutes'>)
>>> schedule.level_index(minutes=13.5)
2
>>> schedule.level(2)
BlindLevel(small_blind=15, big_blind=30, ante=0)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum


class ScheduleError(ValueError):
    """A blind schedule that cannot be played; the message is a sentence for a person."""


class LevelUnit(StrEnum):
    """What a level's length counts."""

    MINUTES = "minutes"
    """Levels change on the clock, like most online tournaments."""

    HANDS = "hands"
    """Levels change after a number of hands, whatever the pace of the table."""


MAX_LEVEL_MINUTES = 1440
"""The longest level, in minutes: one day. Anything longer is a typo, not a structure."""

MAX_LEVEL_HANDS = 1000
"""The longest level, in hands."""


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """The forced bets of one level. Checked as part of a :class:`BlindSchedule`."""

    small_blind: int
    """The small blind, in chips."""

    big_blind: int
    """The big blind, in chips; it also sets the minimum bet."""

    ante: int = 0
    """What every player puts in before the cards are dealt; 0 for no ante."""


def _is_int(value: object) -> bool:
    # bool is an int to Python but never a chip count.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """Levels of blinds that each last ``length`` minutes or hands, then stay at the last one.

    Checked when made, so a schedule that exists can be played. Raises
    :class:`ScheduleError` when there are fewer than two levels, when a blind is not a
    positive whole number or the small blind is bigger than the big blind, when the big blind
    does not rise strictly from each level to the next (a schedule that never rises never
    ends a tournament), when an ante is negative or bigger than the big blind, or when the
    length is not 1 to 1440 minutes or 1 to 1000 hands.

    >>> BlindSchedule((BlindLevel(10, 20), BlindLevel(10, 20)), 5, LevelUnit.MINUTES)
    Traceback (most recent call last):
    ...
    engine.blinds.ScheduleError: Level 2 must have a bigger big blind than level 1 (20): \
blinds have to rise.
    """

    levels: tuple[BlindLevel, ...]
    """The levels in order, the first one played from the start."""

    length: int
    """How many minutes or hands (see ``unit``) each level lasts."""

    unit: LevelUnit
    """Whether ``length`` counts minutes or hands."""

    def __post_init__(self) -> None:
        # Accept any sequence of levels, but keep a tuple so the schedule stays hashable.
        object.__setattr__(self, "levels", tuple(self.levels))
        try:
            object.__setattr__(self, "unit", LevelUnit(self.unit))
        except ValueError:
            raise ScheduleError("Levels are counted in minutes or in hands.") from None
        if len(self.levels) < 2:
            raise ScheduleError("A blind schedule needs at least two levels.")
        previous: BlindLevel | None = None
        for number, level in enumerate(self.levels, start=1):
            _check_level(number, level, previous)
            previous = level
        limit = MAX_LEVEL_MINUTES if self.unit is LevelUnit.MINUTES else MAX_LEVEL_HANDS
        if not _is_int(self.length) or not 1 <= self.length <= limit:
            raise ScheduleError(
                f"Each level must last a whole number of {self.unit.value} from 1 to {limit}."
            )

    def level_index(self, *, minutes: float = 0.0, hands: int = 0) -> int:
        """The 0-based level being played after ``minutes`` or ``hands`` since the start.

        Only the argument that matches ``unit`` is read. Past the end of the schedule the
        last level goes on. Raises ``ValueError`` for a negative (or NaN) count.

        >>> schedule = BlindSchedule(
        ...     (BlindLevel(1, 2), BlindLevel(2, 4), BlindLevel(3, 6)), 10, LevelUnit.HANDS)
        >>> schedule.level_index(hands=9), schedule.level_index(hands=10)
        (0, 1)
        >>> schedule.level_index(hands=500)
        2
        """
        elapsed: float = minutes if self.unit is LevelUnit.MINUTES else hands
        if not elapsed >= 0:  # also catches NaN
            raise ValueError(f"{self.unit.value} since the start cannot be {elapsed}")
        last = len(self.levels) - 1
        if elapsed >= self.length * last:
            return last
        return int(elapsed // self.length)

    def level(self, index: int) -> BlindLevel:
        """The level at 0-based ``index``; past the end, the last level.

        Raises ``ValueError`` for a negative index.

        >>> schedule = BlindSchedule((BlindLevel(1, 2), BlindLevel(2, 4)), 5, LevelUnit.HANDS)
        >>> schedule.level(7)
        BlindLevel(small_blind=2, big_blind=4, ante=0)
        """
        if index < 0:
            raise ValueError(f"there is no blind level {index}")
        return self.levels[min(index, len(self.levels) - 1)]

    def next_level_after(self, index: int) -> float | int | None:
        """When level ``index + 1`` starts, in minutes or hands from the start (see ``unit``).

        ``None`` at the last level (and past it): the blinds do not rise any more. Raises
        ``ValueError`` for a negative index.

        >>> schedule = BlindSchedule(
        ...     (BlindLevel(1, 2), BlindLevel(2, 4), BlindLevel(3, 6)), 6, LevelUnit.MINUTES)
        >>> schedule.next_level_after(0), schedule.next_level_after(1)
        (6, 12)
        >>> schedule.next_level_after(2) is None
        True
        """
        if index < 0:
            raise ValueError(f"there is no blind level {index}")
        if index >= len(self.levels) - 1:
            return None
        return self.length * (index + 1)


def _check_level(number: int, level: BlindLevel, previous: BlindLevel | None) -> None:
    """Raise :class:`ScheduleError` unless level ``number`` (1-based) can follow ``previous``."""
    if not isinstance(level, BlindLevel):
        raise ScheduleError(f"Level {number} is not a blind level.")
    small, big, ante = level.small_blind, level.big_blind, level.ante
    if not (_is_int(small) and _is_int(big)) or small < 1 or big < 1:
        raise ScheduleError(f"Level {number} must have blinds that are positive whole numbers.")
    if small > big:
        raise ScheduleError(
            f"Level {number} has a small blind ({small}) bigger than its big blind ({big})."
        )
    if previous is not None and big <= previous.big_blind:
        raise ScheduleError(
            f"Level {number} must have a bigger big blind than level {number - 1} "
            f"({previous.big_blind}): blinds have to rise."
        )
    if not _is_int(ante) or not 0 <= ante <= big:
        raise ScheduleError(f"Level {number} must have an ante from 0 to its big blind ({big}).")


# --- Presets ------------------------------------------------------------------------------

PRESETS = ("turbo", "regular", "deep")
"""Names accepted by :func:`preset_schedule`, fastest first."""

# Starting stack / first big blind: turbo starts at 50 big blinds, regular 100, deep 200.
_STACK_IN_BIG_BLINDS = {"turbo": 50, "regular": 100, "deep": 200}

# Level lengths close to the usual online structures' paces: turbo sit-and-gos play
# 3-minute levels, regular ones 5 to 6, deep ones 10 or more. In hands, about one hand a
# half-minute at a lively table.
_LENGTHS = {
    "turbo": {LevelUnit.MINUTES: 3, LevelUnit.HANDS: 6},
    "regular": {LevelUnit.MINUTES: 6, LevelUnit.HANDS: 10},
    "deep": {LevelUnit.MINUTES: 10, LevelUnit.HANDS: 15},
}

MIN_PRESET_LEVELS = 15
"""A preset has at least this many levels, and goes on until the big blind reaches the
starting stack, where every hand is all-in for a short stack and the end is near."""

MIN_STACK_IN_BIG_BLINDS = 20
"""A preset refuses a starting stack under this many first-level big blinds."""

# Mantissas in tenths: a "nice" number is m / 10 × 10^k for one of these m.
_FIRST_MANTISSAS = (10, 20, 50)  # the first big blind: 2, 5, 10, 20, 50, 100 …
_LADDER_MANTISSAS = (10, 15, 20, 30, 40, 60, 80)  # later big blinds: 100, 150, 200, 300 …
_ANTE_MANTISSAS = (10, 15, 20, 25, 30, 40, 50, 60, 80)  # antes: 10, 15, 20, 25, 30 …
_MIN_RISE = 1.25  # each level's big blind is at least this many times the previous one


def _nice_numbers(mantissas: tuple[int, ...]) -> Iterator[int]:
    """The positive whole numbers m / 10 × 10^k for the ``mantissas`` m, increasing forever."""
    scale = 1
    while True:
        for mantissa in mantissas:
            tenths = mantissa * scale
            if tenths % 10 == 0:
                yield tenths // 10
        scale *= 10


def _nice_at_most(value: int, mantissas: tuple[int, ...]) -> int:
    """The largest nice number not above ``value``, or the smallest nice number if none is."""
    best: int | None = None
    for nice in _nice_numbers(mantissas):
        if nice > value:
            return nice if best is None else best
        best = nice
    raise AssertionError("unreachable: nice numbers go on forever")  # pragma: no cover


def _next_big_blind(big_blind: int) -> int:
    """The first even ladder number at least 1.25 times ``big_blind``.

    Even, so the small blind is exactly half; the ladder is 2, 4, 6, 8, 10, 20, 30, 40, 60,
    80, 100, 150, 200, 300, 400, 600, 800, 1000 … so levels rise 1.25 to 1.5 times, about
    1.4 times on average (10 to 20 is the one doubling).
    """
    for nice in _nice_numbers(_LADDER_MANTISSAS):
        if nice % 2 == 0 and nice >= big_blind * _MIN_RISE:
            return nice
    raise AssertionError("unreachable: nice numbers go on forever")  # pragma: no cover


def first_big_blind(name: str, starting_stack: int) -> int:
    """The first level's big blind of preset ``name`` for this starting stack.

    The stack divided by 50 (turbo), 100 (regular) or 200 (deep), rounded down to 1, 2 or 5
    times a power of ten, and at least 2 so the small blind can be half of it. Raises
    :class:`ScheduleError` for an unknown preset or a stack that is not a positive whole
    number.

    >>> first_big_blind("turbo", 1500), first_big_blind("regular", 1500)
    (20, 10)
    >>> first_big_blind("deep", 100)
    2
    """
    divisor = _STACK_IN_BIG_BLINDS.get(name)
    if divisor is None:
        raise ScheduleError(
            f"There is no blind structure called {name!r}; choose one of {', '.join(PRESETS)}."
        )
    if not _is_int(starting_stack) or starting_stack < 1:
        raise ScheduleError("The starting stack must be a positive whole number of chips.")
    return max(2, _nice_at_most(starting_stack // divisor, _FIRST_MANTISSAS))


def preset_schedule(
    name: str,
    starting_stack: int,
    *,
    unit: LevelUnit = LevelUnit.MINUTES,
    antes_from_level: int | None = None,
) -> BlindSchedule:
    """A standard schedule: ``"turbo"``, ``"regular"`` or ``"deep"`` for this starting stack.

    Rounding, so every number looks like one a card room would print:

    - the first big blind is the stack over 50, 100 or 200 (see :func:`first_big_blind`),
      rounded down to 1, 2 or 5 × 10^k, at least 2;
    - each next big blind is the first even number of the ladder 2, 4, 6, 8, 10, 20, 30, 40,
      60, 80, 100, 150, 200, 300, 400, 600, 800, 1000, 1500 … (1, 1.5, 2, 3, 4, 6, 8 × 10^k)
      that is at least 1.25 times the previous one: about 1.4 times a level;
    - the small blind is half the big blind, rounded down, at least 1;
    - from level ``antes_from_level`` (1-based) on, the ante is an eighth of the big blind
      rounded down to 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k, at least 1.

    There are at least 15 levels, and more until the big blind reaches the starting stack.
    Levels last 3 minutes or 6 hands (turbo), 6 minutes or 10 hands (regular), 10 minutes or
    15 hands (deep).

    Raises :class:`ScheduleError` for an unknown name, a stack that is not a positive whole
    number or is less than 20 first big blinds (so at least 40 chips), or an
    ``antes_from_level`` that is not one of the schedule's levels.

    >>> schedule = preset_schedule("turbo", 1500, antes_from_level=4)
    >>> [level.big_blind for level in schedule.levels[:8]]
    [20, 30, 40, 60, 80, 100, 150, 200]
    >>> [level.ante for level in schedule.levels[:8]]
    [0, 0, 0, 6, 10, 10, 15, 25]
    >>> preset_schedule("deep", 30)
    Traceback (most recent call last):
    ...
    engine.blinds.ScheduleError: A starting stack of 30 chips is too small: it must be at \
least 40 chips, 20 times the first big blind (2).
    """
    first = first_big_blind(name, starting_stack)
    if starting_stack < MIN_STACK_IN_BIG_BLINDS * first:
        raise ScheduleError(
            f"A starting stack of {starting_stack} chips is too small: it must be at least "
            f"{MIN_STACK_IN_BIG_BLINDS * first} chips, {MIN_STACK_IN_BIG_BLINDS} times the "
            f"first big blind ({first})."
        )
    big_blinds = [first]
    while len(big_blinds) < MIN_PRESET_LEVELS or big_blinds[-1] < starting_stack:
        big_blinds.append(_next_big_blind(big_blinds[-1]))
    if antes_from_level is not None and (
        not _is_int(antes_from_level) or not 1 <= antes_from_level <= len(big_blinds)
    ):
        raise ScheduleError(
            f"Antes can start at a level from 1 to {len(big_blinds)} of this schedule."
        )
    levels = tuple(
        BlindLevel(
            small_blind=max(1, big // 2),
            big_blind=big,
            ante=_preset_ante(big) if _antes_at(number, antes_from_level) else 0,
        )
        for number, big in enumerate(big_blinds, start=1)
    )
    return BlindSchedule(levels, _LENGTHS[name][LevelUnit(unit)], LevelUnit(unit))


def _antes_at(number: int, antes_from_level: int | None) -> bool:
    return antes_from_level is not None and number >= antes_from_level


def _preset_ante(big_blind: int) -> int:
    """An eighth of ``big_blind``, rounded down to a nice number, at least 1."""
    eighth = big_blind // 8
    return 1 if eighth < 1 else _nice_at_most(eighth, _ANTE_MANTISSAS)

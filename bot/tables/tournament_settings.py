"""A tournament's settings: buy-in, starting stack, seats, blind structure, payouts, bots.

Checked when made, so settings that exist can be played: every refusal is an
``InvalidTournamentSettings`` (a ``TableError``) with a sentence for the person, and nothing
is created. What can only be checked once the field is known (paying more places than there
are entrants) is checked again when the tournament starts.

>>> settings = TournamentSettings(buy_in=100, starting_stack=1500, seats=6, structure="turbo")
>>> settings.max_entrants, settings.schedule().level(0)
(6, BlindLevel(small_blind=10, big_blind=20, ante=0))
>>> TournamentSettings(buy_in=100, starting_stack=0)
Traceback (most recent call last):
...
bot.tables.errors.InvalidTournamentSettings: The starting stack must be a whole number of \
chips from 1 to 10,000,000.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import tr
from bot.ledger import MAX_CHIPS
from bot.tables.bots import check_level
from bot.tables.errors import InvalidTournamentSettings
from engine.blinds import (
    MIN_STACK_IN_BIG_BLINDS,
    PRESETS,
    BlindSchedule,
    LevelUnit,
    ScheduleError,
    first_big_blind,
    preset_schedule,
)
from engine.payouts import PayoutError, check_payouts, preset_payouts

MIN_SEATS = 2
MAX_SEATS = 9
MAX_STARTING_STACK = 10_000_000
"""The largest starting stack: more is a typo, and stacks must stay far from ``MAX_CHIPS``."""
MAX_ENTRANTS = 180
"""The largest field: 20 tables of 9."""
MAX_LATE_REGISTRATION = 10
"""The last blind level late registration may stay open until."""
MAX_REBUYS = 10
"""The most rebuys one entrant may take."""
MAX_REBUY_LEVELS = 10
"""The last blind level a rebuy period may last until."""
MAX_BUY_IN = 10**12
"""The largest buy-in, so that a full field's prize pool stays an amount the ledger takes
(``MAX_ENTRANTS * MAX_BUY_IN`` is under ``MAX_CHIPS``)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """How a tournament is played. Frozen and checked: see the module's docstring."""

    buy_in: int
    """Chips each entrant pays into the prize pool (0 for a freeroll; bots: the house)."""
    starting_stack: int = 1500
    """Tournament chips each entrant starts with (play chips, not ledger chips)."""
    seats: int = 9
    """Seats per table, 2 to 9."""
    structure: str = "regular"
    """The blind schedule preset: ``"turbo"``, ``"regular"`` or ``"deep"``."""
    unit: LevelUnit = LevelUnit.MINUTES
    """Whether levels last minutes or hands (see ``engine.blinds``)."""
    antes_from_level: int | None = None
    """The first level (1-based) with antes; ``None`` for no antes."""
    payouts: tuple[int, ...] | None = None
    """Percentages of the prize pool, best place first; ``None``: the preset for the field."""
    late_registration: int = 0
    """Joining after the start: players may join until the end of this blind level
    (1 to ``MAX_LATE_REGISTRATION``); 0 (the default) for no late registration."""
    bot_fill: str | None = None
    """A bot level (``"easy"``, ``"medium"``, ``"hard"``, ``"expert"``) whose bots fill the
    empty places at the start (registered and paid by the house); ``None`` for no bots."""
    max_entrants: int | None = None
    """The most players; ``None`` means ``seats`` (a sit-and-go). More than ``seats`` makes
    a multi-table tournament."""
    rebuys: int = 0
    """Rebuys each entrant may take (0 to ``MAX_REBUYS``): each costs the buy-in and gives
    the starting stack, to a player at or below the starting stack or knocked out, during
    the first ``rebuy_levels`` levels."""
    rebuy_levels: int = 3
    """How many blind levels the rebuy period lasts (1 to ``MAX_REBUY_LEVELS``); the add-on
    is offered at its end."""
    addon: bool = False
    """Whether every player still in may take one add-on in the level after the rebuy
    period."""
    addon_price: int | None = None
    """What the add-on costs (filled in: the buy-in); ``None`` without an add-on."""
    addon_chips: int | None = None
    """The add-on's chips (filled in: the starting stack); ``None`` without an add-on."""
    reentry: bool = False
    """Whether a knocked-out player may enter again (a new entry, at the buy-in) while late
    registration is open."""

    def __post_init__(self) -> None:
        if not _is_int(self.buy_in) or not 0 <= self.buy_in <= MAX_BUY_IN:
            raise InvalidTournamentSettings(tr(
                "The buy-in must be a whole number of chips from 0 to {high}.", high=MAX_BUY_IN))
        if not _is_int(self.starting_stack) or not 1 <= self.starting_stack <= MAX_STARTING_STACK:
            raise InvalidTournamentSettings(tr(
                "The starting stack must be a whole number of chips from 1 to {high}.",
                high=MAX_STARTING_STACK))
        if not _is_int(self.seats) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise InvalidTournamentSettings(tr(
                "A tournament table has {low} to {high} seats.", low=MIN_SEATS, high=MAX_SEATS))
        structure = self.structure.strip().lower() if isinstance(self.structure, str) else ""
        if structure not in PRESETS:
            raise InvalidTournamentSettings(tr(
                "Unknown blind structure “{name}”; choose one of {known}.",
                name=str(self.structure)[:20], known=", ".join(PRESETS)))
        object.__setattr__(self, "structure", structure)
        try:
            object.__setattr__(self, "unit", LevelUnit(self.unit))
        except ValueError:
            raise InvalidTournamentSettings(tr(
                "Blind levels last a number of minutes or of hands.")) from None
        self._check_schedule()
        if self.max_entrants is None:
            object.__setattr__(self, "max_entrants", self.seats)
        limit = self.max_entrants
        if not isinstance(limit, int) or isinstance(limit, bool) \
                or not self.seats <= limit <= MAX_ENTRANTS:
            raise InvalidTournamentSettings(tr(
                "A tournament with {seats} seats per table takes {low} to {high} players.",
                seats=self.seats, low=self.seats, high=MAX_ENTRANTS))
        if self.payouts is not None:
            object.__setattr__(self, "payouts", tuple(self.payouts))
            self.check_payouts(self.entrant_limit)
        if self.late_registration is False:  # stored by older versions
            object.__setattr__(self, "late_registration", 0)
        if not _is_int(self.late_registration) \
                or not 0 <= self.late_registration <= MAX_LATE_REGISTRATION:
            raise InvalidTournamentSettings(tr(
                "Late registration lasts 0 (off) to {high} blind levels.",
                high=MAX_LATE_REGISTRATION))
        if self.bot_fill is not None:
            object.__setattr__(self, "bot_fill", check_level(self.bot_fill))
        self._check_rebuys()

    def _check_rebuys(self) -> None:
        if not _is_int(self.rebuys) or not 0 <= self.rebuys <= MAX_REBUYS:
            raise InvalidTournamentSettings(tr(
                "Each player may take 0 to {high} rebuys.", high=MAX_REBUYS))
        if not _is_int(self.rebuy_levels) or not 1 <= self.rebuy_levels <= MAX_REBUY_LEVELS:
            raise InvalidTournamentSettings(tr(
                "The rebuy period lasts 1 to {high} blind levels.", high=MAX_REBUY_LEVELS))
        if not isinstance(self.addon, bool) or not isinstance(self.reentry, bool):
            raise InvalidTournamentSettings(tr("Add-on and re-entry are on or off."))
        if not self.addon:
            if self.addon_price is not None or self.addon_chips is not None:
                raise InvalidTournamentSettings(tr(
                    "An add-on price or stack needs the add-on turned on."))
        else:
            price = self.buy_in if self.addon_price is None else self.addon_price
            chips = self.starting_stack if self.addon_chips is None else self.addon_chips
            if not _is_int(price) or not 0 <= price <= MAX_BUY_IN:
                raise InvalidTournamentSettings(tr(
                    "The add-on costs a whole number of chips from 0 to {high}.",
                    high=MAX_BUY_IN))
            if not _is_int(chips) or not 1 <= chips <= MAX_STARTING_STACK:
                raise InvalidTournamentSettings(tr(
                    "The add-on gives a whole number of chips from 1 to {high}.",
                    high=MAX_STARTING_STACK))
            object.__setattr__(self, "addon_price", price)
            object.__setattr__(self, "addon_chips", chips)
        if self.reentry and not self.late_registration:
            raise InvalidTournamentSettings(tr(
                "Re-entry is open during late registration: turn late registration on too."))

    def _check_schedule(self) -> None:
        first = first_big_blind(self.structure, self.starting_stack)
        least = MIN_STACK_IN_BIG_BLINDS * first
        if self.starting_stack < least:
            raise InvalidTournamentSettings(tr(
                "A starting stack of {stack} chips is too small for the {structure} "
                "structure: it must be at least {least} chips.",
                stack=self.starting_stack, structure=self.structure, least=least))
        if self.antes_from_level is not None and not _is_int(self.antes_from_level):
            raise InvalidTournamentSettings(tr("Antes start at a level number, like 4."))
        try:
            schedule = self.schedule()
        except ScheduleError:
            levels = len(preset_schedule(self.structure, self.starting_stack).levels)
            raise InvalidTournamentSettings(tr(
                "Antes can start at a level from 1 to {levels} of this structure.",
                levels=levels)) from None
        del schedule

    @property
    def entrant_limit(self) -> int:
        """``max_entrants`` as a number (it is filled in when made)."""
        return self.max_entrants if self.max_entrants is not None else self.seats

    @property
    def buys_more(self) -> bool:
        """True when players may pay in again after entering (rebuys, add-on, re-entry)."""
        return bool(self.rebuys or self.addon or self.reentry)

    @property
    def is_multi_table(self) -> bool:
        """True when more players may enter than one table seats."""
        return self.entrant_limit > self.seats

    def schedule(self) -> BlindSchedule:
        """The blind schedule these settings play."""
        return preset_schedule(self.structure, self.starting_stack, unit=self.unit,
                               antes_from_level=self.antes_from_level)

    def percents(self, entrants: int) -> tuple[int, ...]:
        """The payout percentages for a field of ``entrants`` (checked: see
        ``check_payouts``)."""
        return self.check_payouts(entrants)

    def check_payouts(self, entrants: int) -> tuple[int, ...]:
        """The percentages paid to a field of ``entrants``; ``InvalidTournamentSettings`` when
        they do not add up to 100, rise, or pay more places than there are entrants."""
        percents = self.payouts if self.payouts is not None else preset_payouts(max(2, entrants))
        try:
            return check_payouts(percents, entrants)
        except PayoutError:
            pass
        if any(not _is_int(p) or p <= 0 for p in percents) or any(
                later > earlier for earlier, later in itertools.pairwise(percents)):
            raise InvalidTournamentSettings(tr(
                "Payouts are whole percentages above 0, best place first, each no more than "
                "the place above it."))
        total = sum(percents)
        if total != 100:
            raise InvalidTournamentSettings(tr(
                "The payout percentages must add up to 100, not {total}.", total=total))
        raise InvalidTournamentSettings(tr(
            "{places} places are paid but only {players} players can be in this tournament.",
            places=len(percents), players=entrants))

    def to_mapping(self) -> dict[str, Any]:
        """Plain values, as the ledger stores them with the tournament."""
        values = dataclasses.asdict(self)
        values["unit"] = self.unit.value
        values["payouts"] = list(self.payouts) if self.payouts is not None else None
        return values

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> TournamentSettings:
        """Settings from stored values (unknown keys ignored); bad values raise
        ``InvalidTournamentSettings``."""
        known = {field.name for field in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in known})

    def with_changes(self, **changes: Any) -> TournamentSettings:
        """A copy with some settings changed (checked again)."""
        known = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise InvalidTournamentSettings(tr(
                "Unknown setting “{name}”; settings are: {known}.", name=unknown[0],
                known=sorted(known)))
        return dataclasses.replace(self, **changes)

assert MAX_ENTRANTS * MAX_BUY_IN <= MAX_CHIPS

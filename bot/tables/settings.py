"""One table's rules of play: blinds, buy-in range, seats and the clocks.

A server stores its defaults (through the ledger's guild settings) and every new table starts
from them; a table's own settings can then be changed between hands.
"""

from __future__ import annotations

import dataclasses
import math
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import Text, languages, tr
from bot.tables.errors import InvalidSettings

MIN_SEATS = 2
MAX_SEATS = 9
TOURNAMENT_CREATORS = ("managers", "anyone")
"""Who may create tournaments in a server (``TableSettings.tournament_creators``)."""
STRADDLES = ("off", "utg", "button")
"""Who may straddle at cash tables (``TableSettings.straddle``; ``engine.hand.Straddle``)."""
SPECTATOR_DELAYS = ("none", "street", "hand")
SHOW_SECONDS = 5.0
"""How long a player may choose to show their cards (``TableSettings.show_timeout``): the
winner without a showdown, or at showdown with auto-muck off a hand that wins nothing. Long
enough to read the result and press; short, because the hand's result waits for it."""
"""How far behind the play spectators of a live table are (``TableSettings.spectator_delay``)."""


def valid_timezone(name: str) -> bool:
    """True for a time zone ``zoneinfo`` knows (``"UTC"``, ``"Europe/Paris"``)."""
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Blinds in chips, buy-ins in big blinds, clocks in seconds.

    >>> TableSettings().min_buy_in, TableSettings().default_buy_in, TableSettings().max_buy_in
    (800, 2000, 4000)
    >>> TableSettings().with_changes(big_blind=5)
    Traceback (most recent call last):
    ...
    bot.tables.errors.InvalidSettings: The big blind (5) must be at least the small blind (10).
    """

    small_blind: int = 10
    big_blind: int = 20
    ante: int = 0
    min_buy_in_bb: int = 40
    max_buy_in_bb: int = 200
    default_buy_in_bb: int = 100
    max_seats: int = 9
    max_bots: int | None = None
    """Bots a table may seat; ``None`` leaves two seats for people (see ``bot_limit``)."""
    turn_timeout: float = 45.0
    time_bank: float = 30.0
    """Seconds each person may think beyond the turn timer, once, until the bank refills
    (``bot.tables.time_bank``); 0 turns it off. 30 s: a hard decision (a river shove) gets
    more than a minute in all, while a table waits that long only now and then."""
    sit_out_hands: int = 10
    """Hands a person at a cash table may sit out before their seat is cashed out and freed
    for someone who plays; 0 never frees it. 10 hands is about ten minutes at a hand a minute:
    long enough for a break, short enough that a walked-away player does not block a seat
    for the evening."""
    next_hand_delay: float = 5.0
    bot_delay_min: float = 1.0
    bot_delay_max: float = 3.0
    run_it_twice_timeout: float = 15.0
    show_timeout: float = SHOW_SECONDS
    """Seconds a player has to show or muck (``SHOW_SECONDS``); 0 offers no show."""
    auto_muck: bool = True
    """Whether a hand that wins nothing at showdown is mucked unseen, as online sites do by
    default; off, its player is asked to show or muck (``show_timeout`` seconds, then it is
    mucked: no card is shown without its owner's say), as a live player may."""
    language: str = ""
    """The catalog code (``zh_Hans``) of what everyone at the table reads (the table message,
    results); empty follows the server's own Discord language."""
    tournament_creators: str = "managers"
    """Who may create tournaments: ``"managers"`` (members with Manage Server, the default)
    or ``"anyone"``."""
    hints: bool | None = None
    """Whether **My cards** shows a coach's hint (the hand in words, draws, equity); ``None``
    is the default: on at cash tables, off at tournament tables, where help from the bot
    during play would be outside help in a contest."""
    straddle: str = "off"
    """Whether cash tables deal a live straddle of two big blinds: ``"off"``, ``"utg"``
    (the seat after the big blind) or ``"button"`` (a Mississippi straddle). Never at a
    tournament table, nor heads-up."""
    straddle_mandatory: bool = False
    """Whether the straddle is posted every hand (when its seat has chips); otherwise it is
    voluntary, and only a bot with at least ``engine.strategies.STRADDLE_DEPTH`` big blinds
    chooses it."""
    spectator_delay: str = "none"
    """What spectators of the table's live web page see: ``"none"``, each action as it
    happens; ``"street"``, a street once the next one starts (or the hand ends); ``"hand"``,
    only finished hands. A delay keeps a watcher from passing on a hand while it can still be
    played (collusion with a seated friend)."""
    timezone: str = "UTC"
    """The server's time zone (an IANA name, ``Europe/Paris``): the clock times members give
    ``/tournament create start_at`` are read in it."""
    tournament_role: int | None = None
    """A role mentioned in the reminder before a scheduled tournament starts (``None``: only
    its registrants and interested members are mentioned)."""

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "min_buy_in_bb", "max_buy_in_bb",
                     "default_buy_in_bb", "max_seats", "sit_out_hands"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSettings(tr("{setting} must be a whole number, not “{value}”.",
                                         setting=name, value=str(value)[:20]))
        for name in ("turn_timeout", "time_bank", "next_hand_delay", "bot_delay_min",
                     "bot_delay_max", "run_it_twice_timeout", "show_timeout"):
            value = getattr(self, name)
            if (not isinstance(value, int | float) or isinstance(value, bool)
                    or not math.isfinite(value) or value < 0):
                raise InvalidSettings(tr("{setting} must be a number of seconds ≥ 0.",
                                          setting=name))
        if self.sit_out_hands < 0:
            raise InvalidSettings(tr("{setting} must be a whole number ≥ 0.",
                                     setting="sit_out_hands"))
        if self.small_blind < 1:
            raise InvalidSettings(tr("The small blind must be at least 1 chip."))
        if self.big_blind < self.small_blind:
            raise InvalidSettings(tr(
                "The big blind ({big}) must be at least the small blind ({small}).",
                big=self.big_blind, small=self.small_blind))
        if self.ante < 0 or self.ante > self.big_blind:
            raise InvalidSettings(tr("The ante must be between 0 and the big blind."))
        if not 1 <= self.min_buy_in_bb <= self.default_buy_in_bb <= self.max_buy_in_bb:
            raise InvalidSettings(tr(
                "Buy-ins must satisfy 1 ≤ minimum ≤ default ≤ maximum (in big blinds)."))
        if not MIN_SEATS <= self.max_seats <= MAX_SEATS:
            raise InvalidSettings(tr("A table has {low} to {high} seats.", low=MIN_SEATS,
                                     high=MAX_SEATS))
        if self.max_bots is not None and (
                not isinstance(self.max_bots, int) or isinstance(self.max_bots, bool)
                or not 0 <= self.max_bots < self.max_seats):
            raise InvalidSettings(tr(
                "A table of {seats} seats may hold 0 to {bots} bots (one seat at least is for "
                "a person).", seats=self.max_seats, bots=self.max_seats - 1))
        if self.bot_delay_min > self.bot_delay_max:
            raise InvalidSettings(tr("The shortest bot delay cannot exceed the longest."))
        if self.turn_timeout <= 0:
            raise InvalidSettings(tr("The turn timer must be longer than 0 seconds."))
        if self.tournament_creators not in TOURNAMENT_CREATORS:
            raise InvalidSettings(tr(
                "Tournament creators are “managers” or “anyone”, not “{value}”.",
                value=str(self.tournament_creators)[:20]))
        if self.spectator_delay not in SPECTATOR_DELAYS:
            raise InvalidSettings(tr(
                "The spectator delay is “none”, “street” or “hand”, not “{value}”.",
                value=str(self.spectator_delay)[:20]))
        if self.straddle not in STRADDLES:
            raise InvalidSettings(tr(
                "The straddle is “off”, “utg” or “button”, not “{value}”.",
                value=str(self.straddle)[:20]))
        for name in ("straddle_mandatory", "auto_muck"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidSettings(tr("{setting} must be on or off.", setting=name))
        if not isinstance(self.timezone, str) or not valid_timezone(self.timezone):
            raise InvalidSettings(tr("Unknown time zone “{zone}”; write an IANA name like "
                                     "Europe/Paris or America/New_York.",
                                     zone=str(self.timezone)[:40]))
        if self.tournament_role is not None and (
                not isinstance(self.tournament_role, int) or isinstance(self.tournament_role, bool)
                or self.tournament_role < 1):
            raise InvalidSettings(tr("{setting} must be a role.", setting="tournament_role"))
        if self.hints is not None and not isinstance(self.hints, bool):
            raise InvalidSettings(tr("{setting} must be on or off.", setting="hints"))
        if self.language and (not isinstance(self.language, str)
                              or self.language not in languages()):
            raise InvalidSettings(tr("Unknown language “{language}”; choose one of {known}.",
                                     language=str(self.language)[:20], known=list(languages())))

    @classmethod
    def instant(cls, **changes: Any) -> TableSettings:
        """Settings with no waiting between hands or before bot actions, for tests and
        benchmarks; the turn and run-it-twice timers stay short but positive, and no time
        bank lengthens a turn that times out, nor a show window the result."""
        base = {"next_hand_delay": 0.0, "bot_delay_min": 0.0, "bot_delay_max": 0.0,
                "turn_timeout": 5.0, "run_it_twice_timeout": 0.5, "time_bank": 0.0,
                "show_timeout": 0.0}
        return cls.from_mapping({**base, **changes})

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> TableSettings:
        """Build from stored values, ignoring keys that are not settings (so older or newer
        stored mappings still load); bad values raise ``InvalidSettings``."""
        known = {field.name for field in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in known})

    def to_mapping(self) -> dict[str, Any]:
        """The settings as a plain mapping, as stored in the server's settings."""
        return dataclasses.asdict(self)

    def with_changes(self, **changes: Any) -> TableSettings:
        """A copy with some settings changed; unknown names or bad values raise
        ``InvalidSettings`` and leave this object as it was.

        A new buy-in range carries the default buy-in along (clamped into it) unless the
        default is changed too, so any consistent range can be set on its own:

        >>> TableSettings().with_changes(min_buy_in_bb=150, max_buy_in_bb=300).default_buy_in_bb
        150
        """
        known = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise InvalidSettings(tr("Unknown setting “{name}”; settings are: {known}.",
                                     name=unknown[0], known=sorted(known)))
        if "default_buy_in_bb" not in changes and (
                {"min_buy_in_bb", "max_buy_in_bb"} & set(changes)):
            low = changes.get("min_buy_in_bb", self.min_buy_in_bb)
            high = changes.get("max_buy_in_bb", self.max_buy_in_bb)
            if isinstance(low, int) and isinstance(high, int) and low <= high:
                changes["default_buy_in_bb"] = min(max(self.default_buy_in_bb, low), high)
        return dataclasses.replace(self, **changes)

    @property
    def min_buy_in(self) -> int:
        """The smallest buy-in, in chips."""
        return self.min_buy_in_bb * self.big_blind

    @property
    def max_buy_in(self) -> int:
        """The largest buy-in (and the most a top-up may bring the stack to), in chips."""
        return self.max_buy_in_bb * self.big_blind

    @property
    def default_buy_in(self) -> int:
        """The buy-in used when a player does not name one, in chips."""
        return self.default_buy_in_bb * self.big_blind

    def shows_hints(self, tournament: bool) -> bool:
        """Whether a table of this kind shows hints (``hints``, or its default)."""
        return not tournament if self.hints is None else self.hints

    @property
    def bot_limit(self) -> int:
        """How many bots the table may seat: ``max_bots``, or all seats but two (but one bot
        at a heads-up table, for a person to play against)."""
        return self.max_bots if self.max_bots is not None else max(self.max_seats - 2, 1)

    @property
    def blinds_text(self) -> Text:
        """The stakes as players write them, like ``10/20``."""
        if self.ante:
            return tr("{small}/{big} ante {ante}", small=self.small_blind, big=self.big_blind,
                      ante=self.ante)
        return tr("{small}/{big}", small=self.small_blind, big=self.big_blind)


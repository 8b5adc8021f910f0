"""A running tournament's state as it outlives the process: JSON the ledger keeps
(``Ledger.save_tournament_state``), written at the hand boundaries of its tables.

It holds what the ledger does not: who entered (names, bots' levels), the places of those out
(as the busts and late entries that made them, replayed into ``Standings``), every stack, the
tables with their buttons and counts of hands, the seats, and the blind level with the play
time or hands behind it. The buy-ins stay in the tournament's escrow meanwhile.

Each table is kept as of its own last hand boundary: a hand in progress at a stop is as if it
had never been dealt (its stacks are those it started with, and the same button deals again),
while a table that finished a hand since is kept with that hand's result. So the stacks always
add up to the chips issued, and a restored tournament plays on from a state it had.

>>> state = SavedTournamentState(
...     entrants=(SavedEntrant(11, "ann", None), SavedEntrant("Ada", "Ada", "easy")),
...     field=(11, "Ada"), events=(), percents=(100,), level_index=0, hands=3,
...     played_seconds=12.5, started_at=1.0, table_settings=TableSettings(),
...     tables=(KeptTable(100, 1, 3),),
...     seats=(KeptSeat(11, 100, 0, 700, False), KeptSeat("Ada", 100, 1, 900, False)))
>>> SavedTournamentState.from_json(state.to_json()) == state
True
>>> state.standings().remaining
(11, 'Ada')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.tables.saved_state import UnreadableState, _int
from bot.tables.seats import PlayerKey
from bot.tables.settings import TableSettings
from engine.payouts import Standings

FORMAT_VERSION = 1
"""Bumped when the JSON changes meaning; a state of another version is not restored."""

Bust = tuple[tuple[PlayerKey, int], ...]
"""The players one hand knocked out, each with their chips when it started."""
Event = Bust | PlayerKey
"""What changed the standings: a hand's busts, or a late entrant (their key)."""


@dataclass(frozen=True, slots=True)
class SavedEntrant:
    """An entrant: their ledger key, name, a bot's level (``None`` for a person) and what
    they bought after entering."""

    player: PlayerKey
    name: str
    bot_level: str | None
    rebuys: int = 0
    addon: bool = False
    reentries: int = 0


@dataclass(frozen=True, slots=True)
class KeptTable:
    """A table as of its last hand boundary: the button of its last hand played out and the
    hands dealt there (levels by hands count them)."""

    channel_id: int
    button: int | None
    hands_dealt: int


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A player still in: their table, seat and stack as of that table's last boundary."""

    player: PlayerKey
    channel_id: int
    index: int
    stack: int
    sitting_out: bool


@dataclass(frozen=True, slots=True)
class SavedTournamentState:
    """What a running ``_Tournament`` needs to play on (see the module's docstring)."""

    entrants: tuple[SavedEntrant, ...]
    """Every entrant, in the order they entered."""
    field: tuple[PlayerKey, ...]
    """The players seated at the start, in the standings' order."""
    events: tuple[Event, ...]
    """Busts and late entries since the start, in order."""
    percents: tuple[int, ...]
    level_index: int
    hands: int
    """Hands dealt at the table that has dealt the most."""
    played_seconds: float
    """Play time since the start (levels by minutes count it; time stopped is not in it)."""
    started_at: float
    table_settings: TableSettings
    tables: tuple[KeptTable, ...]
    seats: tuple[KeptSeat, ...]
    deciding: tuple[tuple[PlayerKey, int], ...] = ()
    """Knocked out, not placed yet (they may buy back in), each with their chips at the start
    of the hand that knocked them out."""
    pending: tuple[tuple[PlayerKey, int], ...] = ()
    """Chips bought (rebuys, add-ons) not on the player's stack yet."""

    def standings(self) -> Standings[PlayerKey]:
        """The standings as they were saved (the events replayed); ``UnreadableState`` when
        they do not replay, or the players still in are not the players seated."""
        try:
            standings = Standings(self.field)
            for event in self.events:
                if isinstance(event, tuple):
                    standings.bust(event)
                else:
                    standings.enter(event)
        except ValueError as error:
            raise UnreadableState(f"the standings do not replay: {error}") from error
        deciding = {player for player, _ in self.deciding}
        seated = {seat.player for seat in self.seats}
        if set(standings.remaining) != seated | deciding or seated & deciding \
                or standings.is_finished:
            raise UnreadableState("the players still in are not the players seated")
        return standings

    def to_json(self) -> str:
        """The JSON text the ledger keeps (compact)."""
        return json.dumps({
            "version": FORMAT_VERSION,
            "entrants": [[e.player, e.name, e.bot_level, e.rebuys, e.addon, e.reentries]
                         for e in self.entrants],
            "field": list(self.field),
            "events": [[list(pair) for pair in event] if isinstance(event, tuple) else event
                       for event in self.events],
            "percents": list(self.percents),
            "level": self.level_index,
            "hands": self.hands,
            "played": self.played_seconds,
            "started_at": self.started_at,
            "table_settings": self.table_settings.to_mapping(),
            "tables": [[t.channel_id, t.button, t.hands_dealt] for t in self.tables],
            "seats": [[s.player, s.channel_id, s.index, s.stack, s.sitting_out]
                      for s in self.seats],
            "deciding": [list(pair) for pair in self.deciding],
            "pending": [list(pair) for pair in self.pending],
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SavedTournamentState:
        """Read a saved state back; ``UnreadableState`` says why one cannot be restored."""
        try:
            data: dict[str, Any] = json.loads(text)
            if data.get("version") != FORMAT_VERSION:
                raise UnreadableState(f"format version {data.get('version')!r}, "
                                      f"not {FORMAT_VERSION}")
            state = cls(
                entrants=tuple(_entrant(*entrant) for entrant in data["entrants"]),
                field=tuple(_key(player) for player in data["field"]),
                events=tuple(tuple((_key(player), _int(chips)) for player, chips in event)
                             if isinstance(event, list) else _key(event)
                             for event in data["events"]),
                percents=tuple(_int(percent) for percent in data["percents"]),
                level_index=_int(data["level"]),
                hands=_int(data["hands"]),
                played_seconds=float(data["played"]),
                started_at=float(data["started_at"]),
                table_settings=TableSettings.from_mapping(data["table_settings"]),
                tables=tuple(KeptTable(_int(channel), None if button is None else _int(button),
                                       _int(hands)) for channel, button, hands in data["tables"]),
                seats=tuple(KeptSeat(_key(player), _int(channel), _int(index), _int(stack),
                                     bool(out))
                            for player, channel, index, stack, out in data["seats"]),
                deciding=_pairs(data.get("deciding", [])),
                pending=_pairs(data.get("pending", [])),
            )
        except UnreadableState:
            raise
        except Exception as error:  # any malformed field: JSON, keys, types, settings
            raise UnreadableState(f"{type(error).__name__}: {error}") from error
        state._check_seats()
        return state

    def _check_seats(self) -> None:
        tables = {table.channel_id for table in self.tables}
        places = [(seat.channel_id, seat.index) for seat in self.seats]
        players = [seat.player for seat in self.seats]
        if len(tables) != len(self.tables) or len(set(places)) != len(places) \
                or len(set(players)) != len(players):
            raise UnreadableState("a table, seat or player is listed twice")
        for seat in self.seats:
            if seat.channel_id not in tables or seat.stack < 1 \
                    or not 0 <= seat.index < self.table_settings.max_seats:
                raise UnreadableState(f"the seat of {seat.player!r} cannot be taken again")


def _entrant(player: object, name: object, level: object, rebuys: object = 0,
             addon: object = False, reentries: object = 0) -> SavedEntrant:
    """An entrant as saved (states saved before rebuys existed have three fields)."""
    return SavedEntrant(_key(player), str(name), None if level is None else str(level),
                        _int(rebuys), bool(addon), _int(reentries))


def _pairs(values: list[list[object]]) -> tuple[tuple[PlayerKey, int], ...]:
    """``[[player, chips], …]`` as saved."""
    return tuple((_key(player), _int(chips)) for player, chips in values)


def _key(value: object) -> PlayerKey:
    """A ledger key: a person's id or a bot's name."""
    return value if isinstance(value, str) else _int(value)

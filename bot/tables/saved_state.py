"""A cash table's state as it outlives the process: who sits where, with which flags, the
button, the count of hands and the settings, as JSON the ledger keeps (``Ledger.save_table_state``).

Chips are not in it: they stay in the seats' escrow in the ledger, which is what a restored
seat's stack is read from. The state is written at hand boundaries only when it changed, so a
restored table is the table as it stood before the hand a stop interrupted (that hand is
refunded into the stacks, and the same button deals again).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.tables.seats import Seat
from bot.tables.settings import TableSettings

FORMAT_VERSION = 1
"""Bumped when the JSON changes meaning; a state of another version is not restored."""


class UnreadableState(ValueError):
    """A saved state that cannot be restored (malformed, or of another version)."""


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """One seat as saved: its holder (a person's id, or a bot's level and name) and flags."""

    index: int
    name: str
    user_id: int | None
    bot_level: str | None
    sitting_out: bool
    hands_sat_out: int
    timeouts_in_a_row: int
    time_bank_used: float
    straddles: bool = False

    @classmethod
    def of(cls, seat: Seat) -> SavedSeat:
        """The saved form of a seat now."""
        return cls(seat.index, seat.name, seat.user_id,
                   seat.bot.level if seat.bot is not None else None, seat.sitting_out,
                   seat.hands_sat_out, seat.timeouts_in_a_row, seat.time_bank.used,
                   seat.straddles)


@dataclass(frozen=True, slots=True)
class SavedTableState:
    """What a cash table needs to open again: its settings, the button of its last settled
    hand, its count of hands dealt and its seats.

    >>> state = SavedTableState(TableSettings(), 3, 12, ())
    >>> SavedTableState.from_json(state.to_json()) == state
    True
    """

    settings: TableSettings
    button: int | None
    hands_dealt: int
    seats: tuple[SavedSeat, ...]

    @classmethod
    def of(cls, settings: TableSettings, button: int | None, hands_dealt: int,
           seats: Iterable[Seat]) -> SavedTableState:
        """The state of a table between two hands (seats leaving are left out: they are
        cashed out)."""
        return cls(settings, button, hands_dealt,
                   tuple(SavedSeat.of(seat) for seat in seats if not seat.leaving))

    def to_json(self) -> str:
        """The JSON text the ledger keeps (compact, keys in sorted order, so equal states
        give equal texts and an unchanged state is not written again). The settings' part is
        made once per settings value: it was three quarters of this at every hand boundary
        (``dataclasses.asdict``, profiled under ``benchmarks.tables``)."""
        seats = [[seat.index, seat.name, seat.user_id, seat.bot_level, seat.sitting_out,
                  seat.hands_sat_out, seat.timeouts_in_a_row, seat.time_bank_used,
                  seat.straddles]
                 for seat in self.seats]
        return (f'{{"button":{json.dumps(self.button)},"hands_dealt":{self.hands_dealt},'
                f'"seats":{json.dumps(seats, separators=(",", ":"))},'
                f'"settings":{_settings_json(self.settings)},"version":{FORMAT_VERSION}}}')

    @classmethod
    def from_json(cls, text: str) -> SavedTableState:
        """Read a saved state back; ``UnreadableState`` says why one cannot be restored."""
        try:
            data: dict[str, Any] = json.loads(text)
            if data.get("version") != FORMAT_VERSION:
                raise UnreadableState(f"format version {data.get('version')!r}, "
                                      f"not {FORMAT_VERSION}")
            settings = TableSettings.from_mapping(data["settings"])
            button = data["button"]
            seats = tuple(
                SavedSeat(_int(index), str(name), None if user is None else _int(user),
                          None if level is None else str(level), bool(out), _int(sat_out),
                          _int(timeouts), float(bank), bool(straddles))
                for index, name, user, level, out, sat_out, timeouts, bank, straddles
                in data["seats"])
            state = cls(settings, None if button is None else _int(button),
                        _int(data["hands_dealt"]), seats)
        except UnreadableState:
            raise
        except Exception as error:  # any malformed field: JSON, keys, types, settings
            raise UnreadableState(f"{type(error).__name__}: {error}") from error
        indexes = [seat.index for seat in state.seats]
        if len(set(indexes)) != len(indexes) or any(
                not 0 <= index < settings.max_seats for index in indexes):
            raise UnreadableState(f"seats {indexes} do not fit {settings.max_seats} places")
        return state


@functools.lru_cache(maxsize=256)
def _settings_json(settings: TableSettings) -> str:
    """The settings as compact JSON with sorted keys (tables share a few settings values)."""
    return json.dumps(settings.to_mapping(), sort_keys=True, separators=(",", ":"))


def _int(value: object) -> int:
    """An integer field (``bool`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not an integer")
    return value

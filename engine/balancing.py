"""Table balancing in multi-table tournaments: which players move, and which tables close.

As players bust, tables shrink unevenly. Two rules keep a multi-table tournament fair and
short: play on as few tables as the players fit at (so a table is broken, or closed, as soon
as the others can seat its players), and keep the tables within one player of each other (a
short-handed table pays the blinds more often). When a player has to move for balance, the
one who would next be in the big blind moves: everybody pays their share of blinds, and
nobody dodges the big blind by moving.

Tables and players are any hashable ids; this module only plans, the caller seats.

>>> moves, broken = plan_moves({"T1": ["a", "b", "c", "d"], "T2": ["e", "f"]}, 6)
>>> broken
['T2']
>>> [(move.player, move.to_table) for move in moves]
[('e', 'T1'), ('f', 'T1')]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Move:
    """One player to take from one table and seat at another."""

    player: Hashable
    """The player who moves."""

    from_table: Hashable
    """The table the player leaves (broken, or the biggest table)."""

    to_table: Hashable
    """The table the player joins; it has a free seat."""


def tables_needed(players: int, seats_per_table: int) -> int:
    """How many tables ``players`` fit at with ``seats_per_table`` seats each (at least one).

    >>> tables_needed(19, 9), tables_needed(18, 9), tables_needed(0, 9)
    (3, 2, 1)
    """
    return max(1, -(-players // seats_per_table))


def plan_moves(tables: Mapping[T, Sequence[P]], seats_per_table: int) -> tuple[list[Move], list[T]]:
    """The moves that balance ``tables``, and the tables to break (close), in order.

    Each table lists its players in the order they will next be in the big blind (the first
    is the next big blind). First, while the players fit at fewer tables, the tables with the
    fewest players are broken (ties: the last one in mapping order); their players, in listed
    order, each go to the open table with the fewest players then (ties: mapping order).
    Then, while the biggest table has more than one player more than the smallest, the player
    who would next be in the big blind at the biggest table (ties: mapping order) moves to
    the smallest table (ties: mapping order); players just moved to a table are not moved
    again. A moved player joins at the end of their new table's big blind order. No table
    ever goes above ``seats_per_table``, and the plan is the same for the same input.

    Raises ``ValueError`` when ``seats_per_table`` is below 2, a table holds more players
    than that, or a player is listed twice.

    >>> moves, broken = plan_moves({1: ["a", "b", "c", "d", "e"], 2: ["f", "g", "h"]}, 9)
    >>> moves, broken
    ([Move(player='f', from_table=2, to_table=1), Move(player='g', from_table=2, \
to_table=1), Move(player='h', from_table=2, to_table=1)], [2])
    >>> plan_moves({1: ["a", "b", "c", "d", "e"], 2: ["f", "g", "h"]}, 6)
    ([Move(player='a', from_table=1, to_table=2)], [])
    """
    if isinstance(seats_per_table, bool) or not isinstance(seats_per_table, int):
        raise ValueError(f"seats per table must be a whole number, not {seats_per_table!r}")
    if seats_per_table < 2:
        raise ValueError(f"a table needs at least 2 seats, not {seats_per_table}")
    seated: dict[T, list[P]] = {}
    seen: set[P] = set()
    for table, players in tables.items():
        if len(players) > seats_per_table:
            raise ValueError(
                f"table {table!r} has {len(players)} players but only {seats_per_table} seats"
            )
        for player in players:
            if player in seen:
                raise ValueError(f"player {player!r} is listed twice")
            seen.add(player)
        seated[table] = list(players)
    order = {table: index for index, table in enumerate(seated)}
    needed = tables_needed(len(seen), seats_per_table)
    by_size_last_first = sorted(seated, key=lambda table: (len(seated[table]), -order[table]))
    broken = by_size_last_first[: max(0, len(seated) - needed)]
    moves: list[Move] = []
    arrived: dict[T, set[P]] = {table: set() for table in seated}

    def move(player: P, source: T, target: T) -> None:
        seated[source].remove(player)
        seated[target].append(player)
        arrived[target].add(player)
        moves.append(Move(player, source, target))

    open_tables = [table for table in seated if table not in broken]
    for table in broken:
        for player in list(seated[table]):
            move(player, table, min(open_tables, key=lambda other: len(seated[other])))
        del seated[table]
    while seated:
        biggest = max(seated, key=lambda table: (len(seated[table]), -order[table]))
        smallest = min(seated, key=lambda table: len(seated[table]))
        if len(seated[biggest]) - len(seated[smallest]) <= 1:
            break
        candidates = [p for p in seated[biggest] if p not in arrived[biggest]]
        move((candidates or seated[biggest])[0], biggest, smallest)
    return moves, broken

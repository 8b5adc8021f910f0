"""Tournament prizes: payout tables, exact prize amounts, and the places players finish in.

Prize pools are chips, and chips are never created or destroyed, so every amount here is an
integer and the amounts always add up to the pool exactly. Places come from the order players
are knocked out: among players knocked out on the same hand, the one who started the hand
with more chips finishes higher, and players who started it with equal chips share their
places and split those places' prizes.

>>> prizes = prize_amounts(1000, preset_payouts(9))
>>> prizes
(500, 300, 200)
>>> standings = Standings(["ann", "bob", "cid", "dee"])
>>> standings.bust([("dee", 120)])
>>> standings.bust([("bob", 300), ("cid", 300)])
>>> standings.places
{'ann': (1, 1), 'bob': (2, 3), 'cid': (2, 3), 'dee': (4, 4)}
>>> standings.payouts(prizes)
{'ann': 500, 'bob': 250, 'cid': 250, 'dee': 0}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


class PayoutError(ValueError):
    """Payout percentages that cannot be used; the message is a sentence for a person."""


# (largest field, percentages best place first). About 15 to 20 % of a field is paid, a bit
# more in small fields, as sit-and-go and small multi-table structures online usually do.
_PRESET_TABLES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (4, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
    (18, (40, 30, 20, 10)),
    (27, (35, 22, 15, 11, 9, 8)),
    (36, (32, 20, 14, 11, 9, 8, 6)),
    (45, (29, 19, 13, 10, 8, 7, 6, 4, 4)),
    (54, (28, 18, 13, 10, 8, 7, 6, 4, 3, 3)),
    (60, (26, 17, 12, 9, 7, 6, 5, 4, 4, 4, 3, 3)),
)

PRESET_MAX_ENTRANTS = 60
"""The largest field the preset tables are made for; bigger fields get the 60-player table."""


def preset_payouts(entrants: int) -> tuple[int, ...]:
    """The standard percentages of the prize pool for a field of ``entrants``, best first.

    2-4 players: winner takes all; 5-6: two places; 7-10: three; 11-18: four; 19-27: six;
    28-36: seven; 37-45: nine; 46-54: ten; 55-60: twelve. They sum to 100 and never rise.
    Fields above 60 get the 60-player table (pass a bigger structure through
    :func:`check_payouts`). Raises :class:`PayoutError` for fewer than 2 entrants.

    >>> preset_payouts(2), preset_payouts(6), preset_payouts(18)
    ((100,), (65, 35), (40, 30, 20, 10))
    """
    if isinstance(entrants, bool) or not isinstance(entrants, int) or entrants < 2:
        raise PayoutError("A tournament needs at least 2 entrants to pay prizes.")
    for largest, percents in _PRESET_TABLES:
        if entrants <= largest:
            return percents
    return _PRESET_TABLES[-1][1]


def _check_percents(percents: Sequence[int]) -> tuple[int, ...]:
    """The percentages as a tuple; raises :class:`PayoutError` unless they make a payout."""
    result = tuple(percents)
    if not result:
        raise PayoutError("At least one place must be paid.")
    for place, percent in enumerate(result, start=1):
        if isinstance(percent, bool) or not isinstance(percent, int) or percent <= 0:
            raise PayoutError(f"Place {place} must get a whole percentage above 0.")
        if place > 1 and percent > result[place - 2]:
            raise PayoutError(
                f"Place {place} cannot get more ({percent}%) than place {place - 1} "
                f"({result[place - 2]}%)."
            )
    total = sum(result)
    if total != 100:
        raise PayoutError(f"The percentages must add up to 100, not {total}.")
    return result


def check_payouts(percents: Sequence[int], entrants: int) -> tuple[int, ...]:
    """``percents`` as a tuple, once they are known to make a payout for ``entrants`` players.

    Raises :class:`PayoutError` when they do not add up to 100, when one is not a whole
    number above 0, when a place gets more than the place above it, or when more places are
    paid than there are entrants.

    >>> check_payouts([70, 30], 5)
    (70, 30)
    >>> check_payouts([50, 30, 20], 2)
    Traceback (most recent call last):
    ...
    engine.payouts.PayoutError: 3 places are paid but only 2 players entered.
    """
    result = _check_percents(percents)
    if len(result) > entrants:
        raise PayoutError(f"{len(result)} places are paid but only {entrants} players entered.")
    return result


def prize_amounts(pool: int, percents: Sequence[int]) -> tuple[int, ...]:
    """The prize of each paid place, best first, summing exactly to ``pool``.

    Each place gets ``pool × percent // 100``; the chips left over by rounding down (fewer
    than the number of places) go one each to the best places first, so the prizes still
    never rise. Raises :class:`PayoutError` for a negative pool or percentages that
    :func:`check_payouts` would refuse.

    >>> prize_amounts(1001, [50, 30, 20])
    (501, 300, 200)
    >>> prize_amounts(7, [40, 30, 20, 10])
    (3, 3, 1, 0)
    """
    result = _check_percents(percents)
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise PayoutError("The prize pool must be a whole number of chips, 0 or more.")
    prizes = [pool * percent // 100 for percent in result]
    for place in range(pool - sum(prizes)):
        prizes[place] += 1
    return tuple(prizes)


class Standings(Generic[P]):
    """The places of a tournament's players, filled in from the last as players bust.

    ``players`` are all the entrants in seat order (any hashable ids); seat order breaks
    ties in odd chips. Places are pairs ``(best, worst)``: a player alone in a place has
    ``(3, 3)``, two players who tie for third and fourth both have ``(3, 4)``. Raises
    ``ValueError`` for fewer than two players or a player listed twice.

    >>> standings = Standings([1, 2, 3])
    >>> standings.bust([(3, 50), (1, 80)])
    >>> standings.places, standings.is_finished, standings.winner
    ({1: (2, 2), 2: (1, 1), 3: (3, 3)}, True, 2)
    """

    __slots__ = ("_places", "_players")

    def __init__(self, players: Iterable[P]) -> None:
        self._players: tuple[P, ...] = tuple(players)
        if len(set(self._players)) != len(self._players):
            raise ValueError("a player cannot enter a tournament twice")
        if len(self._players) < 2:
            raise ValueError("a tournament needs at least two players")
        self._places: dict[P, tuple[int, int]] = {}

    def enter(self, player: P) -> None:
        """Add a late entrant (late registration), last in seat order, still in.

        The players already out each move one place down, since the new entrant finishes
        above all of them. Raises ``ValueError`` for a player already entered or once the
        tournament is finished.

        >>> standings = Standings(["a", "b", "c"])
        >>> standings.bust([("c", 40)])
        >>> standings.enter("d")
        >>> standings.places, standings.remaining
        ({'c': (4, 4)}, ('a', 'b', 'd'))
        """
        if player in self._players:
            raise ValueError("a player cannot enter a tournament twice")
        if self.is_finished:
            raise ValueError("a finished tournament takes no more players")
        self._players = (*self._players, player)
        self._places = {placed: (best + 1, worst + 1)
                        for placed, (best, worst) in self._places.items()}

    @property
    def players(self) -> tuple[P, ...]:
        """Every entrant, in seat order."""
        return self._players

    @property
    def remaining(self) -> tuple[P, ...]:
        """The players still in, in seat order."""
        return tuple(player for player in self._players if player not in self._places)

    @property
    def is_finished(self) -> bool:
        """Whether every player has a place (one player was left and won)."""
        return len(self._places) == len(self._players)

    @property
    def winner(self) -> P | None:
        """The player in first place, once the tournament is finished."""
        for player, place in self._places.items():
            if place == (1, 1):
                return player
        return None

    @property
    def places(self) -> dict[P, tuple[int, int]]:
        """The ``(best, worst)`` place of every player placed so far, in seat order.

        Places are final once given: a player knocked out now can already be paid.
        """
        return {player: self._places[player] for player in self._players if player in self._places}

    def bust(self, busted: Sequence[tuple[P, int]]) -> None:
        """Place the players knocked out on one hand, each with their chips when it started.

        They take the worst places still open. The one who started the hand with more chips
        places higher; players who started it with equal chips share their places. When one
        player is left, they win (:meth:`finish` is called). An empty sequence changes
        nothing. Raises ``ValueError``, and places nobody, for an unknown player, a player
        already out or listed twice, chips that are not a whole number 0 or more, or a hand
        that would knock out every player still in.

        >>> standings = Standings("ABCDE")
        >>> standings.bust([("A", 100), ("C", 300), ("E", 100)])
        >>> standings.places
        {'A': (4, 5), 'C': (3, 3), 'E': (4, 5)}
        """
        entries = list(busted)
        if not entries:
            return
        left = self.remaining
        seen: set[P] = set()
        for player, chips in entries:
            if player not in left:
                known = player in self._places
                raise ValueError(
                    f"{player!r} is already out" if known else f"{player!r} is not in this event"
                )
            if player in seen:
                raise ValueError(f"{player!r} is listed twice")
            seen.add(player)
            if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
                raise ValueError(f"{player!r} cannot have started the hand with {chips!r} chips")
        if len(entries) >= len(left):
            raise ValueError("one hand cannot knock out every player still in")
        best_open = len(left) - len(entries) + 1
        entries.sort(key=lambda entry: -entry[1])
        start = 0
        while start < len(entries):
            end = start
            while end < len(entries) and entries[end][1] == entries[start][1]:
                end += 1
            place = (best_open + start, best_open + end - 1)
            for player, _ in entries[start:end]:
                self._places[player] = place
            start = end
        if len(left) - len(entries) == 1:
            self.finish(self.remaining[0])

    def finish(self, winner: P) -> None:
        """Give first place to ``winner``, the last player left.

        :meth:`bust` calls it when one player is left, and calling it again for the same
        winner changes nothing. Raises ``ValueError`` when ``winner`` is not the only player
        still in.
        """
        if self._places.get(winner) == (1, 1):
            return
        left = self.remaining
        if left != (winner,):
            if winner not in left:
                raise ValueError(f"{winner!r} is not still in the tournament")
            raise ValueError(f"{len(left)} players are still in; only the last one wins")
        self._places[winner] = (1, 1)

    def payouts(self, prizes: Sequence[int]) -> dict[P, int]:
        """Each placed player's prize, from the prizes of places 1, 2, 3 … (best first).

        Players who share places split the sum of those places' prizes equally, the odd chips
        one each to them in seat order. Every placed player is in the result, best place
        first (then seat order), those out of the money with 0; players still in are not.
        Once the tournament is finished and has at least as many players as prizes, the
        payouts add up to ``sum(prizes)``. Raises ``ValueError`` for a negative or fractional
        prize.

        >>> standings = Standings(["x", "y", "z"])
        >>> standings.bust([("x", 10), ("z", 10)])
        >>> standings.payouts([60, 25, 15])
        {'y': 60, 'x': 20, 'z': 20}
        >>> standings.payouts([60, 41])
        {'y': 60, 'x': 21, 'z': 20}
        """
        amounts = tuple(prizes)
        for prize in amounts:
            if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
                raise ValueError(f"a prize must be a whole number of chips, not {prize!r}")
        groups: dict[tuple[int, int], list[P]] = {}
        for player, place in self.places.items():  # seat order within each group
            groups.setdefault(place, []).append(player)
        result: dict[P, int] = {}
        for (best, worst), players in sorted(groups.items()):
            share, odd = divmod(sum(amounts[best - 1 : worst]), len(players))
            for index, player in enumerate(players):
                result[player] = share + (1 if index < odd else 0)
        return result

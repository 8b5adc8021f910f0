"""An in-memory ``TournamentLedger`` for the runtime's tests, faithful to the contract: buy-ins
move from balances (bots: the house) into one escrow per tournament, prizes are paid from it
only when they add up to the pool exactly, cancelling or ``recover()`` refunds every buy-in;
tournament hands are logged (``hands``: id -> status) with ids counting up from 1.
``audit()`` checks that no chip was created or lost."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.i18n import tr
from bot.ledger import (
    AlreadyRegistered,
    HandHabits,
    HandParticipant,
    InsufficientChips,
    NotRegistered,
    PlayerKey,
    TournamentNotOpen,
    UnbalancedPrizes,
    UnknownHand,
)

GRANT = 10_000
HOUSE = "__house__"


@dataclass
class _FakeTournament:
    guild_id: int
    buy_in: int
    status: str = "registering"
    late_registration: bool = False
    entrants: list[PlayerKey] = field(default_factory=list)
    escrow: int = 0
    places: dict[PlayerKey, int] = field(default_factory=dict)
    prizes: dict[PlayerKey, int] = field(default_factory=dict)


@dataclass
class FakeTournamentLedger:
    """Balances by (guild, player); the house pays bots and may go negative."""

    balances: dict[tuple[int, PlayerKey], int] = field(default_factory=dict)
    house: int = 0
    granted: int = 0
    tournaments: dict[int, _FakeTournament] = field(default_factory=dict)
    hands: dict[int, str] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _hand_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        key = (guild_id, user_id)
        if key not in self.balances:
            self.balances[key] = GRANT
            self.granted += GRANT
        return self.balances[key]

    async def create_tournament(self, guild_id: int, channel_id: int, creator_id: int,
                                buy_in: int, settings: Mapping[str, object], *,
                                addon_price: int = 0, starts_at: float | None = None) -> int:
        tournament_id = next(self._ids)
        late = settings.get("late_registration", 0)
        self.tournaments[tournament_id] = _FakeTournament(
            guild_id, buy_in, late_registration=type(late) is int and late > 0)
        return tournament_id

    def _open(self, tournament_id: int, *statuses: str) -> _FakeTournament:
        tournament = self.tournaments.get(tournament_id)
        if tournament is None:
            raise TournamentNotOpen(None)
        if tournament.status not in statuses:
            raise TournamentNotOpen(tournament.status)
        return tournament

    async def register_tournament(self, tournament_id: int, player: PlayerKey) -> int:
        tournament = self._open(tournament_id, "registering", "running")
        if tournament.status == "running" and not tournament.late_registration:
            raise TournamentNotOpen(tournament.status)
        if player in tournament.entrants:
            raise AlreadyRegistered()
        if isinstance(player, str):
            self.house -= tournament.buy_in
        else:
            key = (tournament.guild_id, player)
            balance = self.balances.get(key, 0)
            if balance < tournament.buy_in:
                raise InsufficientChips(tournament.buy_in, balance)
            self.balances[key] = balance - tournament.buy_in
        tournament.entrants.append(player)
        tournament.escrow += tournament.buy_in
        return len(tournament.entrants)

    def _refund(self, tournament: _FakeTournament, player: PlayerKey) -> None:
        tournament.escrow -= tournament.buy_in
        self._pay(tournament, player, tournament.buy_in)

    def _pay(self, tournament: _FakeTournament, player: PlayerKey, amount: int) -> None:
        if isinstance(player, str):
            self.house += amount
        else:
            key = (tournament.guild_id, player)
            self.balances[key] = self.balances.get(key, 0) + amount

    async def unregister_tournament(self, tournament_id: int, player: PlayerKey) -> None:
        tournament = self._open(tournament_id, "registering")
        if player not in tournament.entrants:
            raise NotRegistered()
        tournament.entrants.remove(player)
        self._refund(tournament, player)

    async def start_tournament(self, tournament_id: int) -> tuple[PlayerKey, ...]:
        tournament = self._open(tournament_id, "registering")
        tournament.status = "running"
        return tuple(tournament.entrants)

    async def cancel_tournament(self, tournament_id: int) -> None:
        tournament = self._open(tournament_id, "registering", "running")
        for player in tournament.entrants:
            self._refund(tournament, player)
        tournament.status = "cancelled"

    async def finish_tournament(self, tournament_id: int, places: Mapping[PlayerKey, int],
                                prizes: Mapping[PlayerKey, int]) -> None:
        tournament = self._open(tournament_id, "running")
        if sum(prizes.values()) != tournament.escrow or set(prizes) - set(tournament.entrants) \
                or set(places) != set(tournament.entrants):
            raise UnbalancedPrizes(tr("The prizes do not add up to the prize pool."))
        for player, amount in prizes.items():
            self._pay(tournament, player, amount)
        tournament.escrow = 0
        tournament.places = dict(places)
        tournament.prizes = dict(prizes)
        tournament.status = "finished"

    async def begin_tournament_hand(self, tournament_id: int, table_id: int,
                                    hand_number: int) -> int:
        self._open(tournament_id, "running")
        hand_id = next(self._hand_ids)
        self.hands[hand_id] = "running"
        return hand_id

    async def settle_tournament_hand(self, hand_id: int, participants: Sequence[HandParticipant],
                                     history_text: str, replay: str | None = None, *,
                                     habit_counts: Sequence[HandHabits] | None = None) -> None:
        self._close(hand_id, "settled")

    async def refund_hand(self, hand_id: int) -> None:
        self._close(hand_id, "refunded")

    def _close(self, hand_id: int, status: str) -> None:
        if self.hands.get(hand_id) != "running":
            raise UnknownHand(f"Hand {hand_id} is not running.")
        self.hands[hand_id] = status

    async def recover(self) -> tuple[int, ...]:
        """Cancel (refund) every registering or running tournament, as after a crash."""
        refunded = []
        for tournament_id, tournament in self.tournaments.items():
            if tournament.status in ("registering", "running"):
                await self.cancel_tournament(tournament_id)
                refunded.append(tournament_id)
        return tuple(refunded)

    def balance(self, guild_id: int, player: PlayerKey) -> int:
        return self.balances.get((guild_id, player), 0)

    def audit(self) -> bool:
        """Balances + house + escrow == granted (the house starts at 0)."""
        escrow = sum(t.escrow for t in self.tournaments.values())
        return sum(self.balances.values()) + self.house + escrow == self.granted

"""What a front end is shown about a tournament: frozen snapshots, safe to keep and to show
to everyone in the channel (no hole cards, no private messages).

``TournamentStatus`` is the whole picture (``TournamentManager.status`` and
``Notifier.tournament_changed``); ``TournamentResults`` the final standings
(``Notifier.tournament_finished``); ``PlayerMoved`` one player moved between two tables
(``Notifier.player_moved``). ``offers_in`` reads which purchases a note to a person offers
(the front end adds their buttons).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import Message, Text
from bot.ledger import PlayerKey
from bot.tables.tournament_settings import TournamentSettings
from engine.blinds import LevelUnit


class Purchase(StrEnum):
    """What a player may buy after entering, as their buttons and commands name it."""

    REBUY = "rebuy"
    ADDON = "addon"
    REENTRY = "reentry"
    DECLINE = "decline"
    """Not a purchase: the knocked-out player takes their place now."""


OFFERS = "offers"
"""The parameter of a note (``Notifier.tell``) listing the purchases it offers (not shown in
its text); ``tournament`` is the tournament's id."""


def offers_in(message: Message) -> tuple[int, tuple[Purchase, ...]] | None:
    """The tournament and the purchases a note offers, or ``None`` for any other note.

    >>> from bot.i18n import tr
    >>> offers_in(tr("Rebuy?", tournament=4, offers=(Purchase.REBUY,)))
    (4, (<Purchase.REBUY: 'rebuy'>,))
    """
    if not isinstance(message, Text):
        return None
    params = dict(message.params)
    offers, tournament = params.get(OFFERS), params.get("tournament")
    if not isinstance(offers, tuple) or not isinstance(tournament, int) or not offers:
        return None
    return tournament, tuple(Purchase(offer) for offer in offers)


class TournamentPhase(StrEnum):
    """Where a tournament is in its life (the ledger's status names)."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class EntrantStatus:
    """One entrant: still in with ``chips`` at a table, or out with a place (and prize)."""

    player: PlayerKey
    """The ledger's key: a user id, or a bot's name."""
    name: str
    user_id: int | None
    """``None`` for a bot."""
    bot_level: str | None
    chips: int
    """Tournament chips now (the starting stack before the start; 0 once out)."""
    table_channel_id: int | None
    """The channel of the table the player sits at (``None`` before the start, or out)."""
    place: tuple[int, int] | None
    """``(best, worst)`` place once out (``(3, 4)``: tied for 3rd and 4th), or won: (1, 1)."""
    prize: int
    """Chips won (0 out of the money, or still in)."""
    rebuys: int = 0
    addon: bool = False
    reentries: int = 0
    deciding: bool = False
    """Knocked out but not placed yet: they may still rebuy or enter again."""


@dataclass(frozen=True, slots=True)
class TournamentStatus:
    """A tournament now. Times are unix timestamps (``time.time()`` clock)."""

    tournament_id: int
    guild_id: int
    channel_id: int
    """The channel where it was created (its first table plays there when it is free)."""
    creator_id: int
    phase: TournamentPhase
    settings: TournamentSettings
    entrants: tuple[EntrantStatus, ...]
    """Still-in players first (most chips first), then the places, best first; before the
    start, in registration order."""
    pool: int
    """The prize pool: the buy-in for every entry, rebuy and re-entry, and the add-ons."""
    prizes: tuple[int, ...]
    """The prize of each paid place, best first, for the field as it is now."""
    level: int
    """The blind level being played, 1-based (1 before the start)."""
    small_blind: int
    big_blind: int
    ante: int
    unit: LevelUnit
    next_level_at: float | None
    """When the next level starts (levels by minutes, while running and not at the last)."""
    next_level_in_hands: int | None
    """Hands until the next level (levels by hands, while running and not at the last)."""
    hands_played: int
    """Hands dealt at the table that has dealt the most (levels by hands count these)."""
    players_left: int
    average_stack: int
    """Chips in play divided by the players still in (the starting stack before the start)."""
    table_channel_ids: tuple[int, ...]
    """The channels of the tables playing now."""
    started_at: float | None
    finished_at: float | None
    resumed: bool = False
    """True once it was opened again after a restart: its board was shown by an earlier
    process (the front end finds that message instead of posting another)."""
    rebuys_open: bool = False
    """True while rebuys may be bought (running, in the rebuy period)."""
    addon_open: bool = False
    """True while the add-on may be taken (the level after the rebuy period)."""
    starts_at: float | None = None
    """When a scheduled tournament starts by itself."""
    event_id: int | None = None
    """The Discord Scheduled Event that announces it (the front end made it)."""
    remind: bool = False
    """True on the one change that says its players are to be reminded now: a few minutes
    before a scheduled start, once whatever the restarts."""

    @property
    def rebuys(self) -> int:
        """Rebuys bought so far, by everyone."""
        return sum(entrant.rebuys for entrant in self.entrants)

    @property
    def addons(self) -> int:
        """Add-ons bought so far."""
        return sum(entrant.addon for entrant in self.entrants)

    @property
    def entries(self) -> int:
        """Entries so far: entrants and their re-entries."""
        return len(self.entrants) + sum(entrant.reentries for entrant in self.entrants)

    @property
    def entrant_count(self) -> int:
        """How many players entered (or are registered so far)."""
        return len(self.entrants)

    def entrant(self, player: PlayerKey) -> EntrantStatus | None:
        """The entrant with this ledger key, if any."""
        return next((entrant for entrant in self.entrants if entrant.player == player), None)


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """A finished tournament: every entrant's place and prize, best first."""

    tournament_id: int
    guild_id: int
    channel_id: int
    pool: int
    places: tuple[EntrantStatus, ...]
    """Every entrant, best place first (ties in seat order); ``chips`` is 0 but the winner's."""

    @property
    def winner(self) -> EntrantStatus:
        """The entrant in first place."""
        return self.places[0]


@dataclass(frozen=True, slots=True)
class PlayerMoved:
    """A player moved with their stack from one table of a tournament to another."""

    tournament_id: int
    guild_id: int
    player: PlayerKey
    name: str
    user_id: int | None
    """``None`` for a bot."""
    from_channel_id: int
    to_channel_id: int
    stack: int
    table_broken: bool
    """True when the old table closed (its players all moved); False for a balancing move."""

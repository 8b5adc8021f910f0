"""The values the ledger takes in and hands back: frozen records, never live rows.

A record is a copy of what was committed when it was read, so callers (the table runtime, the
front ends) can keep it, compare it and pass it between tasks without holding a transaction
or knowing a column name. Only a few derived figures (``PlayerStats.vpip_percent``) are
computed on them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Literal

PlayerKey = int | str
"""A seat holder: an ``int`` is a Discord user id (a person), a ``str`` is a bot's name."""

LeaderboardOrder = Literal[
    "balance", "net", "hands_won", "tournaments", "won_at_showdown", "aggression"]
"""What a leaderboard ranks people by: balance, net winnings, hands won, tournament net
(prizes won minus buy-ins paid in finished tournaments), or one of ``RANKED_HABITS``."""

HabitFigure = Literal[
    "three_bet", "fold_to_three_bet", "cbet", "aggression", "went_to_showdown",
    "won_at_showdown"]
"""A figure of ``Habits``: 3-bet %, fold to 3-bet %, c-bet %, aggression factor, WTSD %,
W$SD %."""

HABIT_FIGURES: tuple[HabitFigure, ...] = (
    "three_bet", "fold_to_three_bet", "cbet", "aggression", "went_to_showdown",
    "won_at_showdown")
"""Every ``HabitFigure``, in the order ``/stats`` shows them."""

RANKED_HABITS: tuple[HabitFigure, ...] = ("won_at_showdown", "aggression")
"""The figures a leaderboard may rank by, among people with ``LEADERBOARD_MIN_HANDS``:
W$SD, where more is better (pots taken to showdown are won, not lost), and the aggression
factor, the habit that wins in no-limit (a bet or raise wins pots a call cannot; a board of
"the most aggressive players" reads plainly). The others are styles whose best value lies in
between (3-bet, fold to 3-bet, c-bet, WTSD: too high and too low both lose chips), so a
ranking would crown an extreme, not a good player."""

LEADERBOARD_MIN_HANDS = 50
"""The hands (counted ones, ``Habits.hands``) a person needs to appear on a ``RANKED_HABITS``
leaderboard: below about that, a figure rests on a handful of showdowns or calls (50 hands
give 10-15 showdowns at usual rates) and one lucky evening would top the board."""

TournamentStatus = Literal["registering", "running", "finished", "cancelled"]
"""Where a tournament is: open for registration, being played, paid out, or refunded."""


@dataclass(frozen=True, slots=True)
class HandParticipant:
    """How one player dealt into a hand fared, as the table reports it at settlement.

    ``net`` is the final stack minus the start-of-hand stack; ``pot_won`` is the chips pushed
    to the player (used for the biggest-pot stat); ``vpip`` and ``pfr`` say whether the player
    voluntarily put chips in, and raised, before the flop.
    """

    player: PlayerKey
    name: str
    net: int
    won: bool = False
    showdown_won: bool = False
    vpip: bool = False
    pfr: bool = False
    pot_won: int = 0


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One person's place on a leaderboard page; ``value`` is what the board ranks by: chips
    or hands (an ``int``), or a ``RANKED_HABITS`` figure (a ``float``)."""

    rank: int
    user_id: int
    name: str
    value: int | float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's balance and lifetime record in one guild."""

    guild_id: int
    user_id: int
    name: str
    balance: int
    hands_played: int
    hands_won: int
    showdowns_won: int
    net_chips: int
    biggest_pot: int
    vpip_hands: int
    pfr_hands: int

    @property
    def vpip_percent(self) -> float:
        """Share of hands in which the player voluntarily put chips in preflop."""
        return 100 * self.vpip_hands / self.hands_played if self.hands_played else 0.0

    @property
    def pfr_percent(self) -> float:
        """Share of hands in which the player raised preflop."""
        return 100 * self.pfr_hands / self.hands_played if self.hands_played else 0.0


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One settled hand as seen by one person, for "recent hands"."""

    hand_id: int
    table_id: int
    hand_number: int
    finished_at: float
    net: int
    won: bool
    tournament_id: int | None = None
    """The tournament of a tournament hand, whose ``net`` is in its play chips."""


@dataclass(frozen=True, slots=True)
class HandResultPoint:
    """How one settled hand went for one person: a point of their results-over-time chart."""

    hand_id: int
    """The hand's id (``/history`` shows it)."""
    finished_at: float
    """When the hand was settled, in seconds since the epoch."""
    net: int
    """The person's final stack minus their start-of-hand stack: chips won (or lost, < 0)."""
    won: bool
    """True when the person took chips from a pot of this hand (at showdown or not)."""
    showdown_won: bool
    """True when the person took chips from a pot decided at showdown."""
    reached_showdown: bool
    """True when the hand itself went to showdown (somebody won a pot there), whether or not
    this person was still in it: the hand log does not record who folded, so a person who
    folded in such a hand cannot be told apart from one who lost the showdown."""


@dataclass(frozen=True, slots=True)
class ServerAverages:
    """Preflop habits of a guild's players, each player who played a hand counted once."""

    players: int
    """How many people of the guild have played at least one hand."""
    vpip_percent: float
    """The mean over those players of their VPIP (share of hands with chips put in
    voluntarily preflop), 0 when there are none."""
    pfr_percent: float
    """The mean over those players of their PFR (share of hands raised preflop), 0 when
    there are none."""


@dataclass(frozen=True, slots=True)
class Habits:
    """How a person plays, summed over their counted hands (``habits.HandHabits`` has each
    count) and turned into the figures poker tracking software shows. A figure is ``None``
    when its denominator is 0 (no chance yet): shown as "—", never a division by zero."""

    hands: int = 0
    """Hands counted (a hand settled before replays were recorded counts, with no chances)."""
    three_bet_chances: int = 0
    three_bets: int = 0
    fold_to_three_bet_chances: int = 0
    folds_to_three_bet: int = 0
    cbet_chances: int = 0
    cbets: int = 0
    postflop_aggression: int = 0
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0

    def figure(self, name: HabitFigure) -> float | None:
        """One figure: a percentage, or for ``aggression`` a ratio.

        - ``three_bet``: 3-bet % = re-raises of a preflop open raise / times faced the open
          raise (the only raise so far) with a raise legal.
        - ``fold_to_three_bet``: folds / times the opener faced a 3-bet.
        - ``cbet``: c-bet % = flop bets by the preflop's last raiser / times that raiser was
          first to bet on the flop (checked to, or first to act) with a bet legal.
        - ``aggression``: AF = (bets + raises) / calls, on the flop, turn and river.
        - ``went_to_showdown``: WTSD = showdowns / hands that saw the flop.
        - ``won_at_showdown``: W$SD = showdowns where chips were won / showdowns.
        """
        part, whole = {
            "three_bet": (self.three_bets, self.three_bet_chances),
            "fold_to_three_bet": (self.folds_to_three_bet, self.fold_to_three_bet_chances),
            "cbet": (self.cbets, self.cbet_chances),
            "aggression": (self.postflop_aggression, self.postflop_calls),
            "went_to_showdown": (self.showdowns, self.saw_flop),
            "won_at_showdown": (self.showdowns_won, self.showdowns),
        }[name]
        if not whole:
            return None
        return part / whole if name == "aggression" else 100 * part / whole


def server_habits(people: Collection[Habits]) -> dict[HabitFigure, float | None]:
    """The server's average of each figure: the mean over the people for whom it is defined,
    each person counted once (as ``ServerAverages``); ``None`` when it is nobody's yet."""
    averages: dict[HabitFigure, float | None] = {}
    for name in HABIT_FIGURES:
        values = [value for habits in people if (value := habits.figure(name)) is not None]
        averages[name] = sum(values) / len(values) if values else None
    return averages


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A settled hand with everyone's result and the hand-history text."""

    hand_id: int
    guild_id: int
    table_id: int
    hand_number: int
    started_at: float
    finished_at: float
    participants: tuple[HandParticipant, ...]
    """In seat order, as the table reported them: participant ``k`` is the history's
    "Seat k+1" (``engine.history.visible_to`` relies on it)."""
    history_text: str
    replay: str | None = None
    """The hand as ``engine.hand_record.RecordedHand`` JSON; ``None`` for a hand settled before
    replays were recorded."""
    tournament_id: int | None = None
    """The tournament of a tournament hand: its stacks and results are the tournament's play
    chips, not the server's chips."""

    def seat_of(self, user_id: int) -> int | None:
        """The person's seat in the hand (``participants`` are in seat order), or ``None``."""
        players = [participant.player for participant in self.participants]
        return players.index(user_id) if user_id in players else None


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What ``recover()`` put back: unsettled hands closed, escrow returned from idle tables."""

    hands_refunded: tuple[int, ...]
    tables_closed: tuple[int, ...]
    chips_returned: int
    tournaments_refunded: tuple[int, ...] = ()
    """The tournaments cut short (registering or running) whose buy-ins were refunded."""
    tables_kept: tuple[int, ...] = ()
    """The tables whose escrow stayed at the table because their state is saved: they open
    again (``Ledger.saved_tables``)."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """A cash table kept across a restart: its channel and server, the state the runtime saved
    (JSON text the ledger does not read), and its table message when one is remembered."""

    channel_id: int
    guild_id: int
    state: str
    message_id: int | None


@dataclass(frozen=True, slots=True)
class SavedTournament:
    """A tournament kept across a restart: the ledger's view of it, its entrants' names (a
    person's display name, a bot's name) and the state its runtime saved at its last hand
    boundary (JSON text the ledger does not read; ``None`` while registering)."""

    info: TournamentInfo
    names: Mapping[PlayerKey, str] = field(hash=False)
    state: str | None


@dataclass(frozen=True, slots=True)
class LedgerTotals:
    """Where all chips are; ``balances + house + escrow + tournaments`` must equal
    ``granted``. ``escrow`` is the stacks at tables, ``tournaments`` the buy-ins held in
    tournament escrow."""

    granted: int
    balances: int
    house: int
    escrow: int
    tournaments: int = 0


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The result of ``audit()``: ``ok`` when ``problems`` is empty."""

    ok: bool
    problems: tuple[str, ...]
    totals: LedgerTotals


@dataclass(frozen=True, slots=True)
class Purchases:
    """What one entrant of a tournament bought after entering: rebuys, add-ons (0 or 1) and
    re-entries, each paid into its escrow."""

    rebuys: int = 0
    addons: int = 0
    reentries: int = 0


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament as the ledger knows it: who created it where, its buy-in and status, the
    runtime's ``settings`` (plain JSON values), its entrants in registration order and the
    chips in its prize pool (its escrow: what the entrants paid, until it is paid out or
    refunded), what each bought after entering, and its schedule."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    buy_in: int
    status: TournamentStatus
    settings: Mapping[str, object] = field(hash=False)
    entrants: tuple[PlayerKey, ...] = ()
    pool: int = 0
    purchases: Mapping[PlayerKey, Purchases] = field(default_factory=dict, hash=False)
    """The entrants who bought rebuys, an add-on or re-entries (the others bought none)."""
    starts_at: float | None = None
    """When a scheduled tournament starts by itself (unix time); ``None`` when unscheduled."""
    event_id: int | None = None
    """The Discord Scheduled Event that announces it, once the front end made one."""
    reminded: bool = False
    """True once its players were reminded that it starts soon."""


@dataclass(frozen=True, slots=True)
class TournamentPlace:
    """Where one entrant of a finished tournament placed and what they won; ``name`` is a
    person's display name or a bot's name. Entrants who tied share the best place of the
    tie."""

    player: PlayerKey
    name: str
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentStats:
    """A person's record in the finished tournaments of one guild: tournaments played, those
    in which they won a prize, those they won outright (first place), and their net (prizes
    minus buy-ins)."""

    played: int = 0
    in_the_money: int = 0
    wins: int = 0
    net: int = 0

"""Play bot strategies against each other and measure them, with duplicate deals.

Each deck is dealt once per seat rotation: with ``n`` players every deck is replayed ``n``
times, each player taking each seat once, so every player gets every set of cards and card luck
cancels out. Results are big blinds won per 100 hands with a 95% confidence interval computed
over decks (the independent samples), plus how long each strategy takes to decide.

    python -m engine.arena --players hard,medium --hands 20000 --seed 7
    python -m engine.arena --players hard,medium,medium,easy,easy,calling --hands 6000 --json
    python -m engine.arena --players expert,benchmarks.opponents:EquilibriumPushFold --stack 10

Bots adapt per seat (see ``engine.strategies.hard``), so each player keeps one strategy
instance per rotation: within an instance, the same opponent always sits at the same seat.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from engine.actions import Action
from engine.cards import Deck
from engine.hand import Hand
from engine.strategies import Strategy, make_strategy
from engine.view import PlayerView

MIN_SEATS, MAX_SEATS = 2, 9
MAX_WORKERS = 64
"""More processes than this only queue for the cores; the command line refuses more."""


class StrategyError(RuntimeError):
    """A strategy returned an action that was not legal, or crashed while deciding."""


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: strategies by seat order, how many hands, stakes and the master seed.

    Checked when built, so a bad setting fails before any hand is dealt: ``ValueError``.
    """

    strategies: tuple[str, ...]
    hands: int
    seed: int = 0
    stack_big_blinds: int = 100
    small_blind: int = 1
    big_blind: int = 2

    def __post_init__(self) -> None:
        if not MIN_SEATS <= len(self.strategies) <= MAX_SEATS:
            raise ValueError(f"an arena seats {MIN_SEATS} to {MAX_SEATS} players, "
                             f"not {len(self.strategies)}")
        if self.hands < 1:
            raise ValueError("play at least one hand")
        if not 0 < self.small_blind <= self.big_blind:
            raise ValueError("blinds must satisfy 0 < small blind <= big blind")
        if self.stack_big_blinds < 1:
            raise ValueError("stacks must hold at least one big blind")
        for name in self.strategies:
            make_strategy(name)  # fail now, with the list of known names, not in a worker

    @property
    def seats(self) -> int:
        """Players at the table."""
        return len(self.strategies)

    @property
    def decks(self) -> int:
        """Decks to deal: each is played once per rotation, so hands round up to a multiple."""
        return math.ceil(self.hands / self.seats)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's figures: winnings per 100 hands with their 95% interval, decision times."""

    name: str
    strategy: str
    bb_per_100: float
    ci95: tuple[float, float]
    decision_ms_median: float
    decision_ms_p99: float
    postflop_ms_median: float
    postflop_ms_p99: float
    decisions: int


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """All players' results and the run's totals.

    ``hands`` is the number of hands really played, counted as they were: whole decks, each
    dealt once per seat, so it can exceed ``hands_requested``.
    """

    hands: int
    players: tuple[PlayerResult, ...]
    seconds: float
    hands_requested: int

    def to_json(self) -> str:
        """The result as one JSON object (``hands``, ``hands_requested`` and ``players``)."""
        players = [
            {key: value for key, value in asdict(player).items() if key != "decisions"}
            for player in self.players
        ]
        for player in players:
            player["ci95"] = list(player["ci95"])
        return json.dumps({"hands": self.hands, "hands_requested": self.hands_requested,
                           "players": players})

    def table(self) -> str:
        """The result as an aligned text table: the name columns as wide as their longest
        entry (a ``module:Class`` strategy is), at least 12."""
        name = max([12, *(len(player.name) + 2 for player in self.players)])
        strategy = max([12, *(len(player.strategy) + 2 for player in self.players)])
        lines = [f"{'player':<{name}}{'strategy':<{strategy}}{'bb/100':>9}  {'95% CI':<19}"
                 f"{'decisions':>10}{'median ms':>11}{'p99 ms':>9}"
                 f"{'postflop median':>17}{'p99':>8}"]
        for player in self.players:
            low, high = player.ci95
            interval = f"[{low:+.1f}, {high:+.1f}]"
            lines.append(
                f"{player.name:<{name}}{player.strategy:<{strategy}}"
                f"{player.bb_per_100:>+9.2f}  "
                f"{interval:<19}{player.decisions:>10}{player.decision_ms_median:>11.3f}"
                f"{player.decision_ms_p99:>9.3f}{player.postflop_ms_median:>17.3f}"
                f"{player.postflop_ms_p99:>8.3f}"
            )
        decisions = sum(player.decisions for player in self.players)
        played = f"{self.hands} hands"
        if self.hands != self.hands_requested:
            played += (f" ({self.hands_requested} requested: each deck is dealt once per seat, "
                       f"so hands round up to whole decks)")
        lines.append(f"{played} in {self.seconds:.1f} s: "
                     f"{self.hands / self.seconds:.0f} hands/s, "
                     f"{decisions / self.seconds:.0f} decisions/s")
        return "\n".join(lines)


@dataclass(slots=True)
class _Tally:
    """Raw figures from a run of decks: hands played, chips won per deck per player, and
    decision times (all of them, and those after the flop, where the bots simulate)."""

    hands: int = 0
    deck_nets: list[list[int]] = field(default_factory=list)
    decision_seconds: list[list[float]] = field(default_factory=list)
    postflop_seconds: list[list[float]] = field(default_factory=list)


def run_arena(config: ArenaConfig, workers: int = 1) -> ArenaResult:
    """Play ``config`` and measure every player; ``workers`` > 1 splits decks across processes.

    The same config and worker count always give the same winnings (timings vary). Raises
    ``ValueError`` for fewer than one worker, ``StrategyError`` when a strategy crashes or
    chooses an illegal action.
    """
    if workers < 1:
        raise ValueError(f"an arena needs at least one worker, not {workers}")
    started = time.perf_counter()
    if workers == 1:
        tally = _play_decks(config, 0, config.decks)
    else:
        bounds = [config.decks * index // workers for index in range(workers + 1)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_play_decks, [config] * workers, bounds[:-1], bounds[1:]))
        tally = _Tally(
            hands=sum(part.hands for part in parts),
            deck_nets=[nets for part in parts for nets in part.deck_nets],
            decision_seconds=[[t for part in parts for t in part.decision_seconds[p]]
                              for p in range(config.seats)],
            postflop_seconds=[[t for part in parts for t in part.postflop_seconds[p]]
                              for p in range(config.seats)],
        )
    seconds = time.perf_counter() - started
    return ArenaResult(hands=tally.hands, players=_summarise(config, tally), seconds=seconds,
                       hands_requested=config.hands)


def _play_decks(config: ArenaConfig, first: int, stop: int) -> _Tally:
    """Play decks ``first`` .. ``stop - 1``, each once per seat rotation."""
    seats = config.seats
    strategies = [[make_strategy(name) for _ in range(seats)] for name in config.strategies]
    rngs = [[random.Random(f"{config.seed}/{first}/{player}/{rotation}") for rotation in
             range(seats)] for player in range(seats)]
    tally = _Tally(decision_seconds=[[] for _ in range(seats)],
                   postflop_seconds=[[] for _ in range(seats)])
    stack = config.stack_big_blinds * config.big_blind
    for deck_index in range(first, stop):
        deck_seed = f"{config.seed}/deck/{deck_index}"
        nets = [0] * seats
        for rotation in range(seats):
            player_at = [(seat - rotation) % seats for seat in range(seats)]
            hand = Hand([stack] * seats, button=deck_index % seats,
                        small_blind=config.small_blind, big_blind=config.big_blind,
                        deck=Deck(random.Random(deck_seed)))
            bots = [strategies[player][rotation] for player in player_at]
            bot_rngs = [rngs[player][rotation] for player in player_at]
            while (seat := hand.to_act) is not None:
                player = player_at[seat]
                view = hand.view(seat)
                clock = time.perf_counter()
                action = _decide(bots[seat], view, bot_rngs[seat], config.strategies[player])
                elapsed = time.perf_counter() - clock
                tally.decision_seconds[player].append(elapsed)
                if view.board:
                    tally.postflop_seconds[player].append(elapsed)
                legal = hand.legal_actions()  # the view's own, worked out once per turn
                if not legal.allows(action):
                    raise StrategyError(f"{config.strategies[player]} chose illegal {action} "
                                        f"with {legal}")
                hand.act(seat, action)
            result = hand.result
            assert result is not None, "no run-it-twice offer, so nobody to act means it is over"
            tally.hands += 1
            for seat, bot in enumerate(bots):
                nets[player_at[seat]] += result.net[seat]
                finished = getattr(bot, "hand_finished", None)
                if finished is not None:
                    finished(hand.view(seat))
        tally.deck_nets.append(nets)
    return tally


def _decide(bot: Strategy, view: PlayerView, rng: random.Random, name: str) -> Action:
    try:
        return bot.decide(view, rng)
    except Exception as error:
        raise StrategyError(f"strategy {name} failed to decide: {error!r}") from error


def _summarise(config: ArenaConfig, tally: _Tally) -> tuple[PlayerResult, ...]:
    names = _display_names(config.strategies)
    per_deck = 100 / (config.seats * config.big_blind)  # chips per deck -> bb per 100 hands
    results = []
    for player, strategy in enumerate(config.strategies):
        samples = [nets[player] * per_deck for nets in tally.deck_nets]
        mean = statistics.fmean(samples)
        spread = statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
        times = sorted(tally.decision_seconds[player])
        postflop = sorted(tally.postflop_seconds[player])
        results.append(PlayerResult(
            name=names[player],
            strategy=strategy,
            bb_per_100=round(mean, 3),
            ci95=(round(mean - 1.96 * spread, 3), round(mean + 1.96 * spread, 3)),
            decision_ms_median=round(_quantile(times, 0.5) * 1000, 4),
            decision_ms_p99=round(_quantile(times, 0.99) * 1000, 4),
            postflop_ms_median=round(_quantile(postflop, 0.5) * 1000, 4),
            postflop_ms_p99=round(_quantile(postflop, 0.99) * 1000, 4),
            decisions=len(times),
        ))
    return tuple(results)


def _quantile(ordered: Sequence[float], share: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _display_names(strategies: Sequence[str]) -> list[str]:
    """Strategy names, numbered when a strategy sits more than once (``medium``, ``medium 2``)."""
    seen: dict[str, int] = {}
    names = []
    for strategy in strategies:
        short = strategy.rsplit(":", 1)[-1]
        seen[short] = seen.get(short, 0) + 1
        names.append(short if seen[short] == 1 else f"{short} {seen[short]}")
    return names


_MAX_DIGITS = 9
"""The longest number the command line reads (a billion hands or chips is plenty)."""


def _is_number(text: str) -> bool:
    """Decimal digits only (no sign, no ``²``) and not absurdly many."""
    return text.isdecimal() and len(text) <= _MAX_DIGITS


def _parse_blinds(text: str) -> tuple[int, int]:
    small, _, big = text.partition("/")
    if not (_is_number(small) and _is_number(big)):
        raise argparse.ArgumentTypeError(
            f"blinds are written small/big, like 1/2, not {text[:20]!r}")
    return int(small), int(big)


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        if not (_is_number(text) and low <= int(text) <= high):
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {text[:20]!r}")
        return int(text)

    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m engine.arena --players hard,medium --hands 20000 --seed 7``."""
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--players", required=True,
                        help="comma-separated strategies in seat order: easy, medium, hard, "
                             "expert, calling, random or module:Class (outside opponents: "
                             "benchmarks.opponents:EquilibriumPushFold, TightAggressive, "
                             "Maniac, CallingStation)")
    parser.add_argument("--hands", type=_whole_number(1, 10**_MAX_DIGITS - 1), default=2000,
                        help="hands to play, rounded up to whole decks (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--stack", type=_whole_number(1, 10**6), default=100,
                        help="starting stack in big blinds, refilled every hand (default 100)")
    parser.add_argument("--blinds", type=_parse_blinds, default=(1, 2),
                        help="small/big blind in chips (default 1/2)")
    parser.add_argument("--seats", type=_whole_number(MIN_SEATS, MAX_SEATS), default=None,
                        help="table size 2-9; the player list repeats to fill it")
    parser.add_argument("--workers", type=_whole_number(1, MAX_WORKERS), default=1,
                        help=f"processes to use, 1 to {MAX_WORKERS} (results depend on the "
                             f"count; default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    strategies = [name.strip() for name in args.players.split(",") if name.strip()]
    if args.seats is not None:
        if not strategies or args.seats < len(strategies):
            parser.error("--seats must be at least the number of players given")
        strategies = [strategies[seat % len(strategies)] for seat in range(args.seats)]
    try:
        small_blind, big_blind = args.blinds
        config = ArenaConfig(strategies=tuple(strategies), hands=args.hands, seed=args.seed,
                             stack_big_blinds=args.stack, small_blind=small_blind,
                             big_blind=big_blind)
    except ValueError as error:  # a bad setting or strategy: no usage to add, just the reason
        parser.exit(2, f"{parser.prog}: error: {' '.join(str(error).split())}\n")
    result = run_arena(config, workers=args.workers)
    print(result.to_json() if args.json else result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())

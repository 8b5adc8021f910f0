"""Many tables at once: the table runtime and the ledger under a popular bot's load.

Every table runs through the real ``TableManager`` and a real ``Ledger`` on a temporary SQLite
file (or, with ``--database-url``, a fresh database on that PostgreSQL server), with all delays
0. With ``--processes N`` (PostgreSQL only) N worker processes share the tables, each in a
guild of its own as sharded bot processes are, and measure the same seconds.

Half the tables seat bots only (mixed levels, dealt by ``run_hands``); the other half seat two
simulated people among the bots. A simulated person acts the way the Discord front end does:
the notifier's ``your_turn`` reaches them and, from another task, they call
``TableManager.act`` (mostly check or call, some folds and raises, from a seeded RNG).

    python -m benchmarks.tables --tables 1000 --seconds 60
    python -m benchmarks.tables --tables 1000 --seconds 60 --json
    python -m benchmarks.tables --tables 1000 --seconds 30 --profile tables.prof
    python -m benchmarks.tables --tables 1000 --seconds 30 --bots-inline
    python -m benchmarks.tables --tables 1000 --seconds 60 --database-url postgresql://u@host/db
    python -m benchmarks.tables --tables 1000 --seconds 60 --database-url … --processes 2
    python -m benchmarks.tables --tables 1000 --seconds 30 --database-url … --processes 2 \
        --profile tables.prof   # tables.prof.0, tables.prof.1

Figures: hands settled per second in total; a person's action latency (from their ``act`` to
the next turn prompt at that table); event-loop lag (how late a 10 ms ticker wakes); CPU per
hand in the bot's processes and machine-wide (``/proc/stat``: every process, the database
server included), and context switches per hand machine-wide; ledger calls per second and the
database transactions they committed per hand (batched hands share one); peak memory
(``ru_maxrss`` above the baseline taken before any table opened) and per table; then, after
shutdown, the ledger's ``audit()`` and a chip count made by the benchmark itself (people's
grants) against what the ledger holds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import logging
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from bot.errors import HoldemError, NotEnoughChips
from bot.i18n.text import Message
from bot.ledger import AuditReport, Ledger
from bot.process import tune_garbage_collector
from bot.shards import ShardSet
from bot.tables.bot_worker import BotWorker
from bot.tables.manager import TableManager
from bot.tables.notifier import HandOutcome, ShowOffer, TableState, TurnPrompt
from bot.tables.settings import TableSettings
from bot.tables.tournament_status import PlayerMoved, TournamentResults, TournamentStatus
from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.strategies import LEVELS

GUILD = 1
FIRST_CHANNEL = 1_000
STARTING_BALANCE = 1_000_000
"""People's starting grant: large, so that busted people can always buy in again."""
PEOPLE_PER_MIXED_TABLE = 2
TICK_SECONDS = 0.010
REQUIRED_KEYS = ("hands_per_s", "action_ms_p50", "action_ms_p99", "loop_lag_ms_p99",
                 "loop_lag_ms_max", "kb_per_table", "machine_cpu_ms_per_hand", "audit_ok",
                 "chips_lost")


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (0 when there are none).

    >>> percentile([5, 1, 3, 2, 4], 0.5), percentile([5, 1, 3, 2, 4], 0.99), percentile([], 0.5)
    (3, 5, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def peak_rss_kb() -> int:
    """The process's peak resident memory so far, in KB (Linux reports ``ru_maxrss`` in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def thread_role(thread: threading.Thread) -> str:
    """Which part of the bot a thread works for, by the names asyncio and aiosqlite give."""
    if thread is threading.main_thread():
        return "event loop"
    if "_connection_worker_thread" in thread.name:
        return "ledger (sqlite)"
    if thread.name.startswith("asyncio"):
        return "executor (bots)"
    return "other"


def thread_cpu_by_role() -> dict[str, float]:
    """CPU seconds used so far by the process's live threads, summed by ``thread_role``."""
    used: dict[str, float] = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        with contextlib.suppress(OSError, ProcessLookupError):
            clock = time.pthread_getcpuclockid(thread.ident)
            role = thread_role(thread)
            used[role] = used.get(role, 0) + time.clock_gettime(clock)
    return used


def thread_cpu_since(started: dict[str, float]) -> dict[str, float]:
    """CPU seconds each role of ``thread_cpu_by_role`` used since ``started`` (the roles
    that used some)."""
    used: dict[str, float] = {}
    for role, seconds in thread_cpu_by_role().items():
        spent = seconds - started.get(role, 0)
        if spent > 0:
            used[role] = spent
    return used


def process_cpu_seconds(pids: Sequence[int]) -> float:
    """CPU seconds used so far by other processes (user + system, from ``/proc``)."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def choose_action(prompt: TurnPrompt, rng: random.Random) -> Action:
    """A simulated person's move: mostly check or call, sometimes fold or bet/raise a bit."""
    legal = prompt.legal
    roll = rng.random()
    if legal.can_bet_or_raise and roll < 0.12:
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        upper = max(legal.min_to, min(legal.max_to, legal.min_to * 3))
        return Action(kind, rng.randint(legal.min_to, upper))
    if legal.can_check:
        return Action(ActionKind.CHECK)
    if roll < 0.30:
        return Action(ActionKind.FOLD)
    return Action(ActionKind.CALL if legal.can_call else ActionKind.FOLD)


class CountingLedger:
    """The real ledger, counting calls to its public coroutine methods (each is one
    transaction) so the benchmark can report transactions per second."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.ledger, name)
        if name.startswith("_") or not asyncio.iscoroutinefunction(attribute):
            return attribute

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return await attribute(*args, **kwargs)

        return counted


@dataclass
class SimulatedPeople:
    """A ``Notifier`` whose people answer their prompts through the manager, like clicks.

    It measures what a person feels: the time from sending an action to the next prompt at
    that table. Busted people buy in again (``top_up``), or leave if their balance is spent.
    """

    rng: random.Random
    manager: TableManager | None = None
    hands_by_table: Counter[int] = field(default_factory=Counter)
    hand_ids: list[int] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    rebuys: int = 0
    departures: int = 0
    _acted_at: dict[int, float] = field(default_factory=dict)
    _requests: set[asyncio.Task[None]] = field(default_factory=set)

    def reset_counts(self) -> None:
        """Start a new measurement window."""
        self.hands_by_table.clear()
        self.latencies.clear()
        self.refusals.clear()

    async def table_changed(self, state: TableState) -> None:
        return None

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        return None

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        acted_at = self._acted_at.pop(state.channel_id, None)
        if acted_at is not None:
            self.latencies.append(time.perf_counter() - acted_at)
        self._send(self._act(state.channel_id, user_id, choose_action(prompt, self.rng)))

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        self.hands_by_table[state.channel_id] += 1
        self.hand_ids.append(outcome.hand_id)
        for result in outcome.results:
            if result.user_id is not None and result.final_stack == 0:
                self._send(self._buy_in_again(state.channel_id, result.user_id))

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        return None

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        assert self.manager is not None
        for user_id in user_ids:
            self._send(self.manager.answer_run_it_twice(
                state.channel_id, user_id, self.rng.random() < 0.5))

    async def table_closed(self, channel_id: int) -> None:
        return None

    async def table_paused(self, channel_id: int) -> None:
        return None

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        return None  # simulated people never show: the window closes unanswered

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        return None

    async def tournament_changed(self, status: TournamentStatus) -> None:
        return None

    async def tournament_finished(self, results: TournamentResults) -> None:
        return None

    async def player_moved(self, move: PlayerMoved) -> None:
        return None

    async def open_tournament_table(
        self, tournament_id: int, channel_id: int, number: int
    ) -> int:
        raise NotImplementedError("the benchmark plays no tournaments")

    async def wait_for_requests(self) -> None:
        """Let the requests already sent finish (refused, once the runtime is shut down)."""
        while self._requests:
            await asyncio.gather(*self._requests, return_exceptions=True)

    async def _act(self, channel_id: int, user_id: int, action: Action) -> None:
        assert self.manager is not None
        self._acted_at[channel_id] = time.perf_counter()
        await self.manager.act(channel_id, user_id, action)

    async def _buy_in_again(self, channel_id: int, user_id: int) -> None:
        assert self.manager is not None
        buy_in = self.manager.table_settings(channel_id).default_buy_in
        try:
            await self.manager.top_up(channel_id, user_id, buy_in)
            self.rebuys += 1
        except NotEnoughChips:
            await self.manager.leave(channel_id, user_id)
            self.departures += 1

    def _send(self, request: Coroutine[Any, Any, Any]) -> None:
        """Run a request in its own task, as a Discord interaction would; count refusals."""

        async def send() -> None:
            try:
                await request
            except HoldemError as error:
                self.refusals[type(error).__name__] += 1

        task = asyncio.get_running_loop().create_task(send())
        self._requests.add(task)
        task.add_done_callback(self._requests.discard)


class LoopLagProbe:
    """A ticker that sleeps ``interval`` seconds at a time and records how late it wakes."""

    def __init__(self, interval: float = TICK_SECONDS) -> None:
        self.interval = interval
        self.lags: list[float] = []

    async def run(self) -> None:
        while True:
            due = time.perf_counter() + self.interval
            await asyncio.sleep(self.interval)
            self.lags.append(max(0.0, time.perf_counter() - due))


class ErrorLog(logging.Handler):
    """Counts error records from the bot's loggers and keeps one example of each message."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        reason = f"{record.name}: {record.msg}"  # the format string, so alike errors group
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            reason += f" [{type(error).__name__}: {error}]"
        self.counts[reason] += 1


@dataclass
class Measurement:
    """What one process measured in its window, before figures are taken over every process.

    ``granted`` is the chips the benchmark itself granted its people, to count chips lost."""

    tables: int
    seating_s: float
    seconds: float
    hands: int
    idle_tables: int
    cpu_seconds: float
    cpu_seconds_by_thread: dict[str, float]
    latencies: list[float]
    lags: list[float]
    transactions: int
    commits: int
    peak_kb: int
    setup_kb: int
    unsettled_hands: int
    errors: dict[str, int]
    refusals: dict[str, int]
    granted: int


@dataclass(frozen=True)
class Figures:
    """What one run measured; ``to_json`` has the keys in ``REQUIRED_KEYS`` and more."""

    tables: int
    processes: int
    database: str
    seating_s: float
    seconds: float
    hands: int
    hands_per_s: float
    idle_tables: int
    cpu_ms_per_hand: float
    machine_cpu_ms_per_hand: float
    machine_switches_per_hand: float
    cpu_busy: float
    cpu_ms_per_hand_by_thread: dict[str, float]
    load_average: float
    action_ms_p50: float
    action_ms_p99: float
    actions_measured: int
    loop_lag_ms_p50: float
    loop_lag_ms_p99: float
    loop_lag_ms_max: float
    ledger_tx_per_s: float
    commits_per_hand: float
    peak_mb: float
    setup_kb_per_table: float
    kb_per_table: float
    unsettled_hands: int
    errors: dict[str, int]
    refusals: dict[str, int]
    audit_ok: bool
    audit_problems: list[str]
    chips_lost: int

    @classmethod
    def combine(
        cls, parts: Sequence[Measurement], machine: MachineSample, audit: AuditReport,
        database: str,
    ) -> Figures:
        """The figures of processes that played side by side in one window on one ledger:
        sums, the longest window, percentiles over every sample, the peak of any process."""
        hands = sum(part.hands for part in parts)
        elapsed = max(part.seconds for part in parts)
        tables = sum(part.tables for part in parts)
        cpu = sum(part.cpu_seconds for part in parts)
        by_thread: dict[str, float] = {}
        for part in parts:
            for role, used in part.cpu_seconds_by_thread.items():
                by_thread[role] = by_thread.get(role, 0) + used
        latencies = [value for part in parts for value in part.latencies]
        lags = [value for part in parts for value in part.lags]
        errors: Counter[str] = Counter()
        refusals: Counter[str] = Counter()
        for part in parts:
            errors.update(part.errors)
            refusals.update(part.refusals)
        held = audit.totals.balances + audit.totals.house + audit.totals.escrow

        def per_hand(count: float, scale: float = 1.0) -> float:
            return round(count * scale / hands, 2) if hands else 0.0

        return cls(
            tables=tables,
            processes=len(parts),
            database=database,
            seating_s=round(max(part.seating_s for part in parts), 2),
            seconds=round(elapsed, 3),
            hands=hands,
            hands_per_s=round(hands / elapsed, 1),
            idle_tables=sum(part.idle_tables for part in parts),
            cpu_ms_per_hand=per_hand(cpu, 1e3),
            machine_cpu_ms_per_hand=per_hand(machine.busy_seconds, 1e3),
            machine_switches_per_hand=per_hand(machine.context_switches),
            cpu_busy=round(cpu / elapsed, 2),
            cpu_ms_per_hand_by_thread={
                role: per_hand(used, 1e3) for role, used in sorted(by_thread.items())
            },
            load_average=round(os.getloadavg()[0], 2),
            action_ms_p50=round(statistics.median(latencies) * 1e3, 2) if latencies else 0.0,
            action_ms_p99=round(percentile(latencies, 0.99) * 1e3, 2),
            actions_measured=len(latencies),
            loop_lag_ms_p50=round(statistics.median(lags) * 1e3, 2) if lags else 0.0,
            loop_lag_ms_p99=round(percentile(lags, 0.99) * 1e3, 2),
            loop_lag_ms_max=round(max(lags, default=0.0) * 1e3, 2),
            ledger_tx_per_s=round(sum(part.transactions for part in parts) / elapsed, 1),
            commits_per_hand=per_hand(sum(part.commits for part in parts)),
            peak_mb=round(max(part.peak_kb for part in parts) / 1024, 1),
            setup_kb_per_table=round(sum(part.setup_kb for part in parts) / tables, 1),
            kb_per_table=round(sum(part.peak_kb for part in parts) / tables, 1),
            unsettled_hands=sum(part.unsettled_hands for part in parts),
            errors=dict(errors.most_common()),
            refusals=dict(refusals),
            audit_ok=audit.ok,
            audit_problems=list(audit.problems),
            chips_lost=sum(part.granted for part in parts) - held,
        )

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def report(self) -> str:
        """The figures as lines of text for a terminal."""
        lines = [
            f"{self.tables:,} tables in {self.processes} process(es) on {self.database}"
            f" (seated in {self.seating_s:.1f} s) played for {self.seconds:.1f} s,"
            " all delays 0",
            f"hands settled:      {self.hands:,} = {self.hands_per_s:,.1f} hands/s in total"
            f" ({self.idle_tables} tables finished no hand)",
            f"CPU:                {self.cpu_ms_per_hand:.2f} ms per hand in the bot's"
            f" processes, {self.machine_cpu_ms_per_hand:.2f} ms machine-wide (database"
            f" server included); {self.cpu_busy:.2f} cores busy (machine load average"
            f" {self.load_average:.1f}); ms per hand by thread:"
            f" {self.cpu_ms_per_hand_by_thread}; {self.machine_switches_per_hand:,.1f} context"
            " switches per hand machine-wide",
            f"action latency:     median {self.action_ms_p50:.1f} ms, p99 {self.action_ms_p99:.1f}"
            f" ms ({self.actions_measured:,} actions)",
            f"event-loop lag:     median {self.loop_lag_ms_p50:.1f} ms, p99"
            f" {self.loop_lag_ms_p99:.1f} ms, max {self.loop_lag_ms_max:.1f} ms",
            f"ledger:             {self.ledger_tx_per_s:,.0f} calls/s, {self.commits_per_hand:.2f}"
            " database commits per hand",
            f"memory:             peak {self.peak_mb:,.1f} MB above baseline,"
            f" {self.kb_per_table:.1f} KB per table ({self.setup_kb_per_table:.1f} once seated)",
            f"hands not settled:  {self.unsettled_hands}",
            f"errors logged:      {sum(self.errors.values())}",
            *(f"  {count} x {reason}" for reason, count in self.errors.items()),
            f"refused requests:   {self.refusals}",
            f"audit ok:           {self.audit_ok} {self.audit_problems or ''}".rstrip(),
            f"chips lost:         {self.chips_lost}",
        ]
        return "\n".join(lines)


@dataclass(frozen=True)
class MachineSample:
    """What every process on the machine has used so far, from ``/proc/stat``, so that a
    database server's work is counted too: CPU seconds (all time but idle and iowait) and
    context switches (each costs CPU and cache, more so when processes outnumber cores)."""

    busy_seconds: float
    context_switches: int

    @classmethod
    def now(cls) -> MachineSample:
        lines = Path("/proc/stat").read_text().splitlines()
        ticks = [int(value) for value in lines[0].split()[1:]]
        idle = ticks[3] + ticks[4]
        (switches,) = (int(line.split()[1]) for line in lines if line.startswith("ctxt "))
        return cls((sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK"), switches)

    def __sub__(self, earlier: MachineSample) -> MachineSample:
        return MachineSample(self.busy_seconds - earlier.busy_seconds,
                             self.context_switches - earlier.context_switches)


async def seat_bots(
    manager: TableManager, guild_id: int, channel_id: int, levels: Sequence[str]
) -> None:
    """Open the table with bots of the given levels (bots alone do not start dealing)."""
    for level in levels:
        await manager.add_bots(guild_id, channel_id, level, 1)


async def seat_people(
    manager: TableManager, guild_id: int, channel_id: int, people: Sequence[int]
) -> None:
    """Seat the people; the first person's joining starts the dealing."""
    for user_id in people:
        await manager.join(guild_id, channel_id, user_id, f"person {user_id}")


async def count_unsettled(ledger: Ledger, hand_ids: Sequence[int]) -> int:
    """How many of the hands reported finished have no settled record in the ledger."""
    records = [await ledger.hand_history(hand_id) for hand_id in hand_ids]
    return sum(record is None for record in records)


@contextlib.contextmanager
def profiling(path: Path | None, timer: Callable[[], float] | None = None) -> Iterator[None]:
    """Profile the event loop's thread (cProfile) into ``path``, when one is given; by
    ``timer`` when given (``time.thread_time``: CPU, not waits), else wall-clock time."""
    if path is None:
        yield
        return
    profiler = cProfile.Profile() if timer is None else cProfile.Profile(timer)
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        profiler.dump_stats(path)


class Window(Protocol):
    """The measured seconds' edges: a single run samples the machine's CPU there, a worker
    of a multi-process run waits for its parent's signal to start and reports its end."""

    async def opening(self) -> None:
        """Called once every table is seated, just before measuring starts."""

    def closed(self) -> None:
        """Called as soon as the measured seconds are over."""


async def run(
    tables: int, seconds: float, seed: int, location: str | Path, window: Window,
    profile_path: Path | None = None, *, bots_inline: bool = False,
    shards: ShardSet | None = None, levels: Sequence[str] = LEVELS,
) -> Measurement:
    """Seat ``tables`` tables on the ledger at ``location``, play for ``seconds`` between the
    edges of ``window``, shut down; return what was measured (and the profile of the
    measured seconds in ``profile_path``, if given). Bots' simulating decisions run in a
    worker process, or on the event loop with ``bots_inline``; bots are of ``levels``, drawn
    at random. A worker of a multi-process run
    owns one of ``shards`` and plays in a guild on it, at channels of its own, as the bot's
    processes do (its start-up recovery then leaves the other workers' tables alone)."""
    shards = shards or ShardSet()
    (worker_index,) = shards.ids if shards.count > 1 else (0,)
    rng = random.Random(seed + worker_index)
    guild = GUILD + (worker_index << 22)  # on shard worker_index
    errors = ErrorLog()
    bot_logger = logging.getLogger("bot")
    bot_logger.addHandler(errors)
    ledger = await Ledger.open(location, starting_balance=STARTING_BALANCE)
    try:
        counting = CountingLedger(ledger)
        people = SimulatedPeople(random.Random(rng.getrandbits(64)))
        worker = None if bots_inline else BotWorker()
        manager = TableManager(counting, people, rng=random.Random(rng.getrandbits(64)),
                               default_settings=TableSettings.instant(), bot_worker=worker,
                               shards=shards)
        people.manager = manager
        await manager.start(resume=True)  # as the bot: every table keeps its state
        baseline_kb = peak_rss_kb()
        first = FIRST_CHANNEL + worker_index * tables
        channels = range(first, first + tables)
        mixed = [channel for channel in channels if channel % 2 == 0]
        seated_people = {
            channel: [channel * 10 + n for n in range(PEOPLE_PER_MIXED_TABLE)]
            for channel in mixed
        }
        seating_started = time.perf_counter()
        # Every table opens before any plays, so that opening is not measured under load.
        await asyncio.gather(*(
            seat_bots(manager, guild, channel, [
                rng.choice(levels)
                for _ in range(rng.randint(1, 4) if channel in seated_people else
                               rng.randint(2, 6))
            ])
            for channel in channels
        ))
        await asyncio.gather(*(
            seat_people(manager, guild, channel, people_ids)
            for channel, people_ids in seated_people.items()
        ))
        seating = time.perf_counter() - seating_started
        tune_garbage_collector()  # as the bot does once started
        setup_kb = peak_rss_kb() - baseline_kb
        await window.opening()
        bots_only = [asyncio.create_task(manager.run_hands(channel, 10**9))
                     for channel in channels if channel not in seated_people]
        probe = LoopLagProbe()
        ticker = asyncio.create_task(probe.run())
        people.reset_counts()
        counting.calls.clear()
        commits_started = ledger.transactions_committed
        started, cpu_started = time.perf_counter(), time.process_time()
        threads_started = thread_cpu_by_role()
        worker_started = process_cpu_seconds(worker.process_ids() if worker else ())
        with profiling(profile_path):
            await asyncio.sleep(seconds)
        elapsed, cpu_used = time.perf_counter() - started, time.process_time() - cpu_started
        window.closed()
        threads_used = thread_cpu_since(threads_started)
        if worker is not None:  # a worker started during the run counts from its start
            worker_used = process_cpu_seconds(worker.process_ids()) - worker_started
            threads_used["bot worker process"] = worker_used
            cpu_used += worker_used
        hands = sum(people.hands_by_table.values())
        measured = Measurement(
            tables=tables,
            seating_s=seating,
            seconds=elapsed,
            hands=hands,
            idle_tables=sum(people.hands_by_table[channel] == 0 for channel in channels),
            cpu_seconds=cpu_used,
            cpu_seconds_by_thread=threads_used,
            latencies=list(people.latencies),
            lags=list(probe.lags),
            transactions=sum(counting.calls.values()),
            commits=ledger.transactions_committed - commits_started,
            peak_kb=peak_rss_kb() - baseline_kb,
            setup_kb=setup_kb,
            unsettled_hands=0,
            errors={},
            refusals=dict(people.refusals),
            granted=STARTING_BALANCE * PEOPLE_PER_MIXED_TABLE * len(mixed),
        )
        ticker.cancel()
        for task in bots_only:
            task.cancel()
        await manager.shutdown()
        await people.wait_for_requests()
        measured.unsettled_hands = await count_unsettled(ledger, people.hand_ids)
    finally:
        await ledger.close()
        bot_logger.removeHandler(errors)
    measured.errors = dict(errors.counts.most_common())
    return measured


class SampledWindow:
    """A single run's window: what the machine used between its edges."""

    def __init__(self) -> None:
        self._opened = self.used = MachineSample(0.0, 0)

    async def opening(self) -> None:
        self._opened = MachineSample.now()

    def closed(self) -> None:
        self.used = MachineSample.now() - self._opened


class SignalledWindow:
    """A worker's window: it says READY and waits for GO on stdin, and says MEASURED when
    done, so that every worker measures the same seconds and the parent samples the CPU."""

    async def opening(self) -> None:
        print("READY", flush=True)
        line = await asyncio.to_thread(sys.stdin.readline)
        if line.strip() != "GO":
            raise SystemExit("the benchmark's parent went away before the start")

    def closed(self) -> None:
        print("MEASURED", flush=True)


async def audit_of(location: str | Path) -> AuditReport:
    """The ledger's audit once every process has shut down."""
    async with await Ledger.open(location) as ledger:
        return await ledger.audit()


def run_in_processes(arguments: argparse.Namespace, url: str) -> Figures:
    """Start ``--processes`` workers on the database at ``url``, each with its share of the
    tables, open their window together, and combine what they measured."""
    count: int = arguments.processes
    share = arguments.tables // count
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "benchmarks.tables", "--worker", str(index),
             "--processes", str(count), "--tables", str(share), "--seconds", str(arguments.seconds),
             "--seed", str(arguments.seed), "--database-url", url,
             *(["--bots-inline"] if arguments.bots_inline else []),
             "--levels", ",".join(arguments.levels),
             *(["--profile", str(arguments.profile)] if arguments.profile else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        for index in range(count)
    ]  # fmt: skip
    try:
        for worker in workers:
            expect(worker, "READY")
        opened = MachineSample.now()
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("GO\n")
            worker.stdin.flush()
        for worker in workers:
            expect(worker, "MEASURED")
        used = MachineSample.now() - opened
        parts = []
        for worker in workers:
            assert worker.stdout is not None
            parts.append(Measurement(**json.loads(worker.stdout.readline())))
            worker.wait(timeout=60)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    audit = asyncio.run(audit_of(url))
    return Figures.combine(parts, used, audit, "PostgreSQL")


def expect(worker: subprocess.Popen[str], marker: str) -> None:
    """Read the worker's next line; it must be ``marker``."""
    assert worker.stdout is not None
    line = worker.stdout.readline().strip()
    if line != marker:
        raise SystemExit(f"a benchmark worker said {line!r} instead of {marker}")


def worker_profile(path: Path | None, worker: int) -> Path | None:
    """Where worker ``worker`` of a multi-process run writes its profile: ``path`` + ``.N``."""
    return None if path is None else path.with_name(f"{path.name}.{worker}")


def bot_levels(text: str) -> tuple[str, ...]:
    """``--levels``: levels a table offers, separated by commas.

    >>> bot_levels("easy,hard")
    ('easy', 'hard')
    """
    levels = tuple(level.strip() for level in text.split(","))
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels:
        raise argparse.ArgumentTypeError(f"not a level: {', '.join(unknown) or repr(text)} "
                                         f"(levels: {', '.join(LEVELS)})")
    return levels


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=positive(int), default=1_000)
    parser.add_argument("--seconds", type=positive(float), default=60.0)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--bots-inline", action="store_true",
                        help="bots decide on the event loop instead of in a worker process"
                             " (the bot's BOT_WORKER=off)")
    parser.add_argument("--levels", type=bot_levels, default=LEVELS, metavar="LEVEL,...",
                        help="the bots' levels, drawn at random (default: every level a table"
                             " offers); an older commit's levels compare the same work")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write a cProfile of the measured seconds (event-loop thread);"
                             " with --processes, worker N writes FILE.N")
    parser.add_argument("--database-url", metavar="URL",
                        help="play on a fresh database created (and dropped) on this"
                             " PostgreSQL server, instead of a temporary SQLite file")
    parser.add_argument("--processes", type=positive(int), default=1,
                        help="split the tables among this many processes (PostgreSQL only)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.processes > 1 and not arguments.database_url:
        parser.error("--processes above 1 needs --database-url: processes share PostgreSQL")
    if arguments.tables < arguments.processes:
        parser.error("every process needs at least one table")
    return arguments


def positive(kind: Callable[[str], float]) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` that must be more than 0."""

    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value

    return convert


def main(argv: Sequence[str] | None = None) -> Figures | None:
    """Run the benchmark from the command line; print and return the figures (a worker of a
    multi-process run prints its measurement instead, for its parent)."""
    arguments = parse_arguments(argv)
    if arguments.worker is not None:
        measured = asyncio.run(run(arguments.tables, arguments.seconds, arguments.seed,
                                   arguments.database_url, SignalledWindow(),
                                   worker_profile(arguments.profile, arguments.worker),
                                   bots_inline=arguments.bots_inline, levels=arguments.levels,
                                   shards=ShardSet(arguments.processes, (arguments.worker,))))
        print(json.dumps(asdict(measured)), flush=True)
        return None
    if arguments.database_url:
        with fresh_postgres_database(arguments.database_url) as url:
            if arguments.processes > 1:
                figures = run_in_processes(arguments, url)
            else:
                figures = run_here(arguments, url, "PostgreSQL")
    else:
        with tempfile.TemporaryDirectory(prefix="holdem-tables-") as directory:
            figures = run_here(arguments, Path(directory) / "tables.sqlite3", "SQLite")
    print(figures.to_json() if arguments.json else figures.report())
    return figures


def run_here(arguments: argparse.Namespace, location: str | Path, database: str) -> Figures:
    """Play every table in this process and take the figures."""
    window = SampledWindow()
    measured = asyncio.run(run(arguments.tables, arguments.seconds, arguments.seed, location,
                               window, arguments.profile, bots_inline=arguments.bots_inline,
                               levels=arguments.levels))
    audit = asyncio.run(audit_of(location))
    return Figures.combine([measured], window.used, audit, database)


@contextlib.contextmanager
def fresh_postgres_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server ``server_url`` names (its user must be allowed to
    create databases), dropped afterwards: a run never meets an earlier run's chips."""
    name = f"holdem_bench_{os.getpid()}"
    asyncio.run(_administer(server_url, f"CREATE DATABASE {name}"))
    try:
        yield urlsplit(server_url)._replace(path=f"/{name}").geturl()
    finally:
        asyncio.run(_administer(server_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


async def _administer(server_url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main(sys.argv[1:])

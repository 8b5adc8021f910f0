"""The whole bot's cost per hand: the real bot process against the fake Discord on 127.0.0.1.

The bot runs in a process of its own, started as ``python -m bot`` starts it (through
``benchmarks.bot_probe``, which adds only a loop-lag probe and the window's signals), on a
fresh SQLite ledger, talking real HTTP and a real gateway websocket to the project's fake
Discord (``tests.fake_discord``), which runs in this process. One server, one channel per
table, at each table two simulated people who seat themselves with ``/join`` and a bot with
``/addbot``; the tables keep the bot's default settings (5 s between hands, bots think 1-3 s).
People act as a Discord client would: when the live table message shows "<@them> to act" they
press its buttons (mostly check or call, some folds, bets and raises through the amount form)
and wait for the answer. Busted people ``/join`` again.

    python -m benchmarks.discord --tables 50 --seconds 60
    python -m benchmarks.discord --tables 50 --seconds 60 --no-images --json
    python -m benchmarks.discord --tables 50 --seconds 30 --profile bot.prof

Figures, over the measured seconds (opened once every table has dealt its first hand): hands
finished and hands/s; CPU per hand of the bot process (``/proc``), split into its event-loop
thread, its other threads (the ledger's SQLite thread; images too with PICTURE_WORKER=off),
its bot worker process and its picture worker process;
the CPU of this process (the fake Discord and the simulated people) and of the machine;
Discord requests per hand by kind, those that count against the global rate limit, and bytes
uploaded per hand (request bodies, and of them attached files); click-to-answer latency for
actions and for opening the amount form, the share of clicks answered by a deferral, clicks
not answered within Discord's 3 s; the bot's event-loop lag; error lines the bot logged.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import asdict, astuple, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.bot_probe import (
    CLOSE_WINDOW,
    FIGURES_VARIABLE,
    OPEN_WINDOW,
    PROFILE_VARIABLE,
)
from benchmarks.tables import MachineSample, percentile, positive, process_cpu_seconds
from bot.render.pictures import PROCESS_NAME as PICTURES_NAME
from engine.strategies import LEVELS
from tests.fake_discord import (
    CallKind,
    FakeDiscord,
    InteractionRecord,
    InteractionRefused,
    NotAnswered,
    StoredMessage,
)
from tests.fake_discord.records import FakeGuild

ROOT = Path(__file__).resolve().parents[1]
ANSWER_DEADLINE = 3.0
"""Discord's: an interaction not acknowledged within 3 s fails ("Unknown interaction")."""
READY_TIMEOUT = 60.0
FIRST_DEAL_TIMEOUT = 60.0
"""How long every table may take to deal its first hand before the window opens anyway."""
MIN_HANDS_TIMEOUT = 120.0
"""How far past ``--seconds`` the window may stretch to see ``--min-hands`` hands and
``--min-actions`` answered actions."""
SEATING_CONCURRENCY = 4
"""Tables seated at once: a real start-up does not see 50 tables sit down in one instant."""
RAISE_SHARE, FOLD_SHARE = 0.12, 0.18
"""A person bets or raises (through the form) this often when allowed, and folds this often
to a bet; otherwise checks or calls (the same shares as ``benchmarks.tables``)."""
TURN = re.compile(r"<@(\d+)> to act")
RESULT = re.compile(r"Hand #(\d+) result")
FORM_RANGE = re.compile(r"\((\d[\d,]*) to (\d[\d,]*) chips\)")
TABLE_BUTTON = re.compile(r"holdem:(\w+):(\d+):(\d+)")
REQUIRED_KEYS = ("hands", "hands_per_s", "bot_cpu_ms_per_hand", "bot_cpu_ms_per_hand_by_part",
                 "fake_cpu_ms_per_hand", "requests_per_hand", "global_limited_per_hand",
                 "upload_kb_per_hand", "action_ms_p50", "action_ms_p99", "form_ms_p50",
                 "form_ms_p99", "deferred_share", "unanswered_in_3s", "loop_lag_ms_p50",
                 "loop_lag_ms_p99", "loop_lag_ms_max", "bot_errors")


@dataclass
class Table:
    """One channel's table as its people see it: the live table message, as it is now."""

    channel_id: int
    people: tuple[int, int]
    message: StoredMessage | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    results: set[int] = field(default_factory=set)
    dealt: bool = False
    rejoined_after: dict[int, int] = field(default_factory=dict)


@dataclass
class Clicks:
    """What people felt: seconds from each click to its answer, and how clicks ended."""

    action_s: list[float] = field(default_factory=list)
    form_s: list[float] = field(default_factory=list)
    answered: int = 0
    deferred: int = 0
    unanswered: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)


class People:
    """The simulated people of every table. The fake tells them of every message the bot
    creates or edits; each table's task reads its live message and, on a person's turn,
    clicks as that person."""

    def __init__(self, fake: FakeDiscord, tables: Sequence[Table], rng: random.Random) -> None:
        self.fake = fake
        self.tables = {table.channel_id: table for table in tables}
        self.rng = rng
        self.clicks = Clicks()
        self.hands_finished: list[float] = []
        """When each hand's result first showed (``time.perf_counter()``)."""
        self.stopped = False
        fake.world.message_listeners.append(self.heard)

    def stop(self) -> None:
        """End every ``play``. Cancelling alone was not enough: three runs hung for good after
        their window, the bot idle and never told to stop, waiting for the cancelled players
        (Python 3.11's ``asyncio.wait_for`` may swallow a cancellation that meets its end)."""
        self.stopped = True
        for table in self.tables.values():
            table.changed.set()

    def heard(self, message: StoredMessage) -> None:
        table = self.tables.get(message.channel_id)
        if table is None or message.is_ephemeral:
            return
        buttons = [TABLE_BUTTON.fullmatch(custom_id) for custom_id in message.custom_ids()]
        hands = {int(match[2]) for match in buttons if match and match[1] == "fold"}
        if not hands:
            return  # not a table message
        table.message = message
        table.dealt = table.dealt or any(hands)
        for embed in message.embeds:
            for embed_field in embed.get("fields", []):
                result = RESULT.fullmatch(embed_field.get("name", ""))
                if result and int(result[1]) not in table.results:
                    table.results.add(int(result[1]))
                    self.hands_finished.append(time.perf_counter())
        table.changed.set()

    async def play(self, table: Table) -> None:
        """Act at ``table`` whenever its message shows one of its people to act."""
        acted: set[tuple[str, str]] = set()
        while not self.stopped:
            await table.changed.wait()
            table.changed.clear()
            message = table.message
            if message is None:
                continue
            await self._rejoin_busted(table, message)
            turn = _turn(message)
            if turn is None or turn[0] not in table.people:
                continue
            user, buttons = turn
            key = next(iter(buttons.values()))
            if key in acted:
                continue
            acted.add(key)
            await self._take_turn(user, message, buttons)

    async def _take_turn(self, user: int, message: StoredMessage,
                         buttons: dict[str, tuple[str, str]]) -> None:
        roll = self.rng.random()
        hand, turn = next(iter(buttons.values()))

        def button(action: str) -> str:
            return f"holdem:{action}:{hand}:{turn}"

        if "bet" in buttons and roll < RAISE_SHARE:
            form = await self._click(self.clicks.form_s,
                                     self.fake.click(user, message.id, button("bet")))
            if form is not None and form.modal is not None:
                await self._click(self.clicks.action_s, self.fake.submit_modal(
                    user, form.modal["custom_id"], {"amount": self._amount(form.modal)}))
            return
        if "check" in buttons:
            action = "check"
        elif roll < RAISE_SHARE + FOLD_SHARE or "call" not in buttons:
            action = "fold"
        else:
            action = "call"
        await self._click(self.clicks.action_s, self.fake.click(user, message.id, button(action)))

    def _amount(self, modal: dict[str, Any]) -> str:
        """A bet from the form's range: the minimum up to three times it."""
        found = FORM_RANGE.search(json.dumps(modal))
        if found is None:
            return "0"  # refused with an explanation, and counted
        low, high = (int(number.replace(",", "")) for number in found.groups())
        return str(self.rng.randint(low, max(low, min(high, 3 * low))))

    async def _click(self, latencies: list[float],
                     answer: Awaitable[InteractionRecord]) -> InteractionRecord | None:
        """Send one interaction and wait for its answer; record how long it took and how it
        ended (a stale button, one the message no longer has, is refused by the fake)."""
        clicks = self.clicks
        started = time.perf_counter()
        try:
            record = await answer
        except NotAnswered:
            clicks.unanswered += 1
            return None
        except (InteractionRefused, LookupError):
            clicks.outcomes["stale"] += 1
            return None
        latencies.append(time.perf_counter() - started)
        clicks.answered += 1
        clicks.deferred += record.deferred
        clicks.outcomes[{4: "message", 5: "deferred message", 6: "deferred update",
                         7: "update", 9: "form"}.get(record.response_type or 0, "other")] += 1
        return record

    async def _rejoin_busted(self, table: Table, message: StoredMessage) -> None:
        """A person the seats no longer list (busted, cashed out) sits down again, once per
        hand result."""
        seats = " ".join(embed_field.get("value", "") for embed in message.embeds
                         for embed_field in embed.get("fields", [])
                         if embed_field.get("name", "").startswith("Seats"))
        latest = max(table.results, default=0)
        for person in table.people:
            if f"<@{person}>" not in seats and table.rejoined_after.get(person) != latest:
                table.rejoined_after[person] = latest
                with contextlib.suppress(NotAnswered, InteractionRefused):
                    await self.fake.slash(person, table.channel_id, "join")


def _turn(message: StoredMessage) -> tuple[int, dict[str, tuple[str, str]]] | None:
    """Who the message shows to act, and its enabled turn buttons (action: hand, turn)."""
    for embed in message.embeds:
        for embed_field in embed.get("fields", []):
            to_act = TURN.match(embed_field.get("value", ""))
            if to_act is None:
                continue
            buttons = {}
            for component in message.walk_components():
                button = TABLE_BUTTON.fullmatch(component.get("custom_id", ""))
                if button and not component.get("disabled"):
                    buttons[button[1]] = (button[2], button[3])
            return (int(to_act[1]), buttons) if buttons else None
    return None


@dataclass(frozen=True)
class BotCpu:
    """CPU seconds a bot process has used so far, by part (from ``/proc``)."""

    event_loop: float
    other_threads: float
    bot_worker: float
    picture_worker: float

    @classmethod
    def of(cls, pid: int) -> BotCpu:
        loop = _thread_seconds(pid, pid)  # the main thread runs the event loop
        workers = _descendants(pid)
        pictures = [worker for worker in workers if _process_name(worker) == PICTURES_NAME]
        return cls(loop, process_cpu_seconds([pid]) - loop,
                   process_cpu_seconds([worker for worker in workers
                                        if worker not in pictures]),
                   process_cpu_seconds(pictures))

    def __sub__(self, earlier: BotCpu) -> BotCpu:
        return BotCpu(*(mine - theirs for mine, theirs in zip(
            astuple(self), astuple(earlier), strict=True)))


def _process_name(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return ""


def _thread_seconds(pid: int, tid: int) -> float:
    """CPU seconds of one thread, to the nanosecond (``schedstat``'s time on a CPU)."""
    with contextlib.suppress(OSError):
        return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]) / 1e9
    return 0.0


def _descendants(pid: int) -> list[int]:
    """Every process started by ``pid``, and by those, from ``/proc/*/task/*/children``."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                pending += [int(child) for child in children.read_text().split()]
        if parent != pid:
            found.append(parent)
    return found


@dataclass
class BotProcess:
    """``python -m benchmarks.bot_probe`` (the bot's own start-up) and its log lines."""

    process: asyncio.subprocess.Process
    figures: Path
    lines: list[str] = field(default_factory=list)
    logged_in: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, fake: FakeDiscord, directory: Path, *, images: bool,
                    profile: Path | None) -> BotProcess:
        environ = {
            **{name: value for name, value in os.environ.items()
               if not name.startswith(("SHARD_", "DISCORD_", "DATABASE_", "BENCH_", "DEV_"))},
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "DISCORD_TOKEN": "fake-token", "DISCORD_API_BASE": fake.api_base,
            "DATABASE_PATH": str(directory / "holdem.sqlite3"), "LOG_LEVEL": "INFO",
            FIGURES_VARIABLE: str(directory / "figures.json"),
            "IMAGES": "on" if images else "off",
            **({PROFILE_VARIABLE: str(profile.resolve())} if profile else {}),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "benchmarks.bot_probe", env=environ, cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        started = cls(process, directory / "figures.json")
        started.reader = asyncio.create_task(started._read())
        return started

    async def _read(self) -> None:
        """Keep the log lines; the first 'logged in' line says the bot is ready."""
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace").rstrip("\n"))
            if "logged in as" in self.lines[-1]:
                self.logged_in.set()

    async def ready(self) -> None:
        """Wait until the bot has logged in; it must not exit first."""
        logged_in = asyncio.ensure_future(self.logged_in.wait())
        exited = asyncio.ensure_future(self.process.wait())
        await asyncio.wait({logged_in, exited}, timeout=READY_TIMEOUT,
                           return_when=asyncio.FIRST_COMPLETED)
        logged_in.cancel()
        exited.cancel()
        if not self.logged_in.is_set():
            raise SystemExit("the bot did not log in:\n" + "\n".join(self.lines))

    def signal(self, sig: signal.Signals) -> None:
        self.process.send_signal(sig)

    async def lags(self) -> list[float]:
        """The loop-lag samples of the window, once the bot has written them."""
        async with asyncio.timeout(30):
            while not self.figures.exists():
                await asyncio.sleep(0.02)
        lags: list[float] = json.loads(self.figures.read_text())["lags"]
        return lags

    async def stop(self) -> None:
        """A clean shutdown (SIGINT: the tables refund and close), killed if it hangs."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self.reader is not None:
            await self.reader


@dataclass(frozen=True)
class Figures:
    """What one run measured; ``to_json`` has the keys in ``REQUIRED_KEYS`` and more."""

    tables: int
    images: bool
    seconds: float
    hands: int
    hands_per_s: float
    bot_cpu_ms_per_hand: float
    bot_cpu_ms_per_hand_by_part: dict[str, float]
    bot_cores_busy: float
    fake_cpu_ms_per_hand: float
    machine_cpu_ms_per_hand: float
    load_average: float
    requests_per_hand: dict[str, float]
    global_limited_per_hand: float
    upload_kb_per_hand: float
    upload_file_kb_per_hand: float
    action_ms_p50: float
    action_ms_p99: float
    actions_measured: int
    form_ms_p50: float
    form_ms_p99: float
    forms_measured: int
    deferred_share: float
    unanswered_in_3s: int
    late_answers_refused: int
    click_outcomes: dict[str, int]
    loop_lag_ms_p50: float
    loop_lag_ms_p99: float
    loop_lag_ms_max: float
    bot_errors: dict[str, int]

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def report(self) -> str:
        """The figures as lines of text for a terminal."""
        kinds = ", ".join(f"{kind} {count:.2f}" for kind, count in self.requests_per_hand.items())
        return "\n".join([
            f"{self.tables:,} tables (2 people + 1 bot each), images"
            f" {'on' if self.images else 'off'}, measured for {self.seconds:.1f} s",
            f"hands finished:     {self.hands:,} = {self.hands_per_s:.2f} hands/s",
            f"bot CPU per hand:   {self.bot_cpu_ms_per_hand:.1f} ms"
            f" {self.bot_cpu_ms_per_hand_by_part}; {self.bot_cores_busy:.2f} cores busy",
            f"other CPU per hand: fake Discord + people {self.fake_cpu_ms_per_hand:.1f} ms,"
            f" machine-wide {self.machine_cpu_ms_per_hand:.1f} ms (load average"
            f" {self.load_average:.1f}: other work on the machine counts there too)",
            f"requests per hand:  {kinds}",
            f"global-limited:     {self.global_limited_per_hand:.2f} per hand",
            f"uploaded per hand:  {self.upload_kb_per_hand:.1f} KB"
            f" ({self.upload_file_kb_per_hand:.1f} KB of it files)",
            f"click -> answer:    actions p50 {self.action_ms_p50:.1f} ms, p99"
            f" {self.action_ms_p99:.1f} ms ({self.actions_measured:,}); amount form p50"
            f" {self.form_ms_p50:.1f} ms, p99 {self.form_ms_p99:.1f} ms ({self.forms_measured:,})",
            f"clicks:             {self.deferred_share:.1%} deferred,"
            f" {self.unanswered_in_3s} not answered within 3 s, {self.late_answers_refused}"
            f" late answers refused; {self.click_outcomes}",
            f"event-loop lag:     p50 {self.loop_lag_ms_p50:.1f} ms, p99"
            f" {self.loop_lag_ms_p99:.1f} ms, max {self.loop_lag_ms_max:.1f} ms",
            f"bot errors logged:  {sum(self.bot_errors.values())}",
            *(f"  {count} x {line}" for line, count in self.bot_errors.items()),
        ])


def _ms(values: Sequence[float], share: float) -> float:
    return round(percentile(values, share) * 1e3, 1)


async def seat(fake: FakeDiscord, table: Table, level: str) -> None:
    """Two people sit down, one of them seats a bot and deals at once (rather than after
    the delay between hands); each step retried while the bot is busy starting (an answer
    later than 3 s)."""
    first, second = table.people
    steps = [(first, "join", {}), (second, "join", {}), (first, "addbot", {"level": level}),
             (first, "start", {})]
    for person, command, options in steps:
        for _ in range(3):
            with contextlib.suppress(NotAnswered):
                await fake.slash(person, table.channel_id, command, **options)
                break


async def wait_for(condition: Callable[[], bool], timeout: float) -> None:
    """Wait until ``condition()`` holds, or ``timeout`` seconds pass."""
    deadline = time.perf_counter() + timeout
    while not condition() and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)


async def run(tables: int, seconds: float, seed: int, *, images: bool,
              profile: Path | None = None, min_hands: int = 0, min_actions: int = 0) -> Figures:
    """Start the fake Discord and the bot, seat ``tables`` tables, measure for ``seconds``
    (longer, up to ``MIN_HANDS_TIMEOUT`` more, until ``min_hands`` hands have finished and
    ``min_actions`` action clicks were answered: a short window can see a hand end without
    a click of its own, the bot acting last)."""
    rng = random.Random(seed)
    logging.getLogger("tests.fake_discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="holdem-discord-bench-") as directory:
        async with FakeDiscord(interaction_deadline=ANSWER_DEADLINE,
                               answer_timeout=ANSWER_DEADLINE + 0.5) as fake:
            guild = benchmark_guild(fake, tables)
            async with tables_at_play(fake, guild, tables, Path(directory), rng, images=images,
                                      profile=profile) as (bot, people, _):
                return await measure(fake, bot, people, seconds, min_hands, min_actions,
                                     images)


def benchmark_guild(fake: FakeDiscord, tables: int) -> FakeGuild:
    """The guild the benchmarks play in: one channel per table, ``table-0`` and on."""
    return fake.add_guild("Benchmark", channels=[f"table-{n}" for n in range(tables)])


@contextlib.asynccontextmanager
async def tables_at_play(
    fake: FakeDiscord, guild: FakeGuild, tables: int, directory: Path, rng: random.Random, *,
    images: bool, profile: Path | None,
) -> AsyncIterator[tuple[BotProcess, People, list[Table]]]:
    """The bot started on a ledger in ``directory``, two people seated at each of the
    guild's ``tables`` tables with a bot of a random level, every table dealt and the people
    playing; the people stopped and the bot stopped on leaving."""
    seated = [Table(guild.channel(f"table-{n}"),
                    (fake.add_user(f"p{n}a"), fake.add_user(f"p{n}b")))
              for n in range(tables)]
    people = People(fake, seated, random.Random(rng.getrandbits(64)))
    bot = await BotProcess.start(fake, directory, images=images, profile=profile)
    playing: list[asyncio.Task[None]] = []
    try:
        await bot.ready()
        limit = asyncio.Semaphore(SEATING_CONCURRENCY)

        async def seat_one(table: Table) -> None:
            async with limit:
                await seat(fake, table, rng.choice(LEVELS))

        await asyncio.gather(*(seat_one(table) for table in seated))
        playing = [asyncio.create_task(people.play(table)) for table in seated]
        await wait_for(lambda: all(table.dealt for table in seated), FIRST_DEAL_TIMEOUT)
        yield bot, people, seated
    finally:
        people.stop()
        for task in playing:
            task.cancel()
        if playing:  # a click in flight ends within the fake's answer timeout
            await asyncio.wait(playing, timeout=2 * ANSWER_DEADLINE)
        await bot.stop()


async def measure(fake: FakeDiscord, bot: BotProcess, people: People, seconds: float,
                  min_hands: int, min_actions: int, images: bool) -> Figures:
    """The window: every figure is the difference between its edges."""
    pid = bot.process.pid
    bot.signal(OPEN_WINDOW)
    opened_at, called_since = time.perf_counter(), fake.now()
    machine, bot_cpu, own_cpu = MachineSample.now(), BotCpu.of(pid), time.process_time()
    people.clicks = Clicks()
    finished_before = len(people.hands_finished)
    await asyncio.sleep(seconds)
    await wait_for(lambda: len(people.hands_finished) - finished_before >= min_hands
                   and len(people.clicks.action_s) >= min_actions, MIN_HANDS_TIMEOUT)
    elapsed = time.perf_counter() - opened_at
    bot_used, own_used = BotCpu.of(pid) - bot_cpu, time.process_time() - own_cpu
    machine_used = MachineSample.now() - machine
    bot.signal(CLOSE_WINDOW)
    calls = [call for call in fake.calls if call.time >= called_since]
    clicks = people.clicks
    lags = await bot.lags()
    hands = len(people.hands_finished) - finished_before

    def per_hand(amount: float) -> float:
        return round(amount / hands, 2) if hands else 0.0

    parts = asdict(bot_used)
    kinds = Counter(call.kind.value for call in calls)
    errors = Counter(line.partition("] ")[2][:160] for line in bot.lines if "[ERROR" in line)
    return Figures(
        tables=len(people.tables),
        images=images,
        seconds=round(elapsed, 2),
        hands=hands,
        hands_per_s=round(hands / elapsed, 2),
        bot_cpu_ms_per_hand=per_hand(sum(parts.values()) * 1e3),
        bot_cpu_ms_per_hand_by_part={name.replace("_", " "): per_hand(used * 1e3)
                                     for name, used in parts.items()},
        bot_cores_busy=round(sum(parts.values()) / elapsed, 2),
        fake_cpu_ms_per_hand=per_hand(own_used * 1e3),
        machine_cpu_ms_per_hand=per_hand(machine_used.busy_seconds * 1e3),
        load_average=round(os.getloadavg()[0], 2),
        requests_per_hand={kind: per_hand(count) for kind, count in kinds.most_common()},
        global_limited_per_hand=per_hand(sum(call.global_limited for call in calls)),
        upload_kb_per_hand=per_hand(sum(call.size for call in calls) / 1024),
        upload_file_kb_per_hand=per_hand(
            sum(len(data) for call in calls for _, data in call.files) / 1024),
        action_ms_p50=_ms(clicks.action_s, 0.5),
        action_ms_p99=_ms(clicks.action_s, 0.99),
        actions_measured=len(clicks.action_s),
        form_ms_p50=_ms(clicks.form_s, 0.5),
        form_ms_p99=_ms(clicks.form_s, 0.99),
        forms_measured=len(clicks.form_s),
        deferred_share=round(clicks.deferred / clicks.answered, 3) if clicks.answered else 0.0,
        unanswered_in_3s=clicks.unanswered,
        late_answers_refused=sum(call.kind is CallKind.INTERACTION_RESPONSE
                                 and call.status == 404 for call in calls),
        click_outcomes=dict(clicks.outcomes.most_common()),
        loop_lag_ms_p50=_ms(lags, 0.5),
        loop_lag_ms_p99=_ms(lags, 0.99),
        loop_lag_ms_max=round(max(lags, default=0.0) * 1e3, 1),
        bot_errors=dict(errors.most_common()),
    )


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=positive(int), default=50)
    parser.add_argument("--seconds", type=positive(float), default=60.0)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-images", dest="images", action="store_false",
                        help="run the bot with table and card images off (its IMAGES=off)")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write a cProfile of the bot's event-loop thread over the"
                             " measured seconds")
    parser.add_argument("--min-hands", type=int, default=0, metavar="N",
                        help="keep measuring past --seconds until N hands have finished"
                             f" (at most {MIN_HANDS_TIMEOUT:g} s more)")
    parser.add_argument("--min-actions", type=int, default=0, metavar="N",
                        help="keep measuring past --seconds until N action clicks were"
                             " answered (within the same limit)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> Figures:
    """Run the benchmark from the command line; print and return the figures."""
    arguments = parse_arguments(argv)
    figures = asyncio.run(run(arguments.tables, arguments.seconds, arguments.seed,
                              images=arguments.images, profile=arguments.profile,
                              min_hands=arguments.min_hands,
                              min_actions=arguments.min_actions))
    print(figures.to_json() if arguments.json else figures.report())
    return figures


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main(sys.argv[1:])

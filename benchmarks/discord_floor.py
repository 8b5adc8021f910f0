"""The floor under the bot's Discord cost: a hand's requests and gateway events, no bot behind.

    python -m benchmarks.discord_floor                    # both clients, 50 tables, 30 s
    python -m benchmarks.discord_floor --client raw --json

``benchmarks.discord`` measures the whole bot. This measures what the same Discord traffic
costs a client that does nothing else, so that the bot's own share can be told from the
part no code of the bot can remove. The fake Discord runs in this process, a client in a
process of its own; each of N channels has one table message, whose button one person
clicks at the pace of the whole-bot run at 50 tables (``--hands-per-second`` hands, each of
``--answers`` clicks). The client answers every click with the same table edit, built once
by the bot's own ``table_embed`` and ``table_components`` (UPDATE_MESSAGE), and in the
proportions of a hand (``--token-edits``, ``--dms``; the defaults are the whole-bot run's)
edits the message through the click's token and sends a hole-card DM, as text: the
requests of a hand without images. No poker, no embed built per request, no picture, no
database. Two clients, run in turn:

- ``bot``: the bot's own path: discord.py's gateway and ``Interaction``, ``direct_edits``'
  answer and token edit, DMs through discord.py as the notifier sends them.
- ``raw``: discord.py's gateway connection alone: interaction events are read as the
  gateway's JSON (discord.py's parser for them replaced) and every request is written with
  aiohttp directly: a hand's traffic with no discord.py object on its way.

Figures, over the measured seconds: clicks/s, hands (clicks ÷ ``--answers``), the client's
CPU per hand in its event-loop thread and its other threads (``/proc``), Discord requests
per hand by kind, bytes uploaded per hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route

from benchmarks.discord import ROOT, BotCpu
from benchmarks.tables import positive
from bot.discord_ui.app import connect_through
from bot.discord_ui.direct_edits import TableEdit, answer_with_table, edit_through_token
from bot.discord_ui.embeds import hole_cards_text, table_embed
from bot.discord_ui.views.table_controls import table_components
from bot.i18n.poker import action_text
from bot.tables.notifier import PotState, TableState
from engine.actions import ActionKind, Street
from engine.cards import parse_cards
from engine.view import ActionRecord
from tests.fake_discord import CallKind, FakeDiscord, StoredMessage
from tests.table_states import seat_state, table_state

CLIENTS = ("bot", "raw")
API_VARIABLE, MIX_VARIABLE = "FLOOR_API_BASE", "FLOOR_MIX"
TOKEN = "fake-token"
READY_LINE = "floor client ready"
WARM_UP_TIMEOUT = 120.0
"""The window opens once every person's DM channel is open, within this many seconds."""
REQUIRED_KEYS = ("client", "tables", "seconds", "clicks_per_s", "hands",
                 "client_cpu_ms_per_hand", "client_cpu_ms_per_hand_by_part",
                 "requests_per_hand", "upload_kb_per_hand")


def hand_on_the_flop() -> TableState:
    """A hand on the flop at a table of two people and a bot, a person to act."""
    seats = (seat_state(0, "Ann", 1100000000001179657, stack=1_940, bet=40, is_button=True),
             seat_state(1, "Bob", 1100000000001179658, stack=1_980, bet=0),
             seat_state(2, "Pip", None, stack=1_960, bet=40))
    bet = ActionRecord(2, Street.FLOP, ActionKind.BET, 40, 40, False)
    state = table_state(street=Street.FLOP, board="Qh Jc Td", seats=seats, to_act_seat=1,
                        pots=(PotState(120, (0, 1, 2)),), hand_number=12, hand_id=12,
                        last_action=action_text("Pip", bet))
    return state


def table_edit(state: TableState) -> TableEdit:
    """The embed and buttons the bot sends for ``state``'s table message, without a
    picture."""
    return TableEdit(table_embed(state).to_dict(), table_components(state))


@dataclass
class Mix:
    """How many token edits and DMs go with each click answered: fractions carried over from
    click to click, so that a hand's clicks make its whole share."""

    token_edits: float
    dms: float
    _edits_owed: float = 0.0
    _dms_owed: float = 0.0

    def next_click(self) -> tuple[int, int]:
        """The token edits and DMs that go with the next click."""
        self._edits_owed += self.token_edits
        self._dms_owed += self.dms
        edits, dms = int(self._edits_owed), int(self._dms_owed)
        self._edits_owed -= edits
        self._dms_owed -= dms
        return edits, dms


class FloorClient(discord.Client):
    """Answers every click on its table messages, through the bot's own path (``raw=False``)
    or straight through aiohttp from the gateway's JSON (``raw=True``)."""

    def __init__(self, api_base: str, mix: Mix, *, raw: bool) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.01,
                         allowed_mentions=discord.AllowedMentions.none())
        self.api_base = api_base
        self.mix = mix
        self.raw = raw
        state = hand_on_the_flop()
        self.edit = table_edit(state)
        self.dm_text = hole_cards_text(state, parse_cards("8s Kh"))  # as sent without images
        self.dm_channels: dict[int, int] = {}
        self.session: aiohttp.ClientSession | None = None
        self.answering: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        if self.raw:
            self.session = aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"})
            self._connection.parsers["INTERACTION_CREATE"] = self._raw_interaction

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
        await super().close()

    async def on_ready(self) -> None:
        """Post one table message in every channel, then say so on stdout."""
        for guild in self.guilds:
            for channel in guild.text_channels:
                await self.http.request(
                    Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
                    json={"embeds": [self.edit.embed], "components": self.edit.components})
        print(READY_LINE, flush=True)

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        """The bot's own path (the raw client's parser never hands discord.py the event)."""
        await answer_with_table(interaction, self.edit)
        edits, dms = self.mix.next_click()
        for _ in range(edits):
            await edit_through_token(interaction, self.edit)
        for _ in range(dms):
            await self._bot_dm(interaction.user.id)

    async def _bot_dm(self, user_id: int) -> None:
        """A DM as the notifier sends one: its channel opened once, then sent to by id."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel_id = (await self.create_dm(discord.Object(user_id))).id
            self.dm_channels[user_id] = channel_id
        await self.get_partial_messageable(channel_id, type=discord.ChannelType.private) \
            .send(self.dm_text)

    def _raw_interaction(self, data: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self._raw_answer(data))
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    async def _raw_answer(self, data: dict[str, Any]) -> None:
        edit = self.edit
        await self._request("POST", f"/interactions/{data['id']}/{data['token']}/callback",
                            *edit.body({"type": 7, "data": edit.message()}))
        edits, dms = self.mix.next_click()
        for _ in range(edits):
            await self._request(
                "PATCH", f"/webhooks/{data['application_id']}/{data['token']}/messages/@original",
                *edit.body(edit.message()))
        for _ in range(dms):
            await self._raw_dm(int(data["member"]["user"]["id"]))

    async def _raw_dm(self, user_id: int) -> None:
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            opened = await self._request("POST", "/users/@me/channels",
                                         *_json({"recipient_id": str(user_id)}), parsed=True)
            channel_id = self.dm_channels[user_id] = int(opened["id"])
        await self._request("POST", f"/channels/{channel_id}/messages",
                            *_json({"content": self.dm_text, "allowed_mentions": {"parse": []}}))

    async def _request(self, method: str, path: str, body: bytes, content_type: str, *,
                       parsed: bool = False) -> Any:
        """Send one request; its answer is read, and parsed only when ``parsed`` (as the
        bot's own edits read theirs without parsing)."""
        assert self.session is not None
        async with self.session.request(method, self.api_base + path, data=body,
                                        headers={"Content-Type": content_type}) as response:
            response.raise_for_status()
            return await response.json() if parsed else await response.read()


def _json(payload: dict[str, Any]) -> tuple[bytes, str]:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode(), \
        "application/json"


async def serve_client(client_name: str) -> None:
    """The client process: connect to the fake named in the environment and answer."""
    token_edits, dms = json.loads(os.environ[MIX_VARIABLE])
    api_base = os.environ[API_VARIABLE]
    async with FloorClient(api_base, Mix(token_edits, dms), raw=client_name == "raw") as client:
        await connect_through(client, api_base, TOKEN)


@dataclass(frozen=True)
class Figures:
    """What one client's window measured."""

    client: str
    tables: int
    seconds: float
    clicks_per_s: float
    hands: float
    client_cpu_ms_per_hand: float
    client_cpu_ms_per_hand_by_part: dict[str, float]
    requests_per_hand: dict[str, float]
    upload_kb_per_hand: float

    def report(self) -> str:
        parts = ", ".join(f"{name} {value:.2f}"
                          for name, value in self.client_cpu_ms_per_hand_by_part.items())
        kinds = ", ".join(f"{kind} {count:.2f}" for kind, count in self.requests_per_hand.items())
        return (f"client {self.client}: {self.tables} tables, {self.clicks_per_s:.1f} clicks/s,"
                f" {self.hands:.0f} hands in {self.seconds:.1f} s\n"
                f"  CPU per hand: {self.client_cpu_ms_per_hand:.2f} ms ({parts})\n"
                f"  requests per hand: {kinds}\n"
                f"  uploaded per hand: {self.upload_kb_per_hand:.1f} KB")


async def run(client_name: str, tables: int, seconds: float, hands_per_second: float,
              answers: float, token_edits: float, dms: float, seed: int) -> Figures:
    """Start the fake and the client, click for ``seconds`` after a warm-up, measure."""
    rng = random.Random(seed)
    gap = tables / (hands_per_second * answers)  # seconds between one table's clicks
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Floor", channels=[f"table-{n}" for n in range(tables)])
        people = [fake.add_user(f"person-{n}") for n in range(tables)]
        environ = {**os.environ, API_VARIABLE: fake.api_base,
                   MIX_VARIABLE: json.dumps([token_edits / answers, dms / answers]),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                               os.environ.get("PYTHONPATH")]))}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "benchmarks.discord_floor", "--serve", client_name,
            env=environ, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE)
        clicking: list[asyncio.Task[None]] = []
        stopped = False
        try:
            assert process.stdout is not None
            async with asyncio.timeout(60):
                while (line := await process.stdout.readline()) and \
                        READY_LINE not in line.decode():
                    pass
            if process.returncode is not None or not line:
                raise SystemExit(f"the {client_name} client exited before it was ready")
            messages = [fake.channel_messages(guild.channel(f"table-{n}"))[-1]
                        for n in range(tables)]
            clicks = 0

            async def click(person: int, message_id: int, custom_id: str) -> None:
                nonlocal clicks
                await asyncio.sleep(rng.random() * gap)
                while not stopped:
                    await fake.click(person, message_id, custom_id)
                    clicks += 1
                    await asyncio.sleep(gap)

            clicking = [asyncio.create_task(click(person, message.id, _enabled_button(message)))
                        for person, message in zip(people, messages, strict=True)]
            # as at the bot's tables before its window: every person's DM channel is open
            await fake.wait_until(lambda: fake.count(CallKind.DM_CHANNEL_OPEN) >= tables,
                                  timeout=WARM_UP_TIMEOUT)
            opened, called_since, used_before = time.perf_counter(), fake.now(), \
                BotCpu.of(process.pid)
            clicks_before = clicks
            await asyncio.sleep(seconds)
            used = BotCpu.of(process.pid) - used_before
            elapsed, clicked = time.perf_counter() - opened, clicks - clicks_before
            called_until = fake.now()
        finally:
            # cancelling alone is not enough: Python 3.11's ``asyncio.wait_for`` (in the
            # fake's click) may swallow a cancellation that meets its end, and a click loop
            # that went on kept a run waiting for good after its window (seen in the smoke
            # test, with both cores busy and without)
            stopped = True
            for task in clicking:
                task.cancel()
            await asyncio.gather(*clicking, return_exceptions=True)
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            await process.wait()
        # the window's requests only, not those of the clicks still in flight as it closed
        calls = [call for call in fake.calls if called_since <= call.time < called_until]
    hands = clicked / answers

    def per_hand(amount: float) -> float:
        return round(amount / hands, 2) if hands else 0.0

    kinds = Counter(call.kind.value for call in calls)
    return Figures(
        client=client_name, tables=tables, seconds=round(elapsed, 2),
        clicks_per_s=round(clicked / elapsed, 1), hands=round(hands, 1),
        client_cpu_ms_per_hand=per_hand((used.event_loop + max(0.0, used.other_threads))
                                        * 1e3),
        # the process's CPU is counted in clock ticks, its loop thread's to the nanosecond:
        # with next to nothing in other threads, their difference may fall below zero
        client_cpu_ms_per_hand_by_part={
            "event loop": per_hand(used.event_loop * 1e3),
            "other threads": per_hand(max(0.0, used.other_threads) * 1e3)},
        requests_per_hand={kind: per_hand(count) for kind, count in kinds.most_common()},
        upload_kb_per_hand=per_hand(sum(call.size for call in calls) / 1024),
    )


def _enabled_button(message: StoredMessage) -> str:
    """The custom id of the message's first enabled button."""
    for row in message.components:
        for button in row["components"]:
            if not button.get("disabled"):
                return str(button["custom_id"])
    raise ValueError("the table message has no enabled button")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--client", choices=CLIENTS, action="append",
                        help="which client to measure (both, in turn, by default)")
    parser.add_argument("--tables", type=positive(int), default=50)
    parser.add_argument("--seconds", type=positive(float), default=30.0)
    parser.add_argument("--hands-per-second", type=positive(float), default=5.0,
                        help="the whole-bot run's pace at 50 tables (README, Performance)")
    parser.add_argument("--answers", type=positive(float), default=8.3,
                        help="clicks answered per hand")
    parser.add_argument("--token-edits", type=float, default=3.4,
                        help="edits through a click's token per hand")
    parser.add_argument("--dms", type=float, default=1.7, help="hole-card DMs per hand")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="print one JSON object per client")
    parser.add_argument("--serve", choices=CLIENTS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[Figures]:
    """Run the benchmark from the command line; print and return each client's figures."""
    arguments = parse_arguments(argv)
    if arguments.serve:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_client(arguments.serve))
        return []
    measured = []
    for client_name in arguments.client or CLIENTS:
        figures = asyncio.run(run(client_name, arguments.tables, arguments.seconds,
                                  arguments.hands_per_second, arguments.answers,
                                  arguments.token_edits, arguments.dms, arguments.seed))
        print(json.dumps(asdict(figures)) if arguments.json else figures.report(), flush=True)
        measured.append(figures)
    return measured


if __name__ == "__main__":
    main(sys.argv[1:])

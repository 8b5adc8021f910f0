"""Every slash command, button and form, driven with odd input by several members at once.

Hypothesis draws the scripts: which member uses which command or subcommand (tournaments
among them; options in range, at the edges, out of range, unicode, huge, empty) in which
channel or tournament thread, clicks which button of which message, types what into the
amount form, which channel or thread an admin deletes meanwhile, and how many of them race.
Half the scripts start with a tournament of two tables, one in a thread. Discord's own client
checks (option types, ``min_value``, required fields) are the fake's: what it refuses a real
user could not send. Whatever reaches the bot must get an answer within Discord's 3 seconds
that is never the generic apology, the chips must add up, and nobody's hole cards may reach a
channel or thread before showdown.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections import Counter
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord_ui.error_replies import APOLOGY
from engine.cards import pretty_card
from tests.discord_ui.club import Club
from tests.fake_discord import FakeDiscord, InteractionRecord, InteractionRefused
from tests.fake_discord.interaction_data import (
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)

pytestmark = pytest.mark.slow

ODD_TEXT = ("", " ", "0", "-1", "²", "٣٤", "1e3", "9" * 5_000, "1,000", "<@1>", "@everyone",
            "[free](https://example.com)", "\u2028", "🂡🂱", "NaN", "raise 100", "\x00",
            "ｆｏｌｄ", "medium", "Noodle")
TRIED: Counter[str] = Counter()
"""Inputs sent per surface, printed at the end of the run (``conftest.py``)."""


def option_value(definition: dict[str, Any], members: list[int], rng: random.Random) -> Any:
    """A value for one option: mostly what a client can send, sometimes what it cannot."""
    kind = definition["type"]
    if "choices" in definition and rng.random() < 0.8:
        return rng.choice(definition["choices"])["value"]
    if kind == INTEGER:
        low, high = definition.get("min_value", -10**18), definition.get("max_value", 10**18)
        return rng.choice([low, high, low - 1, high + 1, rng.randint(low, high), 0, 10**18,
                           rng.randint(1, 5_000)])
    if kind == NUMBER:
        low, high = definition.get("min_value", -1e9), definition.get("max_value", 1e9)
        return rng.choice([low, high, rng.uniform(low, high), -0.5, 1e308])
    if kind == STRING:
        return rng.choice(ODD_TEXT)[: definition.get("max_length", 6_000)]
    if kind == BOOLEAN:
        return rng.random() < 0.5
    if kind == USER:
        return rng.choice(members)
    return None


def places(club: Club) -> list[int]:
    """Where members can still act: the poker channel and the lounge, unless deleted, and the
    threads (tournament tables) opened under them."""
    alive = [channel for channel in (club.channel, club.lounge)
             if channel in club.fake.world.channels]
    return alive + [thread.id for channel in alive for thread in club.fake.threads(channel)]


def place(club: Club, rng: random.Random) -> int | None:
    """Mostly the poker channel (the cash table), else any place left."""
    left = places(club)
    if club.channel in left and rng.random() < 0.8:
        return club.channel
    return rng.choice(left) if left else None


async def slash(club: Club, member: int, rng: random.Random) -> InteractionRecord | None:
    command = rng.choice(club.fake.commands(club.guild_id))
    name, definitions = command["name"], command.get("options", [])
    while subcommands := [definition for definition in definitions
                          if definition["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]:
        chosen = rng.choice(subcommands)
        name, definitions = f"{name} {chosen['name']}", chosen.get("options", [])
    options = {definition["name"]: option_value(definition, [club.alice, club.bob], rng)
               for definition in definitions
               if definition.get("required") or rng.random() < 0.6}
    channel = place(club, rng)
    if channel is None:
        return None
    TRIED[f"/{name}"] += 1
    return await club.fake.slash(member, channel, name, **options)


async def start(club: Club, member: int) -> InteractionRecord | None:
    """``/start`` at the cash table, unless its channel was deleted meanwhile."""
    if club.channel not in places(club):
        return None
    TRIED["/start"] += 1
    return await club.fake.slash(member, club.channel, "start")


async def delete_place(club: Club, rng: random.Random) -> None:
    """An admin deletes a tournament's thread or, less often, the lounge or the poker channel
    (the tables there close with every chip accounted for); nothing when another deletion of
    the same batch left nothing to delete."""
    left = places(club)
    if not left:
        return
    threads = [channel for channel in left if channel not in (club.channel, club.lounge)]
    channels = [channel for channel in left if channel not in threads]
    target = rng.choice(threads if threads and rng.random() < 0.7
                        else [club.lounge] if club.lounge in channels and rng.random() < 0.7
                        else channels)
    TRIED["deleted thread" if target in threads else "deleted channel"] += 1
    await club.fake.delete_channel(target)


async def click(club: Club, member: int, rng: random.Random) -> InteractionRecord | None:
    channel = place(club, rng)
    if channel is None:
        return None
    messages = [message for message in club.fake.channel_messages(channel)
                if message.custom_ids()]
    if not messages:
        return None
    message = messages[-1] if rng.random() < 0.8 else rng.choice(messages)
    enabled = [custom_id for custom_id in message.custom_ids()
               if not message.find_component(custom_id).get("disabled")]
    custom_id = rng.choice(enabled if enabled and rng.random() < 0.9 else message.custom_ids())
    TRIED[f"button {custom_id.split(':')[1]}"] += 1
    answer = await club.fake.click(member, message.id, custom_id)
    if answer.modal is not None:
        if channel not in places(club):  # deleted by the batch while the form was open
            return answer
        field = answer.modal["components"][0]["components"][0]["custom_id"]
        TRIED["amount form"] += 1
        return await club.fake.submit_modal(member, answer.modal["custom_id"],
                                            {field: rng.choice((*ODD_TEXT[:16], "100", "40"))})
    return answer


def check_answer(answer: InteractionRecord | None) -> None:
    if answer is not None:
        assert APOLOGY not in answer.all_text(), answer.all_text()


def assert_no_hole_cards_in_channels(club: Club, bot: Any) -> None:
    """Before showdown, no person's two hole cards appear anywhere a table's channel or thread
    shows (the last hand's result field aside: it is over)."""
    for channel in places(club):
        state = bot.tables.state(channel)
        if state is None or not state.is_hand_running or state.street is None \
                or state.street.label == "Showdown":
            continue
        text = "\n".join(
            [message.content for message in club.fake.channel_messages(channel)]
            + [field["value"] for message in club.fake.channel_messages(channel)
               for embed in message.embeds for field in embed.get("fields", [])
               if not field["name"].endswith("result")])
        for seat in state.seats:
            cards = bot.tables.hole_cards(channel, seat.user_id) if seat.user_id else None
            if cards:
                assert " ".join(pretty_card(card) for card in cards) not in text


async def play_script(seed: int, batches: list[int]) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as directory:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Fuzz", channels=["poker", "lounge"])
            club = Club(fake, guild.id, guild.channel("poker"), guild.channel("lounge"),
                        alice=fake.add_user("alice"), bob=fake.add_user("bob"),
                        admin=fake.add_user("admin",
                                            permissions=discord.Permissions(manage_guild=True)),
                        database=Path(directory) / "holdem.sqlite3")
            members = [club.alice, club.bob, club.admin, fake.add_user("carol")]
            bot = await club.start_bot(seed=seed)
            for member in members[:2]:
                await fake.slash(member, club.channel, "join")
            await fake.slash(club.alice, club.channel, "addbot", level="easy")
            if rng.random() < 0.5:  # a tournament of two tables (one in a thread) is running
                await fake.slash(club.admin, club.lounge, "tournament create", buy_in=100,
                                 seats=2, max_entrants=4, bot_fill="easy", levels_by="hands")
                await fake.slash(members[3], club.lounge, "tournament join")
                await fake.slash(club.admin, club.lounge, "tournament start")
            for size in batches:
                steps: list[Awaitable[InteractionRecord | None]] = []
                for _ in range(size):
                    turn = bot.notifier.turn(club.channel)
                    member = turn[0] if turn and rng.random() < 0.6 else rng.choice(members)
                    if places(club) and rng.random() < 0.02:
                        steps.append(delete_place(club, rng))
                    elif bot.tables.state(club.channel) is not None and rng.random() < 0.15:
                        steps.append(start(club, member))
                    else:
                        steps.append((slash if rng.random() < 0.5 else click)(club, member, rng))
                for outcome in await asyncio.gather(*steps, return_exceptions=True):
                    if isinstance(outcome, InteractionRefused):
                        TRIED["refused by the client"] += 1
                        continue  # Discord would not have sent it
                    if isinstance(outcome, BaseException):
                        raise outcome
                    check_answer(outcome)
                await bot.notifier.flush()
                assert_no_hole_cards_in_channels(club, bot)
            assert (await bot.ledger.audit()).ok
            await fake.stop_client()
            async with await _reopen(club.database) as ledger:
                assert (await ledger.audit()).ok


async def _reopen(path: Path) -> Any:
    from bot.ledger import Ledger

    return await Ledger.open(path)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), batches=st.lists(st.integers(1, 4), min_size=5, max_size=25))
def test_odd_input_from_racing_members_never_breaks_a_table(seed: int, batches: list[int]):
    asyncio.run(play_script(seed, batches))

"""Tournaments outlive real bot processes (``python -m bot`` against the fake Discord): a
three-person sit-and-go stopped mid-hand, by SIGKILL or gracefully, is still running after the
restart with nobody refunded, plays on from the stacks the interrupted hand started with, and
pays exactly the pool at its end. On SQLite and on PostgreSQL (the ``backend`` fixture)."""

from __future__ import annotations

import asyncio
import json
import signal

import discord
import pytest

from bot.ledger import HandRecord, Ledger
from engine.hand_record import RecordedHand
from tests.bot_processes import (
    PAUSED_NOTICE,
    STARTING_BALANCE,
    Backend,
    BotProcess,
    said_in,
)
from tests.fake_discord import FakeDiscord
from tests.fake_discord.records import FakeGuild

BUY_IN = 100
FAST_TABLES = {"next_hand_delay": 0.0, "turn_timeout": 30.0, "time_bank": 0.0,
               "run_it_twice_timeout": 0.3}
"""The server's table settings: hands follow one another at once, a turn waits for a click."""
ACTED = ("You check.", "You call.", "You go all-in.")


class SitAndGo:
    """Three people in a sit-and-go of a guild's poker channel, acting by slash commands."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.guild: FakeGuild = fake.add_guild("Club", channels=["poker"], shard=0)
        manager = discord.Permissions(manage_guild=True)
        self.people = (fake.add_user("alice", permissions=manager), fake.add_user("bob"),
                       fake.add_user("carol"))
        self.tournament_id = 0

    @property
    def channel(self) -> int:
        return self.guild.channel("poker")

    async def open(self) -> None:
        """Create it and enter the three people (the third starts it)."""
        created = await self.fake.slash(
            self.people[0], self.channel, "tournament create", buy_in=BUY_IN,
            starting_stack=800, seats=3, structure="turbo", levels_by="hands")
        assert created.content.startswith("Tournament #"), created.content
        self.tournament_id = int(created.content.split("#")[1].split()[0])
        for person in self.people:
            joined = await self.fake.slash(person, self.channel, "tournament join")
            assert joined.content.startswith("You are in"), joined.content

    async def act(self, commands: tuple[str, ...]) -> bool:
        """The first of ``commands`` the person to act may take; whether someone acted."""
        for person in self.people:
            for command in commands:
                answer = await self.fake.slash(person, self.channel, command)
                if answer.content.startswith(ACTED):
                    return True
                if "not your turn" in answer.content:
                    break
        return False

    async def play_until(self, ledger: Ledger, hands: int) -> None:
        """Check or call until ``hands`` hands are settled, then act once in the next one."""
        async with asyncio.timeout(60):
            while len(await settled_hands(ledger)) < hands:
                if not await self.act(("check", "call")):
                    await asyncio.sleep(0.05)
            while not await self.act(("check", "call")):
                await asyncio.sleep(0.05)

    async def shove_to_the_end(self, ledger: Ledger) -> None:
        async with asyncio.timeout(90):
            while await status_of(ledger, self.tournament_id) != "finished":
                if not await self.act(("allin", "call", "check")):
                    await asyncio.sleep(0.05)


async def settled_hands(ledger: Ledger, up_to: int = 60) -> list[HandRecord]:
    """The settled hands (only this tournament's are played here), oldest first."""
    found = [await ledger.hand_history(hand_id) for hand_id in range(1, up_to)]
    return [hand for hand in found if hand is not None]


async def status_of(ledger: Ledger, tournament_id: int) -> str:
    tournament = await ledger.tournament_info(tournament_id)
    assert tournament is not None
    return tournament.status


async def saved_stacks(ledger: Ledger) -> dict[int | str, int]:
    """The stacks kept with the running tournament (as its last hand boundary left them)."""
    [saved] = await ledger.saved_tournaments()
    assert saved.info.status == "running" and saved.state is not None
    return {player: stack for player, _, _, stack, _ in json.loads(saved.state)["seats"]}


def start_stacks(hand: HandRecord) -> dict[int | str, int]:
    assert hand.replay is not None
    stacks = RecordedHand.from_json(hand.replay).stacks
    return {participant.player: stack for participant, stack in zip(hand.participants, stacks,
                                                                    strict=True)}


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
async def test_a_sit_and_go_stopped_mid_hand_plays_on_after_the_restart(
        fake: FakeDiscord, backend: Backend, stop: signal.Signals) -> None:
    game = SitAndGo(fake)
    ledger = await backend.open()
    try:
        await ledger.save_guild_settings(game.guild.id, FAST_TABLES)
        first = await BotProcess.start(fake, backend, IMAGES="off")
        await first.ready()
        await game.open()
        await game.play_until(ledger, hands=2)
        before = len(await settled_hands(ledger))
        status = await first.stop(stop)
        assert status == (-stop if stop is signal.SIGKILL else 0), "\n".join(first.lines)
        if stop is signal.SIGTERM:
            assert PAUSED_NOTICE in said_in(fake, game.channel)

        second = await BotProcess.start(fake, backend, IMAGES="off")
        try:
            await second.ready()
            assert await status_of(ledger, game.tournament_id) == "running"
            for person in game.people:  # nobody refunded
                assert await ledger.balance(game.guild.id, person) == STARTING_BALANCE - BUY_IN
            held = await saved_stacks(ledger)  # as the interrupted hand started: no hand since
            assert sum(held.values()) == 3 * 800
            async with asyncio.timeout(60):
                while len(await settled_hands(ledger)) == before:
                    if not await game.act(("check", "call")):
                        await asyncio.sleep(0.05)
            assert start_stacks((await settled_hands(ledger))[before]) == held
            await game.shove_to_the_end(ledger)
        finally:
            assert await second.stop() == 0, "\n".join(second.lines)
        results = await ledger.tournament_results(game.tournament_id)
        assert sum(place.prize for place in results) == 3 * BUY_IN
        balances = [await ledger.balance(game.guild.id, person) for person in game.people]
        assert sum(balances) == 3 * STARTING_BALANCE
        audit = await ledger.audit()
        assert audit.ok, audit.problems
    finally:
        await ledger.close()

"""A fake Discord server with one poker channel, and the steps the end-to-end tests repeat:
seat players, deal, play a hand to the end, read what the channel shows."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.discord_ui.app import BotOptions, HoldemBot, create_bot
from bot.settings import Settings
from bot.tables.settings import TableSettings
from engine.cards import Card, pretty_card
from tests.fake_discord import FakeDiscord, InteractionRecord, StoredMessage


def control(message: StoredMessage, *actions: str) -> str:
    """The custom id of the message's button for one of ``actions`` (``fold``, ``check``,
    ``call``, ``bet``, ``allin``, ``min``, ``half_pot``, ``pot``, ``my_cards``,
    ``run_twice``): the ids name their turn, so tests find them by action."""
    found = [custom_id for custom_id in message.custom_ids()
             if custom_id.split(":")[1] in actions]
    assert len(found) == 1, (actions, message.custom_ids())
    return found[0]


# Hands start only on /start (no automatic next hand during a test); turns never time out.
TEST_TABLE = TableSettings.instant(next_hand_delay=600.0, turn_timeout=60.0)


@dataclass
class Club:
    """A fake Discord with one server, a poker channel and a lounge, two players and an
    admin."""

    fake: FakeDiscord
    guild_id: int
    channel: int
    lounge: int
    alice: int
    bob: int
    admin: int
    database: Path

    def new_bot(self, *, seed: int = 7, draw_images: bool = False,
                bots_in_worker_process: bool = False, pictures_in_worker_process: bool = False,
                cooldowns: Mapping[str, tuple[int, float]] | None = None,
                edit_interval: float = 0.02, api_base: str | None = None,
                table_settings: TableSettings = TEST_TABLE) -> HoldemBot:
        """The bot as the tests run it: fast edits, short DM deadline, no command cooldowns
        (``cooldowns`` to have them); ``api_base`` sends its REST calls through a proxy;
        ``table_settings`` are the servers' defaults (by default hands start on /start and
        nobody times out); a stop voids the hands in progress at once (no drain)."""
        settings = Settings(token="fake", database_path=self.database, dev_guild_id=self.guild_id,
                            discord_api_base=api_base, bot_worker=bots_in_worker_process,
                            picture_worker=pictures_in_worker_process, drain_seconds=0.0)
        options = BotOptions(edit_interval=edit_interval, table_settings=table_settings,
                             rng=random.Random(seed), draw_images=draw_images,
                             guild_ready_timeout=0.01, dm_deadline=0.5,
                             cooldowns=cooldowns or {})
        return create_bot(settings, options)

    async def start_bot(self, **options: object) -> HoldemBot:
        bot = self.new_bot(**options)  # type: ignore[arg-type]
        await self.fake.run_client(bot)
        return bot

    async def table_message(self, bot: HoldemBot) -> StoredMessage:
        """The live table message (the bot's channel message carrying the action buttons),
        once it shows the table's latest state."""
        await bot.notifier.flush()
        messages = [message for message in self.fake.channel_messages(self.channel)
                    if any(custom_id.startswith("holdem:fold:")
                           for custom_id in message.custom_ids())]
        assert messages, "no table message in the channel"
        return messages[-1]

    def channel_text(self) -> str:
        """Everything the channel shows: contents and every embed text, edits applied."""
        parts = []
        for message in self.fake.channel_messages(self.channel):
            parts.append(message.content)
            for embed in message.embeds:
                parts += [embed.get("title", ""), embed.get("description", "")]
                for field in embed.get("fields", []):
                    parts += [field["name"], field["value"]]
        return "\n".join(parts)


def cards_in(text: str, cards: tuple[Card, ...]) -> list[str]:
    return [pretty_card(card) for card in cards if pretty_card(card) in text]


async def wait_for_turn_or_end(club: Club, bot: HoldemBot) -> int | None:
    """The person to act next, or ``None`` once the hand is over."""
    def settled() -> bool:
        state = bot.tables.state(club.channel)
        turn = bot.notifier.turn(club.channel)
        return state is None or not state.is_hand_running or (
            turn is not None and turn[1].seat == state.to_act_seat)
    await club.fake.wait_until(settled, timeout=10)
    await bot.notifier.flush()
    state = bot.tables.state(club.channel)
    if state is None or not state.is_hand_running:
        return None
    turn = bot.notifier.turn(club.channel)
    assert turn is not None
    return turn[0]


async def play_to_showdown(club: Club, bot: HoldemBot, *, use_slash: bool,
                           players: tuple[int, ...] = ()) -> int:
    """Every person checks or calls until the hand ends; returns how many actions they took.
    Between actions, checks that no hole card of a person (alice, bob, or ``players``)
    reached the channel."""
    hole = {user: bot.tables.hole_cards(club.channel, user)
            for user in players or (club.alice, club.bob)}
    actions = 0
    while (user := await wait_for_turn_or_end(club, bot)) is not None:
        for cards in hole.values():
            assert cards_in(club.channel_text(), cards or ()) == []
        if use_slash:
            state = bot.tables.state(club.channel)
            _, prompt = bot.notifier.turn(club.channel) or (None, None)
            assert state is not None and prompt is not None
            answer = await club.fake.slash(
                user, club.channel, "check" if prompt.legal.can_check else "call")
            assert answer.ephemeral and answer.content.startswith("You ")
        else:
            message = await club.table_message(bot)
            answer = await club.fake.click(user, message.id, control(message, "check", "call"))
            assert answer.updated
        actions += 1
    return actions


async def start_hand(club: Club, bot: HoldemBot, user: int) -> None:
    """``/start`` as ``user``, and wait until the hand is dealt."""
    state = bot.tables.state(club.channel)
    number = state.hand_number if state is not None else 0
    answer = await club.fake.slash(user, club.channel, "start")
    assert answer.ephemeral and answer.content.startswith("Dealing."), answer.content

    def dealt() -> bool:
        state = bot.tables.state(club.channel)
        return state is not None and state.hand_number > number

    await club.fake.wait_until(dealt)


async def deal_first_turn(club: Club, bot: HoldemBot) -> int:
    """Seat alice, bob and an easy bot, deal, and return the person who acts first."""
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    user = await wait_for_turn_or_end(club, bot)
    assert user is not None
    return user


async def seat_two_and_a_bot(club: Club, bot: HoldemBot) -> None:
    for user in (club.alice, club.bob):
        answer = await club.fake.slash(user, club.channel, "join")
        assert answer.ephemeral and "You sit down with 2,000 chips" in answer.content
    answer = await club.fake.slash(club.alice, club.channel, "addbot", level="easy")
    assert answer.content.startswith("Seated ")


async def expect_refusal(
    club: Club, bot: HoldemBot, answer_coro: Awaitable[InteractionRecord], sentence: str
) -> None:
    """The answer is one ephemeral message containing ``sentence``; table and balances are
    as they were."""
    async def snapshot() -> tuple[object, ...]:
        records = [await bot.ledger.stats(club.guild_id, user) for user in (club.alice, club.bob)]
        return bot.tables.state(club.channel), *records

    before = await snapshot()
    answer: InteractionRecord = await answer_coro
    text = answer.all_text()
    assert answer.ephemeral or all(m.is_ephemeral for m in answer.followups), text
    assert sentence in text
    assert await snapshot() == before

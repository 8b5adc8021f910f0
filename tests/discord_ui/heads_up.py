"""Alice and Bob alone at the club's table: who acts first, and who waits for their turn."""

from __future__ import annotations

from bot.discord_ui.app import HoldemBot
from tests.discord_ui.club import Club, start_hand, wait_for_turn_or_end


async def heads_up(club: Club, **options: object) -> tuple[HoldemBot, int, int]:
    """Start a bot (``options`` as ``Club.new_bot`` takes them), seat Alice and Bob, deal the
    first hand: the bot, the person to act first and the other, whose turn comes next."""
    bot = await club.start_bot(**options)
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "join")
    await start_hand(club, bot, club.alice)
    first = await wait_for_turn_or_end(club, bot)
    assert first is not None
    return bot, first, club.bob if first == club.alice else club.alice

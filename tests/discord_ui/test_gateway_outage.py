"""A gateway outage while a person is to act (issue 36, proof d): the fake Discord closes the
gateway and refuses connections for longer than the turn timer and time bank together, REST
staying up. The table says it waits for Discord; once the bot is back the person still holds
the same turn, the button shown before the outage acts, and nobody was timed out."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.settings import TableSettings
from tests.discord_ui.club import Club, control, deal_first_turn

TIMER, BANK = 2.0, 1.0
OUTAGE = 6.0
"""Twice the timer and bank together: without the freeze the person would be timed out
(the issue's 45 s outage against 20 s and 10 s, shortened)."""
WAITING = "Waiting for Discord"
RECONNECT = 90.0
"""How long discord.py may take to connect again after the outage: it backs off
exponentially (up to 2, 4, 8, ... s between tries) while connections are refused."""


@pytest.mark.slow
async def test_a_gateway_outage_keeps_the_turn_of_the_person_to_act(club: Club) -> None:
    settings = TableSettings.instant(next_hand_delay=600.0, turn_timeout=TIMER, time_bank=BANK)
    bot = await club.start_bot(table_settings=settings)
    user = await deal_first_turn(club, bot)
    before = await club.table_message(bot)
    button = control(before, "check", "call")
    hand = bot.tables.state(club.channel).hand_number  # type: ignore[union-attr]
    turn = bot.notifier.turn(club.channel)

    loop = asyncio.get_running_loop()
    began = loop.time()
    await club.fake.gateway_outage(OUTAGE)
    await club.fake.wait_until(lambda: WAITING in club.channel_text())  # edited through REST
    await club.fake.wait_until(lambda: club.fake.gateway_connected, timeout=RECONNECT)
    assert loop.time() - began >= OUTAGE

    def live(deadline: bool = False) -> bool:
        state = bot.tables.state(club.channel)
        return state is not None and not state.offline and (
            not deadline or state.to_act_deadline is not None)
    await club.fake.wait_until(live)
    state = bot.tables.state(club.channel)
    assert state is not None and state.hand_number == hand
    assert state.to_act is not None and state.to_act.user_id == user
    await club.fake.wait_until(lambda: live(deadline=True))  # the new countdown
    after = await club.table_message(bot)
    assert after.id == before.id and WAITING not in club.channel_text()
    assert control(after, "check", "call") == button  # the same hand, the same turn

    answer = await club.fake.click(user, after.id, button)
    assert answer.updated and bot.notifier.turn(club.channel) != turn  # it acted
    state = bot.tables.state(club.channel)
    assert state is not None and state.hand_number == hand
    for person in (club.alice, club.bob):
        assert not any("time ran out" in message.content for message in club.fake.dms(person))
        seat = state.seat_of(person)
        assert seat is not None and not seat.sitting_out

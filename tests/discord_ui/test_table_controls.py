"""The buttons under the table: stable ids, and only legal actions enabled, with amounts."""

from typing import Any

import pytest

from bot.discord_ui.views.table_controls import MY_CARDS_ID, table_components
from bot.tables.notifier import Turn, TurnPrompt
from engine.actions import LegalActions
from tests.discord_ui.club import Club, control, start_hand, wait_for_turn_or_end
from tests.discord_ui.test_embeds import state


def custom_ids(rows: list[dict[str, Any]]) -> list[str]:
    return [button["custom_id"] for row in rows for button in row["components"]]


def buttons(rows: list[dict[str, Any]]) -> dict[str, tuple[str, bool]]:
    """Each button as (label, disabled), keyed by its action (the id without the turn)."""
    drawn = {}
    for row in rows:
        for button in row["components"]:
            custom_id = button["custom_id"]
            drawn[custom_id if custom_id == MY_CARDS_ID else custom_id.split(":")[1]] = (
                button["label"], button["disabled"])
    return drawn


def facing_a_bet() -> TurnPrompt:
    legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True, call_amount=40,
                         can_bet=False, can_raise=True, min_to=80, max_to=1_500, stack=1_500)
    return TurnPrompt(seat=0, legal=legal, deadline=1_800_000_000.4, pot_total=300,
                      turn=Turn(1, 0))


async def test_every_button_names_its_action_and_turn():
    ids = custom_ids(table_components(state(), facing_a_bet()))
    assert ids == ["holdem:fold:1:0", "holdem:call:1:0", "holdem:bet:1:0", "holdem:allin:1:0",
                   "holdem:min:1:0", "holdem:half_pot:1:0", "holdem:pot:1:0", MY_CARDS_ID]


async def test_check_and_call_are_different_buttons():
    unopened = LegalActions(seat=0, can_fold=False, can_check=True, can_call=False,
                            call_amount=0, can_bet=True, can_raise=False, min_to=20,
                            max_to=1_500, stack=1_500)
    prompt = TurnPrompt(seat=0, legal=unopened, deadline=0.0, pot_total=60, turn=Turn(1, 2))
    assert "check" in buttons(table_components(state(), prompt))
    assert "call" in buttons(table_components(state(), facing_a_bet()))


async def test_without_a_turn_only_my_cards_is_enabled():
    drawn = buttons(table_components(state(), None))
    assert [action for action, (_, disabled) in drawn.items() if not disabled] == [MY_CARDS_ID]


async def test_facing_a_bet_the_buttons_say_call_and_raise_with_amounts():
    drawn = buttons(table_components(state(), facing_a_bet()))
    assert drawn["call"] == ("Call 40", False)
    assert drawn["bet"] == ("Raise…", False)
    assert drawn["allin"] == ("All-in 1,500", False)
    # The current bet is 40; a pot raise is 40 + (300 + 40) = 380, half pot 40 + 170 = 210.
    assert drawn["min"] == ("Min (80)", False)
    assert drawn["half_pot"] == ("½ pot (210)", False)
    assert drawn["pot"] == ("Pot (380)", False)


async def test_buttons_that_are_not_legal_are_disabled():
    legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True, call_amount=500,
                         can_bet=False, can_raise=False, min_to=0, max_to=0, stack=500)
    prompt = TurnPrompt(seat=0, legal=legal, deadline=0.0, pot_total=1_000, turn=Turn(1, 0))
    drawn = buttons(table_components(state(), prompt))
    for action in ("bet", "min", "half_pot", "pot"):
        assert drawn[action][1] is True
    assert drawn["call"] == ("Call 500", False)


async def test_my_cards_is_disabled_between_hands():
    assert buttons(table_components(state(is_hand_running=False)))[MY_CARDS_ID][1] is True


@pytest.mark.slow
async def test_all_in_is_disabled_when_only_call_or_fold_is_legal(club: Club):
    """Heads-up, the short stack goes all-in for 800: the big stack may call or fold, so its
    All-in button (which the engine would refuse) is drawn disabled."""
    bot = await club.start_bot()
    for user, buy_in in ((club.alice, 800), (club.bob, 3_000)):
        await club.fake.slash(user, club.channel, "join", buy_in=buy_in)
    await start_hand(club, bot, club.alice)
    while (user := await wait_for_turn_or_end(club, bot)) == club.bob:
        message = await club.table_message(bot)
        await club.fake.click(club.bob, message.id, control(message, "check", "call"))
    assert user == club.alice
    message = await club.table_message(bot)
    await club.fake.click(club.alice, message.id, control(message, "allin"))
    assert await wait_for_turn_or_end(club, bot) == club.bob
    message = await club.table_message(bot)
    allin = message.find_component(control(message, "allin"))
    assert allin.get("disabled") and allin["label"] == "All-in 2,980", allin
    assert not message.find_component(control(message, "call")).get("disabled")

"""The buttons under the table: stable ids, and only legal actions enabled, with amounts."""

from bot.discord_ui.views.table_controls import (
    ALL_IN_ID,
    BET_RAISE_ID,
    CHECK_CALL_ID,
    FOLD_ID,
    HALF_POT_ID,
    MIN_ID,
    MY_CARDS_ID,
    POT_ID,
    TableControls,
)
from bot.tables.notifier import Turn, TurnPrompt
from engine.actions import LegalActions
from tests.discord_ui.test_embeds import state


def buttons(view: TableControls) -> dict[str, tuple[str, bool]]:
    return {item.custom_id: (item.label, item.disabled) for item in view.children}


def facing_a_bet() -> TurnPrompt:
    legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True, call_amount=40,
                         can_bet=False, can_raise=True, min_to=80, max_to=1_500, stack=1_500)
    return TurnPrompt(seat=0, legal=legal, deadline=1_800_000_000.4, pot_total=300,
                      turn=Turn(1, 0))


async def test_every_button_has_a_stable_custom_id():
    assert set(buttons(TableControls())) == {
        FOLD_ID, CHECK_CALL_ID, BET_RAISE_ID, ALL_IN_ID, MIN_ID, HALF_POT_ID, POT_ID,
        MY_CARDS_ID,
    }


async def test_without_a_turn_only_my_cards_is_enabled():
    drawn = buttons(TableControls(state(), None))
    assert [custom_id for custom_id, (_, disabled) in drawn.items() if not disabled] == [
        MY_CARDS_ID]


async def test_facing_a_bet_the_buttons_say_call_and_raise_with_amounts():
    drawn = buttons(TableControls(state(), facing_a_bet()))
    assert drawn[CHECK_CALL_ID] == ("Call 40", False)
    assert drawn[BET_RAISE_ID] == ("Raise…", False)
    assert drawn[ALL_IN_ID] == ("All-in 1,500", False)
    # The current bet is 40; a pot raise is 40 + (300 + 40) = 380, half pot 40 + 170 = 210.
    assert drawn[MIN_ID] == ("Min (80)", False)
    assert drawn[HALF_POT_ID] == ("½ pot (210)", False)
    assert drawn[POT_ID] == ("Pot (380)", False)


async def test_buttons_that_are_not_legal_are_disabled():
    legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True, call_amount=500,
                         can_bet=False, can_raise=False, min_to=0, max_to=0, stack=500)
    prompt = TurnPrompt(seat=0, legal=legal, deadline=0.0, pot_total=1_000, turn=Turn(1, 0))
    drawn = buttons(TableControls(state(), prompt))
    for custom_id in (BET_RAISE_ID, MIN_ID, HALF_POT_ID, POT_ID):
        assert drawn[custom_id][1] is True
    assert drawn[CHECK_CALL_ID] == ("Call 500", False)


async def test_my_cards_is_disabled_between_hands():
    assert buttons(TableControls(state(is_hand_running=False)))[MY_CARDS_ID][1] is True

"""Chip totals chosen by players become legal actions: bet or raise, ranges, quick sizes,
all-in."""

import pytest

from bot.errors import InvalidAmount
from bot.tables.bet_sizing import bet_or_raise, quick_amount
from bot.tables.errors import IllegalAction
from engine.actions import Action, ActionKind, LegalActions


def legal(*, to_call: int = 0, min_to: int = 20, max_to: int = 1_000,
          can_raise: bool | None = None) -> LegalActions:
    facing = to_call > 0
    raising = facing if can_raise is None else can_raise
    return LegalActions(seat=0, can_fold=True, can_check=not facing, can_call=facing,
                        call_amount=to_call, can_bet=not facing and raising is False,
                        can_raise=raising, min_to=min_to, max_to=max_to, stack=max_to)


def test_an_amount_is_a_bet_when_nobody_has_bet():
    assert bet_or_raise(legal(can_raise=False), 60) == Action(ActionKind.BET, 60)


def test_an_amount_is_a_raise_to_that_total_when_facing_a_bet():
    assert bet_or_raise(legal(to_call=20, min_to=40), 100) == Action(ActionKind.RAISE, 100)


def test_the_whole_stack_is_an_all_in():
    assert bet_or_raise(legal(to_call=20, min_to=40), 1_000) == Action(ActionKind.ALL_IN)


def test_an_amount_outside_the_range_is_refused_with_the_range():
    with pytest.raises(InvalidAmount, match="between 40 and 1,000 chips"):
        bet_or_raise(legal(to_call=20, min_to=40), 30)
    with pytest.raises(InvalidAmount, match="you asked for 5,000"):
        bet_or_raise(legal(to_call=20, min_to=40), 5_000)


def test_no_raise_when_only_calling_is_possible():
    with pytest.raises(IllegalAction, match="call or fold"):
        bet_or_raise(legal(to_call=300, can_raise=False), 600)


def test_a_pot_sized_raise_preflop_is_to_three_and_a_half_big_blinds():
    # Blinds 10/20, first to act: pot 30, 20 to call; pot raise = 20 + (30 + 20) = 70.
    options = legal(to_call=20, min_to=40, max_to=2_000)
    assert quick_amount(options, "pot", pot_total=30, current_bet=20) == 70
    assert quick_amount(options, "half_pot", pot_total=30, current_bet=20) == 45
    assert quick_amount(options, "min", pot_total=30, current_bet=20) == 40


def test_quick_bets_are_a_share_of_the_pot_clamped_to_the_legal_range():
    options = legal(can_raise=False, min_to=20, max_to=150)
    assert quick_amount(options, "half_pot", pot_total=100, current_bet=0) == 50
    assert quick_amount(options, "pot", pot_total=400, current_bet=0) == 150
    assert quick_amount(options, "half_pot", pot_total=10, current_bet=0) == 20

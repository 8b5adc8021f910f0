"""Amounts typed or clicked become legal bets: bet or raise, ranges, quick sizes, all-in."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amounts import check_amount, parse_amount
from bot.errors import InputError, InvalidAmount
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
    with pytest.raises(InvalidAmount, match="you asked for 5000"):
        bet_or_raise(legal(to_call=20, min_to=40), 5_000)


def test_no_raise_when_only_calling_is_possible():
    with pytest.raises(IllegalAction, match="call or fold"):
        bet_or_raise(legal(to_call=300, can_raise=False), 600)


@pytest.mark.parametrize(("typed", "amount"), [("120", 120), (" 1,500 ", 1_500), ("2_000", 2_000)])
def test_typed_amounts_may_use_separators(typed: str, amount: int):
    assert parse_amount(typed) == amount


@pytest.mark.parametrize(("typed", "reason"), [
    ("-50", "positive"), ("0", "positive"), ("abc", "not an amount"), ("", "not an amount"),
    ("1.5", "not an amount"), ("9" * 20, "more than any table holds"),
    ("²", "not an amount"), ("1²", "not an amount"), ("-²", "not an amount"),
    ("9" * 5_000, "more than any table holds"), ("0" * 30 + "12x", "not an amount"),
])
def test_garbage_negative_and_huge_amounts_are_refused(typed: str, reason: str):
    with pytest.raises(InputError, match=reason):
        parse_amount(typed)


def test_decimal_digits_of_any_script_are_read_as_numbers():
    assert parse_amount("١٢٠") == 120  # Arabic-Indic digits: str.isdecimal() and int() agree
    assert parse_amount("0" * 40 + "75") == 75


@given(st.text(max_size=60))
def test_any_typed_text_is_an_amount_or_a_clear_refusal(typed: str):
    try:
        amount = parse_amount(typed)
    except InputError as error:
        assert str(error)
    else:
        assert 1 <= amount <= 10**12


def test_slash_amounts_are_checked_too():
    assert check_amount(5) == 5
    with pytest.raises(InputError, match="positive"):
        check_amount(-5)


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

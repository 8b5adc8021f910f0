"""Chip amounts as people type them: separators, odd digits, garbage, huge numbers."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amounts import check_amount, parse_amount
from bot.errors import InputError


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


@pytest.mark.parametrize("typed", ["1，500", "１，５００", "１５００"])
def test_a_chinese_input_method_s_full_width_digits_and_comma_are_read(typed: str):
    assert parse_amount(typed) == 1_500


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

"""Changing a table's settings: any consistent buy-in range on its own, and the bot limit."""

import pytest

from bot.tables.errors import InvalidSettings
from bot.tables.settings import TableSettings


@pytest.mark.parametrize(("changes", "default_bb"), [
    ({"min_buy_in_bb": 150, "max_buy_in_bb": 300}, 150),
    ({"min_buy_in_bb": 10, "max_buy_in_bb": 50}, 50),
    ({"max_buy_in_bb": 80}, 80),
    ({"min_buy_in_bb": 60}, 100),
])
def test_a_consistent_buy_in_range_can_be_set_and_the_default_follows_it(
    changes: dict[str, int], default_bb: int
):
    updated = TableSettings().with_changes(**changes)
    assert updated.default_buy_in_bb == default_bb
    assert updated.min_buy_in <= updated.default_buy_in <= updated.max_buy_in


def test_a_default_buy_in_given_with_the_range_is_kept_or_refused():
    assert TableSettings().with_changes(
        min_buy_in_bb=150, max_buy_in_bb=300, default_buy_in_bb=200).default_buy_in_bb == 200
    with pytest.raises(InvalidSettings, match="minimum ≤ default ≤ maximum"):
        TableSettings().with_changes(min_buy_in_bb=150, default_buy_in_bb=100)
    with pytest.raises(InvalidSettings, match="minimum ≤ default ≤ maximum"):
        TableSettings().with_changes(min_buy_in_bb=300, max_buy_in_bb=200)


def test_bots_leave_two_seats_for_people_unless_the_server_sets_a_limit():
    assert TableSettings().bot_limit == 7
    assert TableSettings(max_seats=6).bot_limit == 4
    assert TableSettings(max_seats=3).bot_limit == 1
    assert TableSettings(max_seats=2).bot_limit == 1  # heads-up against a bot
    assert TableSettings().with_changes(max_bots=8).bot_limit == 8


@pytest.mark.parametrize("max_bots", [-1, 9, True, 2.5])
def test_a_bot_limit_must_leave_a_seat_for_a_person(max_bots: object):
    with pytest.raises(InvalidSettings, match="may hold 0 to 8 bots"):
        TableSettings().with_changes(max_bots=max_bots)

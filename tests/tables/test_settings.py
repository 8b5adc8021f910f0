"""Table settings: defaults, validation with clear errors, storage round trip, changes (a
buy-in range on its own, the bot limit); the pacer."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.tables.errors import InvalidSettings
from bot.tables.pacing import StepPacer
from bot.tables.settings import TableSettings


def test_defaults_match_the_house_rules():
    settings = TableSettings()
    assert (settings.small_blind, settings.big_blind) == (10, 20)
    assert (settings.min_buy_in, settings.default_buy_in, settings.max_buy_in) == (800, 2000, 4000)
    assert (settings.max_seats, settings.turn_timeout, settings.next_hand_delay) == (9, 45.0, 5.0)
    assert (settings.bot_delay_min, settings.bot_delay_max) == (1.0, 3.0)


def test_instant_settings_have_no_delays_but_keep_positive_timers():
    settings = TableSettings.instant()
    assert settings.next_hand_delay == settings.bot_delay_min == settings.bot_delay_max == 0
    assert settings.turn_timeout > 0 and settings.run_it_twice_timeout > 0


@pytest.mark.parametrize(("changes", "message"), [
    ({"small_blind": 0}, "at least 1 chip"),
    ({"big_blind": 5}, "at least the small blind"),
    ({"max_seats": 1}, "2 to 9 seats"),
    ({"max_seats": 10}, "2 to 9 seats"),
    ({"min_buy_in_bb": 300}, "minimum ≤ default ≤ maximum"),
    ({"turn_timeout": 0}, "longer than 0"),
    ({"bot_delay_min": 4.0}, "shortest bot delay"),
    ({"next_hand_delay": -1}, "seconds ≥ 0"),
    ({"small_blind": 2.5}, "whole number"),
    ({"ante": 30}, "ante"),
])
def test_bad_settings_are_refused_with_a_reason(changes, message):
    with pytest.raises(InvalidSettings, match=message):
        TableSettings().with_changes(**changes)


def test_settings_round_trip_through_a_mapping_and_ignore_unknown_keys():
    settings = TableSettings(small_blind=25, big_blind=50, turn_timeout=30.0)
    stored = {**settings.to_mapping(), "retired_option": True}
    assert TableSettings.from_mapping(stored) == settings


def test_blinds_text_names_the_ante_when_there_is_one():
    assert str(TableSettings().blinds_text) == "10/20"
    assert str(TableSettings(ante=5).blinds_text) == "10/20 ante 5"


async def test_the_pacer_lets_every_waiting_step_run_in_order():
    pacer = StepPacer()
    order: list[int] = []

    async def worker(number: int) -> None:
        for _ in range(3):
            await pacer.step()
            order.append(number)

    await asyncio.gather(*(worker(number) for number in range(50)))
    assert len(order) == 150 and pacer.waiting == 0
    assert order[:50] == list(range(50))  # first come, first served


async def test_the_pacer_spreads_busy_steps_over_loop_iterations():
    pacer = StepPacer(slice_seconds=0.001)
    iterations = 0
    done = False

    async def count_iterations() -> None:
        nonlocal iterations
        while not done:
            iterations += 1
            await asyncio.sleep(0)

    async def busy() -> None:
        for _ in range(5):
            await pacer.step()
            started = time.perf_counter()  # a step longer than the slice, however fast the CPU
            while time.perf_counter() - started < 0.0012:
                pass

    counter = asyncio.create_task(count_iterations())
    await asyncio.gather(*(busy() for _ in range(40)))
    done = True
    await counter
    assert iterations > 50  # 200 steps of ~1 ms did not run in a few long iterations


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


def test_hints_are_on_at_cash_tables_and_off_in_tournaments_unless_the_server_says():
    default = TableSettings()
    assert default.shows_hints(tournament=False) and not default.shows_hints(tournament=True)
    on, off = default.with_changes(hints=True), default.with_changes(hints=False)
    assert on.shows_hints(tournament=True) and not off.shows_hints(tournament=False)
    with pytest.raises(InvalidSettings, match="hints must be on or off"):
        default.with_changes(hints="yes")

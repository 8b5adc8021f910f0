"""Blind schedules: presets, finding the level on the clock or by hands, refusing nonsense."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.blinds import (
    PRESETS,
    BlindLevel,
    BlindSchedule,
    LevelUnit,
    ScheduleError,
    preset_schedule,
)

NICE_FIRST = {m * 10**k for m in (1, 2, 5) for k in range(12)}
LADDER = {m * 10**k // 10 for m in (10, 15, 20, 30, 40, 60, 80) for k in range(14)}


def three_levels(unit: LevelUnit, length: int = 10) -> BlindSchedule:
    return BlindSchedule(
        (BlindLevel(5, 10), BlindLevel(10, 20), BlindLevel(15, 30, 5)), length, unit
    )


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("stack", [40, 99, 100, 500, 1000, 1500, 3000, 10_000, 123_457, 10**9])
def test_presets_rise_strictly_and_reach_the_starting_stack(name, stack):
    schedule = preset_schedule(name, stack)
    bigs = [level.big_blind for level in schedule.levels]
    assert all(later > earlier for earlier, later in itertools.pairwise(bigs))
    assert len(bigs) >= 15
    assert bigs[-1] >= stack
    assert len(bigs) == 15 or bigs[-2] < stack  # no level more than needed past 15
    assert bigs[0] in NICE_FIRST and bigs[0] >= 2
    assert stack >= 20 * bigs[0]
    assert all(big in LADDER and big % 2 == 0 for big in bigs[1:])
    assert all(1.25 <= later / earlier <= 2 for earlier, later in itertools.pairwise(bigs))
    for level in schedule.levels:
        assert level.small_blind == max(1, level.big_blind // 2)
        assert level.ante == 0


def test_presets_first_big_blind_is_the_stack_over_50_100_200_rounded_down():
    assert preset_schedule("turbo", 1000).levels[0] == BlindLevel(10, 20)
    assert preset_schedule("regular", 1000).levels[0] == BlindLevel(5, 10)
    assert preset_schedule("deep", 1000).levels[0] == BlindLevel(2, 5)
    assert preset_schedule("regular", 3000).levels[0].big_blind == 20
    assert preset_schedule("deep", 40).levels[0].big_blind == 2


def test_presets_follow_the_standard_ladder():
    bigs = [level.big_blind for level in preset_schedule("regular", 10_000).levels]
    assert bigs[:10] == [100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000]


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("start", [1, 2, 5, 15])
def test_presets_have_antes_from_the_chosen_level(name, start):
    schedule = preset_schedule(name, 5000, antes_from_level=start)
    for number, level in enumerate(schedule.levels, start=1):
        if number < start:
            assert level.ante == 0
        else:
            assert 1 <= level.ante <= level.big_blind
            assert level.ante <= max(1, level.big_blind // 8)
            assert level.ante > level.big_blind // 8 // 2  # rounded down, not far down


def test_preset_antes_are_an_eighth_of_the_big_blind_rounded_to_a_nice_number():
    schedule = preset_schedule("regular", 10_000, antes_from_level=1)
    antes = [(level.big_blind, level.ante) for level in schedule.levels[:8]]
    assert antes == [
        (100, 10), (150, 15), (200, 25), (300, 30), (400, 50), (600, 60), (800, 100),
        (1000, 100),
    ]
    assert preset_schedule("deep", 40, antes_from_level=1).levels[0].ante == 1


@pytest.mark.parametrize(
    ("name", "minutes", "hands"), [("turbo", 3, 6), ("regular", 6, 10), ("deep", 10, 15)]
)
def test_preset_level_lengths_follow_the_usual_paces(name, minutes, hands):
    assert preset_schedule(name, 1500).length == minutes
    assert preset_schedule(name, 1500).unit is LevelUnit.MINUTES
    by_hands = preset_schedule(name, 1500, unit=LevelUnit.HANDS)
    assert (by_hands.length, by_hands.unit) == (hands, LevelUnit.HANDS)


def test_preset_refuses_unknown_names_and_too_small_stacks():
    with pytest.raises(ScheduleError, match="no blind structure called 'hyper'"):
        preset_schedule("hyper", 1500)
    with pytest.raises(ScheduleError, match="at least 40 chips"):
        preset_schedule("regular", 39)
    for stack in (0, -100, 1.5, True):
        with pytest.raises(ScheduleError, match="positive whole number"):
            preset_schedule("regular", stack)


def test_preset_refuses_antes_from_a_level_it_does_not_have():
    levels = len(preset_schedule("turbo", 1500).levels)
    for start in (0, -1, levels + 1):
        with pytest.raises(ScheduleError, match=f"from 1 to {levels}"):
            preset_schedule("turbo", 1500, antes_from_level=start)


def test_level_index_by_minutes_including_past_the_end():
    schedule = three_levels(LevelUnit.MINUTES)
    assert [schedule.level_index(minutes=m) for m in (0, 9.99, 10, 19.5, 20, 25, 10_000)] == [
        0, 0, 1, 1, 2, 2, 2,
    ]
    assert schedule.level_index(minutes=math.inf) == 2
    assert schedule.level_index(hands=500) == 0  # hands do not count on the clock


def test_level_index_by_hands_including_past_the_end():
    schedule = three_levels(LevelUnit.HANDS, length=6)
    assert [schedule.level_index(hands=h) for h in (0, 5, 6, 11, 12, 1000)] == [
        0, 0, 1, 1, 2, 2,
    ]
    assert schedule.level_index(minutes=500.0) == 0  # the clock does not count by hands


def test_level_index_refuses_negative_time():
    with pytest.raises(ValueError, match="cannot be"):
        three_levels(LevelUnit.MINUTES).level_index(minutes=-1)
    with pytest.raises(ValueError, match="cannot be"):
        three_levels(LevelUnit.MINUTES).level_index(minutes=math.nan)
    with pytest.raises(ValueError, match="cannot be"):
        three_levels(LevelUnit.HANDS).level_index(hands=-1)


@given(st.floats(min_value=0, max_value=1e6), st.integers(1, 1440))
def test_level_index_matches_the_next_level_times(minutes, length):
    schedule = three_levels(LevelUnit.MINUTES, length)
    index = schedule.level_index(minutes=minutes)
    start = 0 if index == 0 else schedule.next_level_after(index - 1)
    end = schedule.next_level_after(index)
    assert start <= minutes
    assert end is None or minutes < end


def test_level_is_clamped_to_the_last_level():
    schedule = three_levels(LevelUnit.HANDS)
    assert schedule.level(0) == BlindLevel(5, 10)
    assert schedule.level(2) == schedule.level(99) == BlindLevel(15, 30, 5)
    with pytest.raises(ValueError):
        schedule.level(-1)


def test_next_level_after_counts_from_the_start_and_ends_at_the_last_level():
    schedule = three_levels(LevelUnit.MINUTES, length=12)
    assert schedule.next_level_after(0) == 12
    assert schedule.next_level_after(1) == 24
    assert schedule.next_level_after(2) is None
    assert schedule.next_level_after(50) is None


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        ((BlindLevel(5, 10),), "at least two levels"),
        ((), "at least two levels"),
        ((BlindLevel(5, 10), BlindLevel(10, 10)), "blinds have to rise"),
        ((BlindLevel(5, 10), BlindLevel(10, 20), BlindLevel(5, 15)), "blinds have to rise"),
        ((BlindLevel(0, 10), BlindLevel(10, 20)), "positive whole numbers"),
        ((BlindLevel(5, 10), BlindLevel(10, -20)), "positive whole numbers"),
        ((BlindLevel(5, 10.5), BlindLevel(10, 20)), "positive whole numbers"),
        ((BlindLevel(True, 10), BlindLevel(10, 20)), "positive whole numbers"),
        ((BlindLevel(15, 10), BlindLevel(10, 20)), "bigger than its big blind"),
        ((BlindLevel(5, 10, -1), BlindLevel(10, 20)), "ante from 0"),
        ((BlindLevel(5, 10), BlindLevel(10, 20, 21)), "ante from 0"),
    ],
)
def test_absurd_schedules_are_refused(levels, message):
    with pytest.raises(ScheduleError, match=message):
        BlindSchedule(levels, 10, LevelUnit.MINUTES)


@pytest.mark.parametrize(
    ("length", "unit"),
    [
        (0, LevelUnit.MINUTES), (1441, LevelUnit.MINUTES), (-5, LevelUnit.MINUTES),
        (0, LevelUnit.HANDS), (1001, LevelUnit.HANDS), (2.5, LevelUnit.MINUTES),
    ],
)
def test_absurd_level_lengths_are_refused(length, unit):
    levels = (BlindLevel(5, 10), BlindLevel(10, 20))
    with pytest.raises(ScheduleError, match=f"from 1 to {1440 if unit == 'minutes' else 1000}"):
        BlindSchedule(levels, length, unit)


def test_the_longest_levels_are_allowed():
    levels = (BlindLevel(5, 10), BlindLevel(10, 20))
    assert BlindSchedule(levels, 1440, LevelUnit.MINUTES).length == 1440
    assert BlindSchedule(levels, 1000, LevelUnit.HANDS).length == 1000


def test_schedule_error_is_a_value_error_with_a_sentence():
    with pytest.raises(ValueError) as caught:
        BlindSchedule((BlindLevel(5, 10), BlindLevel(5, 10)), 10, LevelUnit.MINUTES)
    message = str(caught.value)
    assert message[0].isupper() and message.endswith(".")


def test_schedules_are_hashable_records():
    schedule = BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)], 10, "hands")
    assert schedule.levels == (BlindLevel(5, 10), BlindLevel(10, 20))
    assert schedule.unit is LevelUnit.HANDS
    assert len({schedule, schedule}) == 1
    assert preset_schedule("deep", 2000) == preset_schedule("deep", 2000)


def test_levels_are_counted_in_minutes_or_hands_only():
    with pytest.raises(ScheduleError, match="minutes or in hands"):
        BlindSchedule((BlindLevel(5, 10), BlindLevel(10, 20)), 10, "orbits")

"""Balancing multi-table tournaments: breaking tables and moving the next big blind."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.balancing import Move, plan_moves, tables_needed


def apply(tables, moves, broken, seats):
    """Seat the moves one by one, checking each step, then close the broken tables."""
    seated = {table: list(players) for table, players in tables.items()}
    arrived = {table: set() for table in seated}
    for move in moves:
        assert move.to_table not in broken
        assert move.player in seated[move.from_table]
        if move.from_table not in broken:  # a balancing move takes the next big blind
            staying = [p for p in seated[move.from_table] if p not in arrived[move.from_table]]
            assert move.player == staying[0]
        seated[move.from_table].remove(move.player)
        seated[move.to_table].append(move.player)
        arrived[move.to_table].add(move.player)
        assert len(seated[move.to_table]) <= seats
    for table in broken:
        assert seated.pop(table) == []
    return seated


@st.composite
def table_layouts(draw):
    seats = draw(st.integers(2, 10))
    sizes = draw(st.lists(st.integers(0, seats), min_size=1, max_size=12))
    tables = {}
    next_player = 0
    for index, size in enumerate(sizes):
        tables[f"T{index}"] = [f"p{next_player + k}" for k in range(size)]
        next_player += size
    return tables, seats


@given(table_layouts())
def test_after_the_moves_every_table_is_within_one_player_of_the_others(layout):
    tables, seats = layout
    moves, broken = plan_moves(tables, seats)
    seated = apply(tables, moves, broken, seats)
    sizes = [len(players) for players in seated.values()]
    assert max(sizes) - min(sizes) <= 1


@given(table_layouts())
def test_after_the_moves_no_table_is_above_capacity(layout):
    tables, seats = layout
    moves, broken = plan_moves(tables, seats)
    seated = apply(tables, moves, broken, seats)  # also checks every step on the way
    assert all(len(players) <= seats for players in seated.values())


@given(table_layouts())
def test_after_the_moves_the_players_are_at_the_right_number_of_tables(layout):
    tables, seats = layout
    moves, broken = plan_moves(tables, seats)
    seated = apply(tables, moves, broken, seats)
    total = sum(len(players) for players in tables.values())
    assert len(seated) == tables_needed(total, seats) == max(1, -(-total // seats))
    everyone = sorted(p for players in tables.values() for p in players)
    assert sorted(p for players in seated.values() for p in players) == everyone


@given(table_layouts())
def test_the_moved_player_is_the_next_big_blind_and_nobody_moves_twice(layout):
    tables, seats = layout
    moves, broken = plan_moves(tables, seats)
    apply(tables, moves, broken, seats)  # checks the next big blind moves
    movers = [move.player for move in moves]
    assert len(movers) == len(set(movers))
    broken_players = [p for table in broken for p in tables[table]]
    assert [m.player for m in moves[: len(broken_players)]] == broken_players


@given(table_layouts())
def test_balanced_tables_that_fit_are_left_alone(layout):
    tables, seats = layout
    moves, broken = plan_moves(tables, seats)
    seated = apply(tables, moves, broken, seats)
    assert plan_moves(seated, seats) == ([], [])
    assert plan_moves(tables, seats) == (moves, broken)  # deterministic


def test_break_the_table_with_the_fewest_players_ties_the_last_in_mapping_order():
    tables = {"A": ["a1", "a2", "a3"], "B": ["b1", "b2"], "C": ["c1", "c2"]}
    moves, broken = plan_moves(tables, 4)
    assert broken == ["C"]
    assert moves == [Move("c1", "C", "B"), Move("c2", "C", "A")]


def test_broken_table_players_go_to_the_fewest_players_ties_mapping_order():
    tables = {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"], "C": ["c1", "c2"], "X": ["x1"]}
    moves, broken = plan_moves(tables, 3)
    assert broken == ["X"]
    assert moves == [Move("x1", "X", "C")]
    moves, broken = plan_moves({"A": ["a1", "a2"], "B": ["b1", "b2"], "X": ["x1"]}, 6)
    assert broken == ["X", "B"]
    assert moves == [Move("x1", "X", "A"), Move("b1", "B", "A"), Move("b2", "B", "A")]


def test_several_tables_break_at_once():
    tables = {"A": ["a1", "a2"], "B": ["b1", "b2", "b3"], "C": ["c1"], "D": ["d1", "d2"]}
    moves, broken = plan_moves(tables, 9)
    assert broken == ["C", "D", "A"]
    assert [move.to_table for move in moves] == ["B"] * 5


def test_balancing_moves_the_next_big_blind_from_the_biggest_to_the_smallest_table():
    tables = {"A": ["a1", "a2", "a3", "a4", "a5", "a6"], "B": ["b1", "b2", "b3"]}
    moves, broken = plan_moves(tables, 6)
    assert broken == []
    assert moves == [Move("a1", "A", "B")]
    tables = {
        "A": [f"a{i}" for i in range(1, 6)],
        "B": [f"b{i}" for i in range(1, 10)],
        "C": [f"c{i}" for i in range(1, 6)],
    }
    moves, broken = plan_moves(tables, 9)
    assert broken == []
    assert moves == [Move("b1", "B", "A"), Move("b2", "B", "C")]


def test_moved_players_join_the_end_of_the_big_blind_order_and_stay_there():
    tables = {"A": ["a1", "a2", "a3", "a4", "a5"], "B": ["b1"], "C": ["c1", "c2"]}
    moves, broken = plan_moves(tables, 5)
    assert broken == ["B"]
    assert moves == [Move("b1", "B", "C"), Move("a1", "A", "C")]
    seated = apply(tables, moves, broken, 5)
    assert seated == {"A": ["a2", "a3", "a4", "a5"], "C": ["c1", "c2", "b1", "a1"]}


def test_plan_moves_refuses_overfull_tables_tiny_tables_and_duplicates():
    with pytest.raises(ValueError, match="has 3 players but only 2 seats"):
        plan_moves({"A": ["a", "b", "c"]}, 2)
    for seats in (1, 0, -4):
        with pytest.raises(ValueError, match="at least 2 seats"):
            plan_moves({"A": ["a"]}, seats)
    with pytest.raises(ValueError, match="whole number"):
        plan_moves({"A": ["a"]}, 2.5)
    with pytest.raises(ValueError, match="listed twice"):
        plan_moves({"A": ["a", "b"], "B": ["a"]}, 6)


def test_a_single_table_and_no_tables_need_no_moves():
    assert plan_moves({"A": ["a", "b"]}, 9) == ([], [])
    assert plan_moves({}, 9) == ([], [])
    assert plan_moves({"A": [], "B": []}, 9) == ([], ["B"])

"""3-bet %, fold to 3-bet %, c-bet %, aggression factor, WTSD and W$SD: each rule on
hand-built hands, the zero-chance cases, and the ledger counting each hand once as it settles
on both backends (cash and tournament hands) for ``/stats`` and ``/leaderboard``
(``test_habit_totals`` has the running totals and the backfill)."""

from __future__ import annotations

import asyncio
import random

import pytest

import bot.ledger.habits as habits_module
from bot.ledger import HABIT_FIGURES, Habits, HandParticipant, InvalidRequest, Ledger, server_habits
from bot.ledger.habits import HabitCounter, HandHabits, count_habits
from engine.actions import Action, ActionKind
from engine.cards import Deck, parse_cards
from engine.hand import Hand, Straddle, deck_for
from engine.hand_record import RecordedHand
from tests.ledger.test_tournaments import tournament

ACES, KINGS, QUEENS = "Ah Ad", "Kh Kd", "Qh Qd"
DRY_BOARD = "2c 7d 9s 3h 4c"


def play(actions: str, *, stacks: tuple[int, ...] = (1000, 1000, 1000),
         hole: tuple[str, ...] = (ACES, KINGS, QUEENS), board: str = DRY_BOARD) -> Hand:
    """A finished hand: seat 0 has the button (seat 1 the small blind, seat 2 the big blind;
    heads-up seat 0 is both button and small blind), blinds 5/10, ``actions`` in turn order."""
    deck = deck_for([parse_cards(cards) for cards in hole[:len(stacks)]], parse_cards(board),
                    button=0)
    hand = Hand(list(stacks), button=0, small_blind=5, big_blind=10, deck=deck)
    for text in filter(None, (part.strip() for part in actions.split(","))):
        seat = hand.to_act
        assert seat is not None, f"nobody is to act for {text!r}"
        hand.act(seat, Action.parse(text))
    assert hand.is_over
    return hand


def counts(actions: str, **kwargs: object) -> list[HandHabits]:
    """Each seat's counts in the hand, counted from its record (as the ledger does)."""
    return count_habits(RecordedHand.from_hand(play(actions, **kwargs)))  # type: ignore[arg-type]


def checks(count: int) -> str:
    return ", ".join(["check"] * count)


# ---------------------------------------------------------------- 3-bet and fold to 3-bet

def test_a_reraise_of_the_open_raise_counts_as_a_three_bet() -> None:
    button, small_blind, big_blind = counts("raise 30, raise 90, fold, fold")
    assert (small_blind.three_bet_chance, small_blind.three_bet) == (1, 1)
    assert big_blind.three_bet_chance == 0  # facing a 3-bet is a chance to 4-bet, not to 3-bet
    assert button.three_bet_chance == 0  # the opener cannot 3-bet their own raise


def test_calling_or_folding_to_the_open_raise_is_a_three_bet_chance_not_taken() -> None:
    _, small_blind, big_blind = counts("raise 30, call, fold, check, bet 40, fold")
    assert (small_blind.three_bet_chance, small_blind.three_bet) == (1, 0)
    assert (big_blind.three_bet_chance, big_blind.three_bet) == (1, 0)


def test_without_an_open_raise_nobody_has_a_three_bet_chance() -> None:
    limped = counts("call, call, check, " + checks(9))
    assert [seat.three_bet_chance for seat in limped] == [0, 0, 0]


def test_a_player_who_can_only_call_or_fold_the_open_raise_has_no_three_bet_chance() -> None:
    _, short, big_blind = counts("raise 100, call, fold", stacks=(1000, 25, 1000))
    assert short.three_bet_chance == 0  # 20 chips behind: calling is all they can do
    assert big_blind.three_bet_chance == 1


def test_the_opener_folding_to_a_three_bet_counts_as_a_fold_to_three_bet() -> None:
    button, _, _ = counts("raise 30, raise 90, fold, fold")
    assert (button.fold_to_three_bet_chance, button.fold_to_three_bet) == (1, 1)


def test_the_opener_calling_a_three_bet_is_a_chance_to_fold_not_taken() -> None:
    button, small_blind, big_blind = counts(
        "raise 30, raise 90, fold, call, bet 100, call, " + checks(4))
    assert (button.fold_to_three_bet_chance, button.fold_to_three_bet) == (1, 0)
    assert small_blind.fold_to_three_bet_chance == 0  # only the opener faces a 3-bet
    assert big_blind.fold_to_three_bet_chance == 0


# ---------------------------------------------------------------- continuation bets

def test_a_flop_bet_by_the_preflop_raiser_counts_as_a_continuation_bet() -> None:
    button, small_blind, _ = counts("raise 30, call, fold, check, bet 40, fold")
    assert (button.cbet_chance, button.cbet) == (1, 1)
    assert small_blind.cbet_chance == 0


def test_a_flop_check_by_the_preflop_raiser_is_a_continuation_bet_chance_not_taken() -> None:
    button, _ = counts("raise 30, call, " + checks(6), stacks=(1000, 1000))
    assert (button.cbet_chance, button.cbet) == (1, 0)


def test_the_last_preflop_raiser_is_the_one_with_the_continuation_bet_chance() -> None:
    button, small_blind, _ = counts(
        "raise 30, raise 90, fold, call, bet 100, call, " + checks(4))
    assert (small_blind.cbet_chance, small_blind.cbet) == (1, 1)
    assert button.cbet_chance == 0


def test_a_bet_before_the_preflop_raiser_acts_takes_the_continuation_bet_chance() -> None:
    button, small_blind, _ = counts(
        "raise 30, call, fold, bet 40, call, " + checks(4))
    assert button.cbet_chance == 0  # the small blind led (a donk bet)
    assert small_blind.cbet_chance == 0


def test_without_a_preflop_raise_nobody_has_a_continuation_bet_chance() -> None:
    limped = counts("call, call, check, bet 20, fold, fold")
    assert [seat.cbet_chance for seat in limped] == [0, 0, 0]


def test_a_preflop_raiser_all_in_has_no_continuation_bet_chance() -> None:
    button, _ = counts("raise 300, call", stacks=(300, 1000))
    assert button.cbet_chance == 0


# ---------------------------------------------------------------- aggression factor

def test_the_aggression_factor_counts_postflop_bets_and_raises_against_postflop_calls() -> None:
    button, small_blind, big_blind = counts(
        "call, call, check,"  # preflop calls do not count
        " bet 20, raise 60, call, call,"  # flop: small blind bets, big blind raises
        " check, bet 100, fold, call,"  # turn
        " check, check")  # river
    assert (small_blind.postflop_aggression, small_blind.postflop_calls) == (1, 2)
    assert (big_blind.postflop_aggression, big_blind.postflop_calls) == (2, 0)
    assert (button.postflop_aggression, button.postflop_calls) == (0, 1)
    assert Habits(postflop_aggression=1, postflop_calls=2).figure("aggression") == 0.5


# ---------------------------------------------------------------- showdowns

def test_went_to_showdown_counts_the_players_still_in_when_the_cards_are_shown() -> None:
    button, small_blind, big_blind = counts(
        "raise 30, call, call, check, check, bet 40, fold, call, " + checks(4))
    assert [seat.saw_flop for seat in (button, small_blind, big_blind)] == [1, 1, 1]
    assert (button.went_to_showdown, button.won_at_showdown) == (1, 1)  # aces win
    assert (big_blind.went_to_showdown, big_blind.won_at_showdown) == (1, 0)
    assert small_blind.went_to_showdown == 0  # folded on the flop


def test_a_hand_won_without_a_showdown_is_no_showdown_for_anyone() -> None:
    hands = counts("raise 30, call, fold, check, bet 40, fold")
    assert [(seat.saw_flop, seat.went_to_showdown) for seat in hands] == [(1, 0), (1, 0), (0, 0)]


def test_a_player_all_in_before_the_flop_saw_it_and_went_to_showdown() -> None:
    button, short, big_blind = counts("raise 100, call, fold", stacks=(1000, 25, 1000))
    assert (short.saw_flop, short.went_to_showdown, short.won_at_showdown) == (1, 1, 0)
    assert (button.saw_flop, button.went_to_showdown, button.won_at_showdown) == (1, 1, 1)
    assert (big_blind.saw_flop, big_blind.went_to_showdown) == (0, 0)


def test_a_split_pot_at_showdown_counts_as_won_at_showdown() -> None:
    royal_board = counts("call, call, check, " + checks(9),
                         board="As Ks Qs Js Ts")
    assert [seat.won_at_showdown for seat in royal_board] == [1, 1, 1]


# ---------------------------------------------------------------- figures and zero chances

def test_every_figure_without_a_chance_is_none_not_a_division_by_zero() -> None:
    assert all(Habits().figure(name) is None for name in HABIT_FIGURES)
    assert Habits(hands=10, postflop_aggression=4).figure("aggression") is None  # no calls


def test_each_figure_is_its_actions_over_its_chances() -> None:
    habits = Habits(hands=20, three_bet_chances=8, three_bets=2, fold_to_three_bet_chances=4,
                    folds_to_three_bet=3, cbet_chances=5, cbets=4, postflop_aggression=9,
                    postflop_calls=6, saw_flop=10, showdowns=4, showdowns_won=1)
    assert {name: habits.figure(name) for name in HABIT_FIGURES} == {
        "three_bet": 25.0, "fold_to_three_bet": 75.0, "cbet": 80.0, "aggression": 1.5,
        "went_to_showdown": 40.0, "won_at_showdown": 25.0}


def test_the_server_average_is_the_mean_of_the_players_who_have_the_figure() -> None:
    averages = server_habits([Habits(cbet_chances=2, cbets=2), Habits(cbet_chances=4, cbets=1),
                              Habits(hands=3)])
    assert averages["cbet"] == (100.0 + 25.0) / 2  # the third player had no chance
    assert averages["three_bet"] is None
    assert server_habits([]) == dict.fromkeys(HABIT_FIGURES)


# ---------------------------------------------------------------- counted while played


def test_counting_a_hand_as_it_is_played_gives_its_records_counts() -> None:
    """The runtime counts its live hand (``HabitCounter``) instead of replaying its record:
    random hands (short stacks for all-ins, straddles, run it twice) agree with the replay of
    their JSON record, the backfill's way."""
    rng = random.Random(39)
    kinds = set()
    for _ in range(400):
        seats = rng.randint(2, 6)
        hand = Hand([rng.choice((40, 150, 1000)) for _ in range(seats)], rng.randrange(seats),
                    5, 10, rng.choice((0, 1)), Deck(rng), offer_run_it_twice=True,
                    straddle=rng.choice((None, Straddle.UTG, Straddle.BUTTON)))
        counter = HabitCounter(seats)
        counter.saw(hand)
        while not hand.is_over:
            if hand.awaiting_run_it_twice:
                hand.choose_run_it_twice(rng.random() < 0.5)
                continue
            legal = hand.legal_actions()
            roll = rng.random()
            if legal.can_bet_or_raise and roll < 0.35:
                kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
                action = Action(kind, rng.randint(legal.min_to, legal.max_to))
            elif roll < 0.55:
                action = Action(ActionKind.FOLD)
            else:
                action = Action(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
            hand.act(legal.seat, action)
            counter.saw(hand)
            kinds.add(action.kind)
        replayed = count_habits(RecordedHand.from_json(RecordedHand.from_hand(hand).to_json()))
        assert counter.counts(hand) == replayed
    assert len(kinds) == 5


# ---------------------------------------------------------------- the ledger

GUILD, TABLE, ALICE, BOB, CAROL = 1, 100, 11, 12, 13


async def settle(ledger: Ledger, hand: Hand | None, players: tuple[int | str, ...],
                 table: int = TABLE) -> int:
    """Settle ``hand`` (``None``: a hand without a replay, players' stacks unchanged) at a
    cash table of the guild, bought in with each player's starting stack."""
    stacks = hand.starting_stacks if hand is not None else (100,) * len(players)
    final = hand.result.final_stacks if hand is not None and hand.result else stacks
    for player, stack in zip(players, stacks, strict=True):
        if isinstance(player, int):
            await ledger.ensure_player(GUILD, player, f"player {player}")
        await ledger.buy_in(GUILD, table, player, stack)
    hand_id = await ledger.begin_hand(GUILD, table, 1, dict(zip(players, stacks, strict=True)))
    await ledger.settle_hand(
        hand_id, dict(zip(players, final, strict=True)),
        [HandParticipant(p, str(p), end - start)
         for p, start, end in zip(players, stacks, final, strict=True)],
        "history", RecordedHand.from_hand(hand).to_json() if hand is not None else None)
    for player in players:
        await ledger.cash_out(GUILD, table, player)
    return hand_id


THREE_BET_CALLED = "raise 30, raise 90, fold, call, bet 100, call, " + checks(4)


async def test_the_ledger_sums_each_persons_counts_from_the_hand_log(ledger: Ledger) -> None:
    await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    await settle(ledger, play("raise 30, call, fold, check, bet 40, fold"), (BOB, ALICE, CAROL))
    await settle(ledger, None, (ALICE, BOB))  # before replays were recorded: no chances
    people = await ledger.habits(GUILD)
    assert set(people) == {ALICE, BOB, CAROL}  # people only: the bot is not one
    alice = people[ALICE]
    assert alice.hands == 3
    assert (alice.fold_to_three_bet_chances, alice.folds_to_three_bet) == (1, 0)
    assert (alice.three_bet_chances, alice.three_bets) == (1, 0)
    assert (alice.saw_flop, alice.showdowns, alice.showdowns_won) == (2, 1, 1)
    bob = people[BOB]
    assert (bob.figure("three_bet"), bob.figure("cbet"), bob.figure("won_at_showdown")) == (
        100.0, 100.0, 0.0)
    assert people[CAROL].figure("three_bet") == 0.0
    assert await ledger.habits(GUILD + 1) == {}


async def test_each_hand_is_counted_once_as_it_settles(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    counted: list[int] = []
    real = habits_module.count_hand

    def counting(hand_id: int, replay: str | None, players: int) -> list[HandHabits]:
        counted.append(hand_id)
        return real(hand_id, replay, players)

    monkeypatch.setattr(habits_module, "count_hand", counting)
    first = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, CAROL))
    assert counted == [first]
    together = await asyncio.gather(ledger.habits(GUILD), ledger.habits(None))
    assert together[0] == together[1] and counted == [first]  # reading counts nothing
    second = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, CAROL))
    assert (await ledger.habits(GUILD))[BOB].three_bets == 2 and counted == [first, second]


async def test_counts_made_as_the_hand_was_played_are_kept_without_a_replay(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_replay(hand_id: int, replay: str | None, players: int) -> list[HandHabits]:
        raise AssertionError("the hand was replayed")

    monkeypatch.setattr(habits_module, "count_hand", no_replay)
    for user in (ALICE, BOB):
        await ledger.ensure_player(GUILD, user, "x")
        await ledger.buy_in(GUILD, TABLE, user, 100)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 100, BOB: 100})
    players = [HandParticipant(ALICE, "a", 0), HandParticipant(BOB, "b", 0)]
    with pytest.raises(InvalidRequest):
        await ledger.settle_hand(hand_id, {ALICE: 100, BOB: 100}, players, "history",
                                 habit_counts=[HandHabits()])
    await ledger.settle_hand(hand_id, {ALICE: 100, BOB: 100}, players, "history",
                             habit_counts=[HandHabits(saw_flop=1, cbet_chance=1), HandHabits()])
    alice = (await ledger.habits(GUILD))[ALICE]
    assert (alice.hands, alice.saw_flop, alice.cbet_chances) == (1, 1, 1)


async def test_tournament_hands_count_like_cash_hands(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 100, ALICE, BOB)
    await ledger.start_tournament(tournament_id)
    hand = play("raise 30, call, " + checks(6), stacks=(1000, 1000))
    hand_id = await ledger.begin_tournament_hand(tournament_id, 600, 1)
    assert hand.result is not None
    await ledger.settle_tournament_hand(
        hand_id, [HandParticipant(ALICE, "alice", hand.result.net[0], won=True),
                  HandParticipant(BOB, "bob", hand.result.net[1])],
        "history", RecordedHand.from_hand(hand).to_json())
    alice = (await ledger.habits(GUILD))[ALICE]
    assert (alice.cbet_chances, alice.cbets, alice.showdowns, alice.showdowns_won) == (1, 0, 1, 1)


async def test_an_unreadable_replay_counts_as_no_chances(ledger: Ledger) -> None:
    for user in (ALICE, BOB):
        await ledger.ensure_player(GUILD, user, "x")
        await ledger.buy_in(GUILD, TABLE, user, 100)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 100, BOB: 100})
    await ledger.settle_hand(hand_id, {ALICE: 100, BOB: 100},
                             [HandParticipant(ALICE, "a", 0), HandParticipant(BOB, "b", 0)],
                             "history", '{"replay": 1}')
    assert (await ledger.habits(GUILD))[ALICE] == Habits(hands=1)


async def test_a_habit_leaderboard_ranks_people_with_enough_hands_and_the_figure(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.ledger.ledger.LEADERBOARD_MIN_HANDS", 2)
    showdown = play("call, call, check, " + checks(9))  # aces win, everyone shows
    for _ in range(2):
        await settle(ledger, showdown, (ALICE, BOB, CAROL))
    await settle(ledger, showdown, ("Bot", "Other bot", 14))  # one hand: below the minimum
    rows = await ledger.leaderboard(GUILD, by="won_at_showdown")
    assert [(row.rank, row.user_id, row.name, row.value) for row in rows] == [
        (1, ALICE, f"player {ALICE}", 100.0), (2, BOB, f"player {BOB}", 0.0),
        (3, CAROL, f"player {CAROL}", 0.0)]
    assert await ledger.leaderboard(GUILD, by="aggression") == []  # nobody called postflop
    assert [row.user_id for row in await ledger.leaderboard(None, by="won_at_showdown",
                                                            page=2, page_size=2)] == [CAROL]


async def test_an_unknown_leaderboard_order_is_refused(ledger: Ledger) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.leaderboard(GUILD, by="three_bet")  # type: ignore[arg-type]

"""Hands played through the table runtime: turns, timers, run it twice, leaving, settling."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.errors import HandInProgress
from bot.tables.errors import (
    IllegalAction,
    NoTableHere,
    NotEnoughPlayers,
    NotYourTurn,
)
from bot.tables.notifier import HandOutcome
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from engine.hand_record import RecordedHand
from tests.tables.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    passive,
    running_manager,
    shove,
)


async def test_two_people_and_a_bot_play_hands_that_settle_in_the_ledger(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(notifier.outcomes) >= 3)
        await manager.sit_out(CHANNEL, ALICE)
        await manager.sit_out(CHANNEL, BOB)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)
        played = len(notifier.outcomes)
        outcome = notifier.outcomes[0]
        assert sum(result.net for result in outcome.results) == 0
        record = await ledger.hand_history(outcome.hand_id)
        assert record is not None and {p.name for p in record.participants} >= {"Alice", "Bob"}
        assert [o.hand_id for o in notifier.outcomes] == list(range(1, played + 1))
        first_cards = {user: cards for _, user, cards in notifier.hole_cards_sent[:2]}
        for outcome in notifier.outcomes[:3]:  # each one's replay plays again to its results
            record, hand = await replayed(ledger, outcome.hand_id)
            assert list(hand.result.net) == [p.net for p in record.participants]
            if outcome is notifier.outcomes[0]:
                for user, cards in first_cards.items():
                    assert hand.hole_cards(record.seat_of(user)) == tuple(cards)


async def replayed(ledger, hand_id: int):
    """A settled hand's record and its replay played again to the end."""
    record = await ledger.hand_history(hand_id)
    assert record is not None and record.replay is not None
    hand = RecordedHand.from_json(record.replay).play()
    assert hand.result is not None
    return record, hand


async def test_the_button_moves_every_hand(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        notifier.auto_actions[ALICE] = passive
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        await eventually(lambda: len(notifier.outcomes) >= 4)
        buttons = []
        for state in notifier.states:
            if state.is_hand_running and (not buttons or buttons[-1][0] != state.hand_number):
                buttons.append((state.hand_number, state.button_seat))
        seats = [seat for _, seat in buttons[:4]]
        assert seats[:3] == [0, 1, 2] and seats[3] == 0


async def test_hole_cards_go_only_to_their_owner_and_never_into_the_public_state(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await eventually(lambda: len(notifier.outcomes) >= 2)
        first_hand = [(user, cards) for _, user, cards in notifier.hole_cards_sent[:2]]
        assert {user for user, _ in first_hand} == {ALICE, BOB}
        assert all(len(cards) == 2 for _, cards in first_hand)
        for state in notifier.states:
            if state.is_hand_running:
                assert all(seat.shown_cards == () for seat in state.seats)


async def test_a_second_click_gets_not_your_turn_and_changes_nothing(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, _ = await notifier.next_prompt()
        results = await asyncio.gather(
            manager.act(CHANNEL, user, Action(ActionKind.CALL)),
            manager.act(CHANNEL, user, Action(ActionKind.CALL)),
            return_exceptions=True,
        )
        assert results[0] is None and isinstance(results[1], NotYourTurn)
        other, _ = await notifier.next_prompt()
        assert other != user
        with pytest.raises(NotYourTurn):
            await manager.act(CHANNEL, user, Action(ActionKind.CHECK))
        assert manager.state(CHANNEL).to_act.user_id == other


async def test_an_illegal_action_is_refused_and_the_turn_stays(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, prompt = await notifier.next_prompt()
        before = manager.state(CHANNEL)
        with pytest.raises(IllegalAction):
            await manager.act(CHANNEL, user, Action(ActionKind.RAISE, prompt.legal.min_to - 1))
        with pytest.raises(IllegalAction):
            await manager.act(CHANNEL, user, Action(ActionKind.CHECK))
        assert manager.state(CHANNEL) == before
        await manager.act(CHANNEL, user, Action(ActionKind.RAISE, prompt.legal.min_to))


async def test_the_turn_prompt_carries_the_legal_actions_and_a_deadline(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, prompt = await notifier.next_prompt()
        sent = {owner: cards for _, owner, cards in notifier.hole_cards_sent}
        assert manager.hole_cards(CHANNEL, user) == sent[user]
        assert manager.hole_cards(CHANNEL, CAROL) is None
        state = manager.state(CHANNEL)
        assert prompt.legal.can_call and prompt.legal.call_amount == 10
        assert prompt.legal.min_to == 40 and prompt.legal.max_to == 2000
        assert state.to_act_deadline == prompt.deadline and state.to_act.user_id == user
        assert prompt.pot_total == 30 and state.pot_total == 30


async def test_a_timeout_checks_or_folds_and_two_in_a_row_sit_the_player_out(tmp_path):
    settings = TableSettings.instant(turn_timeout=0.05)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE).sitting_out)
        told = notifier.messages_to(ALICE)
        assert "time ran out" in told[0] and "sitting out" in told[-1]
        # No person playing: the runner waits for a request, with no deal due.
        assert await manager.wait_until_idle(CHANNEL) is None
        assert not manager.state(CHANNEL).is_hand_running
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_acting_resets_the_timeout_count(tmp_path):
    # Long enough for the test to answer the second prompt in time on a busy machine.
    settings = TableSettings.instant(turn_timeout=0.4)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(notifier.messages_to(ALICE)) == 1)
        await notifier.next_prompt()  # the turn that timed out
        _, prompt = await notifier.next_prompt()
        await manager.act(CHANNEL, ALICE, passive(prompt))
        await eventually(lambda: len(notifier.messages_to(ALICE)) == 2)
        assert not manager.state(CHANNEL).seat_of(ALICE).sitting_out


async def test_leaving_on_ones_turn_folds_at_once_and_cashes_out_after_the_hand(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, _ = await notifier.next_prompt()
        assert await manager.leave(CHANNEL, user) is None
        await eventually(lambda: len(notifier.outcomes) == 1)
        await eventually(lambda: manager.state(CHANNEL).seat_of(user) is None)
        folded_blind = 10  # the first to act heads-up is the button, who posted the small blind
        assert await ledger.balance(GUILD, user) == 10_000 - folded_blind
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_leaving_before_ones_turn_folds_when_the_turn_comes(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        notifier.auto_actions[CAROL] = passive
        for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
            await manager.join(GUILD, CHANNEL, user, name)
        first, _ = await notifier.next_prompt()
        waiting = next(seat.user_id for seat in manager.state(CHANNEL).seats
                       if seat.user_id not in (first, CAROL))
        assert await manager.leave(CHANNEL, waiting) is None
        assert manager.state(CHANNEL).seat_of(waiting).leaving
        await manager.act(CHANNEL, first, Action(ActionKind.CALL))
        await eventually(lambda: manager.state(CHANNEL).seat_of(waiting).folded)
        assert manager.state(CHANNEL).is_hand_running
        assert await manager.leave(CHANNEL, first) is None
        await eventually(lambda: len(notifier.outcomes) == 1)
        assert not any(user == waiting for user, _ in notifier.prompts)
        await eventually(lambda: len(manager.state(CHANNEL).seats) == 1)
        assert manager.state(CHANNEL).seats[0].user_id == CAROL
        assert await ledger.balance(GUILD, waiting) == 10_000 - 10  # the small blind it posted
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_leaving_before_ones_turn_folds_even_when_checking_is_free(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        button, _ = await notifier.next_prompt()  # heads-up, the button acts first preflop
        big_blind = BOB if button == ALICE else ALICE
        assert await manager.leave(CHANNEL, big_blind) is None
        notifier.auto_actions[button] = passive
        await manager.act(CHANNEL, button, Action(ActionKind.CALL))  # the big blind may check
        await eventually(lambda: len(notifier.outcomes) == 1)
        outcome = notifier.outcomes[0]
        assert outcome.boards == ((),) and outcome.shown == ()  # over before the flop
        assert {result.user_id: result.net for result in outcome.results} == {
            button: 20, big_blind: -20}
        await eventually(lambda: manager.state(CHANNEL).seat_of(big_blind) is None)
        assert await ledger.balance(GUILD, big_blind) == 10_000 - 20
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_all_in_with_side_pots_through_the_runtime(tmp_path):
    async with running_manager(tmp_path, seed=3) as (manager, notifier, ledger):
        notifier.auto_actions.update({ALICE: shove, BOB: shove, CAROL: shove})
        notifier.auto_run_it_twice.update({ALICE: False, BOB: False, CAROL: False})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=800)
        await manager.join(GUILD, CHANNEL, BOB, "Bob", buy_in=1600)
        await manager.join(GUILD, CHANNEL, CAROL, "Carol", buy_in=2400)
        await eventually(lambda: len(notifier.outcomes) >= 1)
        for user in (ALICE, BOB, CAROL):
            await manager.sit_out(CHANNEL, user)
        outcome = notifier.outcomes[0]
        by_pot: dict[int, int] = {}
        for award in outcome.awards:
            by_pot[award.pot_index] = by_pot.get(award.pot_index, 0) + award.amount
        assert by_pot[0] == 3 * 800 and by_pot[1] == 2 * 800
        assert sum(by_pot.values()) == 800 + 1600 + 1600  # Carol kept the 800 she never had to call
        assert all(award.name != "Alice" for award in outcome.awards if award.pot_index == 1)
        assert len(outcome.shown) >= 2 and all(shown.hand_names for shown in outcome.shown)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def play_heads_up_all_in(manager, notifier, answers: dict[int, bool]) -> HandOutcome:
    """Alice and Bob go all-in in the first hand and answer run-it-twice with ``answers``
    (a missing answer lets the deadline pass); returns that hand's outcome."""
    notifier.auto_actions.update({ALICE: shove, BOB: shove})
    notifier.auto_run_it_twice.update(answers)
    await manager.join(GUILD, CHANNEL, ALICE, "Alice")
    await manager.join(GUILD, CHANNEL, BOB, "Bob")
    await eventually(lambda: len(notifier.outcomes) >= 1)
    await manager.sit_out(CHANNEL, ALICE)
    assert set(notifier.questions[0][1]) == {ALICE, BOB}
    return notifier.outcomes[0]


async def test_the_board_runs_twice_only_when_every_all_in_person_agrees(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        outcome = await play_heads_up_all_in(manager, notifier, {ALICE: True, BOB: True})
        assert outcome.ran_twice
        assert {award.board_index for award in outcome.awards} == {0, 1}
        record, hand = await replayed(ledger, outcome.hand_id)  # both boards in the replay
        assert len(hand.boards) == 2
        assert list(hand.result.net) == [p.net for p in record.participants]
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_one_refusal_runs_the_board_once(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        outcome = await play_heads_up_all_in(manager, notifier, {ALICE: True, BOB: False})
        assert not outcome.ran_twice


async def test_no_answer_before_the_deadline_runs_the_board_once(tmp_path):
    settings = TableSettings.instant(run_it_twice_timeout=0.05)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        outcome = await play_heads_up_all_in(manager, notifier, {ALICE: True})
        assert not outcome.ran_twice


async def test_leaving_while_asked_to_run_it_twice_counts_as_no(tmp_path):
    settings = TableSettings.instant(run_it_twice_timeout=600.0)  # nobody waits for it
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        notifier.auto_actions.update({ALICE: shove, BOB: shove})
        notifier.auto_run_it_twice[ALICE] = True
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await eventually(lambda: len(notifier.questions) == 1)
        await manager.leave(CHANNEL, BOB)
        await eventually(lambda: len(notifier.outcomes) == 1, timeout=5)
        assert not notifier.outcomes[0].ran_twice


async def seat_alice_shoving_against_a_calling_bot(manager, notifier, buy_in: int) -> None:
    """Alice goes all-in every hand (never running it twice); the bot always calls."""
    notifier.auto_actions[ALICE] = shove
    notifier.auto_run_it_twice[ALICE] = False
    await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=buy_in)
    await manager.add_bots(GUILD, CHANNEL, "calling")


async def test_a_busted_person_is_told_and_can_top_up_from_an_empty_stack(tmp_path):
    async with running_manager(tmp_path, seed=2) as (manager, notifier, ledger):
        await seat_alice_shoving_against_a_calling_bot(manager, notifier, 800)
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE).stack == 0
                         and not manager.state(CHANNEL).is_hand_running, timeout=20)
        await eventually(lambda: any("out of chips" in message
                                     for message in notifier.messages_to(ALICE)))
        await assert_chips_match_ledger(manager, ledger, CHANNEL)
        await manager.sit_out(CHANNEL, ALICE)
        assert await manager.top_up(CHANNEL, ALICE, 800) == 800
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_a_busted_bot_buys_in_again_from_the_house(tmp_path):
    async with running_manager(tmp_path, seed=1) as (manager, notifier, ledger):
        await seat_alice_shoving_against_a_calling_bot(manager, notifier, 4000)
        await eventually(lambda: any(result.final_stack == 0 and result.user_id is None
                                     for outcome in notifier.outcomes
                                     for result in outcome.results), timeout=20)
        await manager.sit_out(CHANNEL, ALICE)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        bust = next(i for i, (name, args) in enumerate(notifier.events) if name == "hand_finished"
                    and any(r.final_stack == 0 and r.user_id is None for r in args[1].results))
        after_bust = next(args[0] for name, args in notifier.events[bust + 1:]
                          if name == "table_changed")
        assert after_bust.seats[1].stack == 2000
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_start_hand_deals_at_once_instead_of_after_the_delay(tmp_path):
    settings = TableSettings.instant(next_hand_delay=60.0)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        with pytest.raises(NoTableHere):
            await manager.start_hand(CHANNEL)
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        with pytest.raises(NotEnoughPlayers):
            await manager.start_hand(CHANNEL)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        assert await manager.wait_until_idle(CHANNEL) > 50  # the deal waits for the delay
        assert not manager.state(CHANNEL).is_hand_running
        await manager.start_hand(CHANNEL)
        await notifier.next_prompt()
        with pytest.raises(HandInProgress):
            await manager.start_hand(CHANNEL)


async def test_sitting_out_skips_hands_until_sitting_in(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        await manager.sit_out(CHANNEL, ALICE)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await eventually(lambda: len(notifier.outcomes) >= 2)
        assert all(ALICE not in {r.user_id for r in o.results} for o in notifier.outcomes[1:])
        await manager.sit_in(CHANNEL, ALICE)
        hands = len(notifier.outcomes)
        await eventually(lambda: len(notifier.outcomes) >= hands + 2)
        assert ALICE in {result.user_id for result in notifier.outcomes[-1].results}


async def test_no_top_up_while_dealt_into_a_hand(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await notifier.next_prompt()
        with pytest.raises(HandInProgress):
            await manager.top_up(CHANNEL, ALICE, 100)


async def test_bots_wait_their_thinking_delay_and_hands_wait_the_next_hand_delay(tmp_path):
    settings = TableSettings.instant(bot_delay_min=0.02, bot_delay_max=0.02, next_hand_delay=0.1)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        started = time.monotonic()
        await manager.run_hands(CHANNEL, 2)
        # two pauses before the hands, and at least two bot actions in each hand
        assert time.monotonic() - started >= 2 * 0.1 + 4 * 0.02
        assert len(notifier.outcomes) == 2


async def test_the_finished_hands_state_shows_exactly_the_cards_shown_at_showdown(tmp_path):
    async with running_manager(tmp_path, seed=3) as (manager, notifier, _):
        await manager.add_bots(GUILD, CHANNEL, "calling", count=3)
        await manager.run_hands(CHANNEL, 4)
        finished = [args for name, args in notifier.events if name == "hand_finished"]
        assert len(finished) == 4
        assert any(outcome.shown for _, outcome in finished)
        for state, outcome in finished:
            on_table = {seat.seat: seat.shown_cards for seat in state.seats if seat.shown_cards}
            assert on_table == {shown.seat: shown.cards for shown in outcome.shown}


async def test_a_person_who_leaves_as_the_hand_ends_is_not_told_they_are_out_of_chips(tmp_path):
    async with running_manager(tmp_path, seed=3) as (manager, notifier, ledger):
        finished = notifier.hand_finished

        async def leave_when_the_hand_ends(state, outcome) -> None:
            await finished(state, outcome)
            if manager.state(CHANNEL).seat_of(ALICE) is not None:
                await manager.leave(CHANNEL, ALICE)

        notifier.hand_finished = leave_when_the_hand_ends
        notifier.auto_actions[ALICE] = passive
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE) is None)
        assert await manager.wait_until_idle(CHANNEL) is None  # the bot alone waits
        assert not any("out of chips" in message for message in notifier.messages_to(ALICE))
        assert (await ledger.audit()).ok


async def test_the_pause_between_hands_counts_from_the_end_of_play_not_of_the_show_window(
        tmp_path):
    """A hand won without a showdown offers its winner a Show button for ``show_timeout``;
    that window is part of the pause before the next deal, not added to it (after a fold the
    table used to wait both, 10 s with the defaults)."""
    settings = TableSettings.instant(next_hand_delay=30.0, show_timeout=0.5)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.start_hand(CHANNEL)
        user, prompt = await notifier.next_prompt()
        await manager.act(CHANNEL, user, Action(ActionKind.FOLD), prompt.turn)
        await eventually(lambda: bool(notifier.outcomes))
        assert any(name == "offer_show" for name, _ in notifier.events)
        until_deal = await manager.wait_until_idle(CHANNEL)
        assert until_deal is not None and until_deal <= 30.0 - 0.5 + 0.05

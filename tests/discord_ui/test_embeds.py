"""The live table embed shows public facts only: board, pots, seats, turn, last result."""

from bot.discord_ui.embeds import hole_cards_text, outcome_text, pot_text, seat_line, table_embed
from bot.tables.notifier import (
    HandOutcome,
    PlayerResult,
    PotAward,
    PotState,
    SeatState,
    ShownHand,
    TableState,
)
from engine.actions import Street
from engine.cards import parse_cards
from tests.table_states import seat_state, table_state


def seat(index: int, name: str, user_id: int | None, **changes) -> SeatState:
    return seat_state(index, name, user_id, **{"stack": 1_500, **changes})


def state(**changes) -> TableState:
    seats = (seat(0, "alice", 11, is_button=True), seat(1, "bob", 12, bet=40),
             seat(2, "Noodle", None, folded=True))
    fields = dict(board="Ah Kd 7c", seats=seats, pots=(PotState(300, (0, 1, 2)),),
                  hand_number=4, to_act_deadline=1_800_000_000.4, last_action="bob: bets 40",
                  max_seats=6)
    fields.update(changes)
    return table_state(**fields)


def embed_text(embed) -> str:
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    for field in data.get("fields", []):
        parts += [field["name"], field["value"]]
    return "\n".join(parts)


def test_the_embed_shows_board_pot_seats_turn_and_last_action():
    text = embed_text(table_embed(state()))
    assert "blinds 10/20" in text
    assert "Hand #4 · Flop" in text
    assert "A♥ K♦ 7♣" in text
    assert "Seats (3/6)" in text
    assert "<@11> to act, time runs out <t:1800000000:R>" in text
    assert "bob: bets 40" in text


def test_the_table_shows_the_time_bank_while_it_runs():
    text = embed_text(table_embed(state(time_bank_deadline=1_800_000_020.0)))
    assert "<@11> to act, using their time bank: <t:1800000020:R>" in text
    assert "time runs out" not in text


def test_a_seat_line_shows_stack_bet_button_and_what_the_player_is_doing():
    table = state()
    assert seat_line(table.seats[0], table) == "▶ <@11> 🔘 · 1,500"
    assert seat_line(table.seats[1], table) == "• <@12> · 1,500 · bet 40"
    assert seat_line(table.seats[2], table) == "• Noodle (bot, easy) · 1,500 · folded"


def test_side_pots_are_listed_after_the_main_pot():
    table = state(pots=(PotState(300, (0, 1, 2)), PotState(1_200, (0, 1))), pot_total=1_500)
    assert pot_text(table) == "1,500 (main 300, side 1,200)"


def test_only_cards_shown_at_showdown_appear_in_the_embed():
    hidden = embed_text(table_embed(state()))
    assert "Q♠" not in hidden and "shows" not in hidden
    shown_seat = seat(1, "bob", 12, shown_cards=tuple(parse_cards("Qs Qh")))
    table = state(street=Street.SHOWDOWN, seats=(state().seats[0], shown_seat))
    assert "shows Q♠ Q♥" in embed_text(table_embed(table))


def test_two_boards_are_shown_when_the_hand_is_run_twice():
    first, second = tuple(parse_cards("Ah Kd 7c 2s 3s")), tuple(parse_cards("Ah Kd 7c 9h Th"))
    text = embed_text(table_embed(state(boards=(first, second), board=first)))
    assert "Run 1: A♥ K♦ 7♣ 2♠ 3♠" in text and "Run 2: A♥ K♦ 7♣ 9♥ T♥" in text


def test_the_result_names_winners_pots_and_hands():
    outcome = HandOutcome(
        hand_id=4, boards=(tuple(parse_cards("Ah Kd 7c 2s 3s")),),
        awards=(PotAward(1, "bob", 600, 0, 0, "Three of a Kind"),
                PotAward(0, "alice", 200, 1, 0, None)),
        shown=(ShownHand(1, "bob", tuple(parse_cards("7s 7h")), ("Three of a Kind",)),),
        mucked_seats=(), results=(PlayerResult(1, "bob", 12, 300, 1_800),),
        history_text="",
    )
    assert outcome_text(outcome) == (
        "bob shows 7♠ 7♥ (Three of a Kind)\n"
        "**bob** wins 600 from the main pot with Three of a Kind\n"
        "**alice** wins 200 from side pot 1"
    )
    text = embed_text(table_embed(state(is_hand_running=False), outcome))
    assert "Hand #4 result" in text and "Waiting for the next hand" in text


def test_names_are_shown_as_written_never_as_markdown_or_links():
    sneaky = "[free chips](https://example.com) **boss**"
    escaped = r"\[free chips](https://example.com) \*\*boss\*\*"
    outcome = HandOutcome(
        hand_id=1, boards=((),),
        awards=(PotAward(0, sneaky, 30, 0, 0, None),),
        shown=(ShownHand(0, sneaky, tuple(parse_cards("7s 7h")), ("a Pair",)),),
        mucked_seats=(), results=(), history_text="",
    )
    bot_seat = seat(1, sneaky, None)
    table = state(is_hand_running=False, seats=(bot_seat,), last_action=f"{sneaky}: fold")
    text = embed_text(table_embed(table, outcome))
    assert sneaky not in text
    assert text.count(escaped) == 4  # seat, last action, shown hand, award


def test_the_image_is_referenced_as_an_attachment_only_when_drawn():
    assert table_embed(state()).image.url is None
    assert table_embed(state(), with_image=True).image.url == "attachment://table.png"


def test_the_hole_cards_message_names_the_hand_and_channel():
    assert hole_cards_text(state(), parse_cards("As Ad")) == (
        "Hand #4 in <#2>: your cards are **A♠ A♦**"
    )

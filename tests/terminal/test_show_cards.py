"""The terminal's show prompt: a player at the keyboard who won without a showdown shows one
card, the other, both or neither; at showdown with auto-muck off, y shows and n mucks. A piped
script is never offered (it cannot know when an offer comes)."""

from __future__ import annotations

import io

import pytest

from bot.tables.notifier import ShowOffer
from bot.tables.show_cards import ShowChoice
from bot.terminal.cli import parse_options
from bot.terminal.console_notifier import ConsoleNotifier
from bot.terminal.game import THINKING_TIME, table_settings
from bot.terminal.line_reader import LineReader
from bot.terminal.session import LocalPlayer
from engine.cards import parse_cards
from tests.terminal.test_terminal import PLAIN

ME = 7


class Manager:
    """What the prompt asks of the table: the answers it was given."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, ShowChoice]] = []

    async def answer_show(self, channel_id: int, user_id: int, hand: int,
                          choice: ShowChoice) -> None:
        assert (channel_id, user_id) == (0, ME)
        self.answers.append((hand, choice))


async def answered(typed: str, *, at_showdown: bool = False) -> tuple[list[object], str]:
    out = io.StringIO()
    notifier = ConsoleNotifier(out, PLAIN, ME)
    manager = Manager()
    reader = LineReader(io.StringIO(typed))
    reader.start()
    player = LocalPlayer(manager, notifier, reader, channel_id=0, bank=None)  # type: ignore[arg-type]
    await notifier.offer_show(None, ME, ShowOffer(  # type: ignore[arg-type]
        41, tuple(parse_cards("Ah Kd")), 0.0, at_showdown))
    await notifier.offer_show(None, ME + 1, ShowOffer(  # type: ignore[arg-type]
        41, tuple(parse_cards("2c 2d")), 0.0, at_showdown))  # someone else's: not asked
    await player.play()
    return list(manager.answers), out.getvalue()


@pytest.mark.parametrize(("typed", "choice"), [
    ("1\n", ShowChoice.FIRST), ("2\n", ShowChoice.SECOND), ("b\n", ShowChoice.BOTH),
    ("\n", ShowChoice.NONE), ("x\nb\n", ShowChoice.BOTH)])
async def test_the_winner_without_a_showdown_is_asked_which_cards_to_show(typed, choice):
    answers, out = await answered(typed)
    assert answers == [(41, choice)]
    assert "You won without a showdown. Show Ah (1), Kd (2), both (b)" in out
    assert ("Answer 1, 2, b, or Enter." in out) is typed.startswith("x")


@pytest.mark.parametrize(("typed", "choice"), [("y\n", ShowChoice.BOTH),
                                               ("n\n", ShowChoice.NONE)])
async def test_at_showdown_with_auto_muck_off_y_shows_and_n_mucks(typed, choice):
    answers, out = await answered(typed, at_showdown=True)
    assert answers == [(41, choice)]
    assert "Your hand wins nothing: show it?" in out


def test_only_a_player_at_the_keyboard_is_offered_to_show():
    options = parse_options([])
    assert table_settings(options, at_keyboard=True).show_timeout == THINKING_TIME
    assert table_settings(options).show_timeout == 0.0

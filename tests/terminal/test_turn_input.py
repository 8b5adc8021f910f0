"""What a person types around a turn: a way back from the amount question, and nothing typed
while the bots acted is taken as the answer to a turn the person has not seen yet."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Callable, Iterator

from bot.terminal.console_notifier import ConsoleNotifier
from bot.terminal.line_reader import LineReader
from bot.terminal.session import LocalPlayer
from engine.actions import Action, ActionKind
from tests.terminal.test_terminal import ME, PLAIN, RecordingManager, answer, my_turn


async def test_back_at_the_amount_question_returns_to_the_menu() -> None:
    manager = RecordingManager()
    output = await answer("3\nback\n2\n", my_turn(), manager)
    assert manager.actions == [Action(ActionKind.CALL)]
    assert "not an amount" not in output
    assert output.count("1 fold   2 call 20   3 raise to 40-1,000") == 2


async def test_another_choice_at_the_amount_question_is_taken_instead() -> None:
    for typed, action in (("c", Action(ActionKind.CALL)), ("fold", Action(ActionKind.FOLD)),
                          ("a", Action(ActionKind.ALL_IN))):
        manager = RecordingManager()
        output = await answer(f"3\n{typed}\n", my_turn(), manager)
        assert manager.actions == [action], output
        assert "not an amount" not in output


async def test_a_question_mark_at_the_amount_question_says_how_to_answer_it() -> None:
    manager = RecordingManager()
    output = await answer("r\n?\n100\n", my_turn(), manager)
    assert manager.actions == [Action(ActionKind.RAISE, 100)]
    assert ("Type a street total from 40 to 1,000 (Enter: 40), another choice like c or f, "
            "or back for the menu.") in output


class HeldInput:
    """Lines of a terminal: ``early`` at once (typed while the bots act), ``late`` once
    ``release`` is set (typed after the turn was shown)."""

    def __init__(self, early: str, late: str) -> None:
        self.early, self.late = early, late
        self.release = threading.Event()

    def __iter__(self) -> Iterator[str]:
        yield from io.StringIO(self.early)
        self.release.wait(10)
        yield from io.StringIO(self.late)


async def until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_lines_typed_before_a_turn_is_shown_are_dropped_at_a_terminal() -> None:
    out = io.StringIO()
    notifier = ConsoleNotifier(out, PLAIN, ME)
    typed = HeldInput("2\n3 500\n", "1\n")
    reader = LineReader(typed)  # type: ignore[arg-type]
    reader.start()
    await asyncio.wait_for(until(lambda: reader.unread == 2), 5)
    manager = RecordingManager()
    player = LocalPlayer(manager, notifier, reader, channel_id=0,  # type: ignore[arg-type]
                         bank=manager, drop_type_ahead=True)
    notifier.requests.put_nowait(my_turn())
    playing = asyncio.ensure_future(player.play())
    await asyncio.wait_for(until(lambda: "Your choice" in out.getvalue()), 5)
    typed.release.set()
    await asyncio.wait_for(playing, 5)
    assert manager.actions == [Action(ActionKind.FOLD)]
    assert "Ignored what was typed before your turn: 2, 3 500" in out.getvalue()


async def test_a_piped_script_keeps_its_lines_for_the_turns_ahead() -> None:
    manager = RecordingManager()
    await answer("2\n", my_turn(), manager)
    assert manager.actions == [Action(ActionKind.CALL)]

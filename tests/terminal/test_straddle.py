"""``python -m bot play --straddle utg|button``: every hand of the terminal's cash table is
dealt with the straddle, and its history says so as trackers read it."""

import asyncio
import io
from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.terminal import main
from bot.terminal.cli import parse_options
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID, table_settings
from engine.hand_record import RecordedHand


def test_the_straddle_flag_makes_a_mandatory_straddle_of_that_kind() -> None:
    assert parse_options(["--straddle", "button"]).straddle == "button"
    settings = table_settings(parse_options(["--straddle", "utg"]))
    assert (settings.straddle, settings.straddle_mandatory) == ("utg", True)
    plain = table_settings(parse_options([]))
    assert (plain.straddle, plain.straddle_mandatory) == ("off", False)
    with pytest.raises(SystemExit):
        parse_options(["--straddle", "bb"])


@pytest.mark.parametrize("kind", ["utg", "button"])
def test_a_terminal_game_with_a_straddle_writes_it_in_the_history(tmp_path: Path,
                                                                  kind: str) -> None:
    path = tmp_path / "holdem.sqlite3"
    status = main(["--fast", "--seed", "3", "--bots", "easy,easy", "--straddle", kind,
                   "--database", str(path)],
                  stdin=io.StringIO("1\n" * 12 + "q\n"), stdout=io.StringIO(), environ={})
    assert status == 0

    async def histories() -> list[tuple[str, str | None]]:
        async with await Ledger.open(path) as ledger:
            hands = await ledger.recent_hands(GUILD_ID, LOCAL_USER_ID, limit=20)
            records = [await ledger.hand_history(hand.hand_id) for hand in hands]
        return [(record.history_text, record.replay) for record in records if record]

    played = asyncio.run(histories())
    assert played
    for text, replay in played:
        assert ": posts straddle 40\n" in text  # the default blinds are 10/20
        assert replay is not None and RecordedHand.from_json(replay).straddle == kind

"""What the terminal commands about one finished hand share (``replay``, ``review``): the
arguments that name the hand in a ledger and the player, reading it from the ledger, and one
way of refusing (one line on stderr, status 1; 2 for bad options)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.errors import HoldemError
from bot.i18n import ENGLISH, Language, Text, tr
from bot.ledger import HandRecord, Ledger, LedgerUnavailable
from bot.terminal.cli import APP_NAME, DATABASE_FILE, localized, refusal
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID
from bot.terminal.language import command_line_language
from engine.hand_record import RecordedHand


def add_hand_arguments(parser: argparse.ArgumentParser, language: Language, *,
                       player_help: Text, language_help: Text) -> None:
    """The hand's id, ``--database``, ``--player`` and ``--lang``, whose help the command
    words (``player_help``, ``language_help``)."""
    say = language.render
    parser.add_argument("hand", nargs="?", type=localized(language, parse_hand_id), default=None,
                        help=say(tr("the hand's id: the number after 'Hand #' on the table "
                                    "and in its result, as /history shows it (default: your "
                                    "latest hand)")))
    parser.add_argument("--database", type=Path, default=None, metavar="PATH",
                        help=say(tr("SQLite file of the ledger (default: the offline game's, "
                                    "{file} in your data directory, e.g. {folder})",
                                    file=DATABASE_FILE, folder="~/.local/share/" + APP_NAME)))
    parser.add_argument("--player", type=int, default=None, metavar="USER_ID",
                        help=say(player_help))
    parser.add_argument("--lang", "--language", dest="language", default=None,
                        metavar="LANGUAGE", help=say(language_help))


def run_command(argv: Sequence[str], environ: Mapping[str, str] | None,
                build_parser: Callable[[Language], argparse.ArgumentParser],
                work: Callable[[argparse.Namespace, Language], Coroutine[Any, Any, int]]) -> int:
    """Parse ``argv`` in the language it asks for and run ``work``; a ``HoldemError`` it
    raises is one line on stderr and status 1; bad options, an unknown language included,
    exit with argparse's usage line and status 2."""
    language, problem = command_line_language(argv, os.environ if environ is None else environ)
    say = language.render
    parser = build_parser(language)
    if problem is not None:
        parser.error(say(problem))
    args = parser.parse_args(list(argv))
    try:
        return asyncio.run(work(args, language))
    except HoldemError as error:
        print(say(tr("error: {problem}", problem=error.message)), file=sys.stderr)
        return 1


def parse_hand_id(text: str, language: Language = ENGLISH) -> int:
    """A hand's id as the table shows it, ``18`` or ``#18``."""
    digits = text.strip().removeprefix("#")
    if not (digits.isdecimal() and digits.isascii() and 0 < len(digits) < 19 and int(digits)):
        raise refusal(language, tr("'{text}' is not a hand id: write the number after "
                                   "'Hand #', like 18", text=text[:20]))
    return int(digits)


async def recorded_hand(database: Path, hand_id: int | None,
                        player: int | None) -> tuple[HandRecord, RecordedHand, int | None]:
    """The finished hand ``hand_id`` (default: the player's latest at the offline table) in
    the ledger at ``database``, its replay record, and the seat in it of ``player`` (default:
    the offline player, ``None`` when they did not play it). Raises ``HoldemError`` saying
    why when there is no such database or hand, the file is not a ledger, the hand was
    played before replays were recorded, or ``player`` did not play it."""
    if not database.is_file():
        raise HoldemError(tr("there is no database at {path}", path=str(database)))
    try:
        ledger = await Ledger.open(database, existing=True)
    except LedgerUnavailable as error:
        # Its reason says what is wrong with the file (not a ledger, unreadable): waiting a
        # minute, as the ledger's own message suggests to people on Discord, would not help.
        raise HoldemError(error.reason) from None
    try:
        if hand_id is None:
            hand_id = await _latest_hand(ledger, database, player)
        record = await ledger.hand_history(hand_id)
    finally:
        await ledger.close()
    if record is None:
        raise HoldemError(tr("there is no finished hand #{hand} in {path}", hand=str(hand_id),
                             path=str(database)))
    if record.replay is None:
        raise HoldemError(tr("hand #{hand} was played before replays were recorded",
                             hand=str(hand_id)))
    seat = record.seat_of(player if player is not None else LOCAL_USER_ID)
    if player is not None and seat is None:
        raise HoldemError(tr("user {user} did not play hand #{hand}", user=str(player),
                             hand=str(hand_id)))
    return record, RecordedHand.from_json(record.replay), seat


async def _latest_hand(ledger: Ledger, database: Path, player: int | None) -> int:
    """The id of the latest hand ``player`` (default: the offline player) finished at the
    offline table, as ``/review`` defaults to the member's latest; ``HoldemError`` if none."""
    recent = await ledger.recent_hands(GUILD_ID, LOCAL_USER_ID if player is None else player,
                                       limit=1)
    if recent:
        return recent[0].hand_id
    if player is None:
        raise HoldemError(tr("you have not finished a hand in {path} yet: python -m bot play "
                             "deals one", path=str(database)))
    raise HoldemError(tr("user {user} has not finished a hand at the offline table in {path}: "
                         "give the hand's id", user=str(player), path=str(database)))

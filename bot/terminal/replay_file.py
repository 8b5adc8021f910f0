"""``python -m bot replay HAND [--out FILE.gif]``: a hand's replay as a file.

The same image ``/replay`` attaches, drawn from the same ledger: by default the offline game's,
and as you, the offline player, saw the hand (your cards face up, under the name the terminal
gives you) when you played it; ``--player`` names another player of the hand (a user id). The
file's suffix says what it holds: ``.gif`` the animation, ``.png`` the last frame (the result);
``--still`` writes that frame as well.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.errors import HoldemError
from bot.i18n import ENGLISH, Language, tr
from bot.ledger import Ledger, LedgerUnavailable
from bot.render.replay import DEFAULT_UPLOAD_LIMIT, ReplayImage, render_replay
from bot.terminal.cli import (
    APP_NAME,
    COMMAND,
    DATABASE_FILE,
    LANGUAGE_CHOICES,
    default_database_path,
    localized,
    refusal,
)
from bot.terminal.game import LOCAL_USER_ID
from bot.terminal.language import command_line_language
from bot.terminal.render import YOU
from engine.hand_record import RecordedHand

ANIMATION, STILL = ".gif", ".png"


def _image_path(text: str, language: Language = ENGLISH) -> Path:
    """``--out``: a file whose suffix names its format."""
    path = Path(text)
    if path.suffix.lower() not in (ANIMATION, STILL):
        raise refusal(language, tr("'{name}' must end in .gif (the animation) or .png (the "
                                   "last frame, the result)", name=text))
    return path


def _still_path(text: str, language: Language = ENGLISH) -> Path:
    """``--still``: a PNG file."""
    path = Path(text)
    if path.suffix.lower() != STILL:
        raise refusal(language, tr("'{name}' must end in .png: the last frame is a PNG",
                                   name=text))
    return path


def build_parser(language: Language = ENGLISH) -> argparse.ArgumentParser:
    """The parser of ``holdem replay``, its help in ``language``."""
    say = language.render
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} replay",
        description=say(tr("Write a finished hand's replay: an animated GIF, or its last "
                           "frame (the result) as a PNG.")))
    parser.add_argument("hand", type=int, help=say(tr("the hand's id (as /history shows it)")))
    parser.add_argument("--database", type=Path, default=None, metavar="PATH",
                        help=say(tr("SQLite file of the ledger (default: the offline game's, "
                                    "{file} in your data directory, e.g. {folder})",
                                    file=DATABASE_FILE, folder="~/.local/share/" + APP_NAME)))
    parser.add_argument("--out", type=localized(language, _image_path), required=True,
                        metavar="FILE.gif|FILE.png",
                        help=say(tr("where to write it: a .gif file gets the animation, a "
                                    ".png file the last frame")))
    parser.add_argument("--still", type=localized(language, _still_path), default=None,
                        metavar="FILE.png",
                        help=say(tr("also write the last frame (the result) as a PNG")))
    parser.add_argument("--player", type=int, default=None, metavar="USER_ID",
                        help=say(tr("draw it as this player of the hand sees it (their cards "
                                    "face up; default: you, the offline player, when you "
                                    "played the hand)")))
    parser.add_argument("--limit", type=int, default=DEFAULT_UPLOAD_LIMIT, metavar="BYTES",
                        help=say(tr("the largest file (default: Discord's 10 MiB)")))
    parser.add_argument("--lang", "--language", dest="language", default=None,
                        metavar="LANGUAGE",
                        help=say(tr("the language of these messages and of the image: "
                                    "{languages} (default: from LC_ALL, LC_MESSAGES or LANG)",
                                    languages=LANGUAGE_CHOICES)))
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Write the replay; 0 on success, 1 with one line on stderr when the hand cannot be
    replayed (no such database or hand, a file that is not a ledger, a hand played before
    replays were recorded) or a file cannot be written, 2 for bad options."""
    language, problem = command_line_language(argv, os.environ if environ is None else environ)
    say = language.render
    if problem is not None:
        print(say(tr("error: {problem}", problem=problem)), file=sys.stderr)
        return 2
    args = build_parser(language).parse_args(list(argv))
    database = args.database or default_database_path()
    try:
        image = asyncio.run(_replay(database, args.hand, args.player, args.limit, language))
    except HoldemError as error:
        print(say(tr("error: {problem}", problem=error.message)), file=sys.stderr)
        return 1
    out: Path = args.out
    if out.suffix.lower() == STILL:
        written = _write(out, image.still, language)
    elif image.animation is None:
        print(say(tr("error: not even the streets-only replay fits the limit; --still writes "
                     "the result")), file=sys.stderr)
        written = False
    else:
        written = _write(out, image.animation, language, frames=image.frames,
                         streets_only=image.streets_only)
    if args.still is not None:
        written = _write(args.still, image.still, language) and written
    return 0 if written else 1


def _write(path: Path, data: bytes, language: Language, *, frames: int | None = None,
           streets_only: bool = False) -> bool:
    """Write ``data`` (an animation of ``frames`` frames, or a still) and say so; a path
    that cannot be written is one line on stderr."""
    say = language.render
    try:
        path.write_bytes(data)
    except OSError as error:
        print(say(tr("error: cannot write {path}: {reason}", path=str(path),
                     reason=error.strerror or str(error))), file=sys.stderr)
        return False
    size = len(data)
    if frames is None:
        print(say(tr("wrote {path}: {size} bytes", path=str(path), size=size)))
    elif streets_only:
        print(say(tr("wrote {path}: {frames} frames, streets only, {size} bytes",
                     path=str(path), frames=frames, size=size)))
    else:
        print(say(tr("wrote {path}: {frames} frames, {size} bytes", path=str(path),
                     frames=frames, size=size)))
    return True


async def _replay(database: Path, hand_id: int, player: int | None, limit: int,
                  language: Language) -> ReplayImage:
    if not database.is_file():
        raise HoldemError(tr("there is no database at {path}", path=str(database)))
    try:
        ledger = await Ledger.open(database, existing=True)
    except LedgerUnavailable as error:
        # Its reason says what is wrong with the file (not a ledger, unreadable): waiting a
        # minute, as the ledger's own message suggests to people on Discord, would not help.
        raise HoldemError(error.reason) from None
    try:
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
    # The offline player is "You", as on the terminal's table.
    names = [language.render(YOU) if participant.player == LOCAL_USER_ID else participant.name
             for participant in record.participants]
    return render_replay(RecordedHand.from_json(record.replay), names, seat,
                         title=record.hand_id, limit=limit, language=language)

"""``python -m bot replay HAND [--out FILE.gif]``: a hand's replay as a file.

The same image ``/replay`` attaches, drawn from the same ledger: by default the offline game's,
and as you, the offline player, saw the hand (your cards face up, under the name the terminal
gives you) when you played it; ``--player`` names another player of the hand (a user id). The
file's suffix says what it holds: ``.gif`` the animation, ``.png`` the last frame (the result);
``--still`` writes that frame as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.i18n import ENGLISH, Language, tr
from bot.render.replay import DEFAULT_UPLOAD_LIMIT, ReplayImage, render_replay
from bot.terminal.cli import (
    COMMAND,
    LANGUAGE_CHOICES,
    default_database_path,
    localized,
    refusal,
)
from bot.terminal.game import LOCAL_USER_ID
from bot.terminal.ledger_hand import add_hand_arguments, recorded_hand, run_command
from bot.terminal.render import YOU

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
    add_hand_arguments(
        parser, language,
        player_help=tr("draw it as this player of the hand sees it (their cards face up; "
                       "default: you, the offline player, when you played the hand)"),
        language_help=tr("the language of these messages and of the image: {languages} "
                         "(default: from LC_ALL, LC_MESSAGES or LANG)",
                         languages=LANGUAGE_CHOICES))
    parser.add_argument("--out", type=localized(language, _image_path), required=True,
                        metavar="FILE.gif|FILE.png",
                        help=say(tr("where to write it: a .gif file gets the animation, a "
                                    ".png file the last frame")))
    parser.add_argument("--still", type=localized(language, _still_path), default=None,
                        metavar="FILE.png",
                        help=say(tr("also write the last frame (the result) as a PNG")))
    parser.add_argument("--limit", type=int, default=DEFAULT_UPLOAD_LIMIT, metavar="BYTES",
                        help=say(tr("the largest file (default: Discord's 10 MiB)")))
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Write the replay; 0 on success, 1 with one line on stderr when the hand cannot be
    replayed (no such database or hand, a file that is not a ledger, a hand played before
    replays were recorded) or a file cannot be written, 2 for bad options."""
    return run_command(argv, environ, build_parser, _replay_to_files)


async def _replay_to_files(args: argparse.Namespace, language: Language) -> int:
    image = await _replay(args.database or default_database_path(), args.hand, args.player,
                          args.limit, language)
    out: Path = args.out
    if out.suffix.lower() == STILL:
        written = _write(out, image.still, language)
    elif image.animation is None:
        print(language.render(tr("error: not even the streets-only replay fits the limit; "
                                 "--still writes the result")), file=sys.stderr)
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


async def _replay(database: Path, hand_id: int | None, player: int | None, limit: int,
                  language: Language) -> ReplayImage:
    record, played, seat = await recorded_hand(database, hand_id, player)
    # The offline player is "You", as on the terminal's table, told in the second person.
    you = record.seat_of(LOCAL_USER_ID)
    names = [language.render(YOU) if index == you else participant.name
             for index, participant in enumerate(record.participants)]
    return render_replay(played, names, seat, title=record.hand_id, limit=limit,
                         language=language, you=you)

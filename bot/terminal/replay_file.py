"""``python -m bot replay HAND --database PATH --out FILE.gif``: a hand's replay as a file.

The same image ``/replay`` attaches, drawn from the same ledger: for someone who was not in
the hand unless ``--player`` names a player of it (a user id), whose cards are then face up.
The last frame (the result) can be written as a PNG with ``--still``.
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
from bot.ledger import Ledger
from bot.render.replay import DEFAULT_UPLOAD_LIMIT, ReplayImage, render_replay
from bot.terminal.cli import COMMAND, LANGUAGE_CHOICES
from bot.terminal.language import command_line_language
from engine.hand_record import RecordedHand


def build_parser(language: Language = ENGLISH) -> argparse.ArgumentParser:
    """The parser of ``holdem replay``, its help in ``language``."""
    say = language.render
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} replay",
        description=say(tr("Write a finished hand's replay as an animated GIF.")))
    parser.add_argument("hand", type=int, help=say(tr("the hand's id (as /history shows it)")))
    parser.add_argument("--database", type=Path, required=True, metavar="PATH",
                        help=say(tr("SQLite file of the ledger")))
    parser.add_argument("--out", type=Path, required=True, metavar="FILE.gif",
                        help=say(tr("where to write the animation")))
    parser.add_argument("--still", type=Path, default=None, metavar="FILE.png",
                        help=say(tr("also write the last frame (the result) as a PNG")))
    parser.add_argument("--player", type=int, default=None, metavar="USER_ID",
                        help=say(tr("draw it as this player of the hand sees it (their cards "
                                    "face up)")))
    parser.add_argument("--limit", type=int, default=DEFAULT_UPLOAD_LIMIT, metavar="BYTES",
                        help=say(tr("the largest file (default: Discord's 10 MiB)")))
    parser.add_argument("--lang", "--language", dest="language", default=None,
                        metavar="LANGUAGE",
                        help=say(tr("the language of these messages: {languages} (default: "
                                    "from LC_ALL, LC_MESSAGES or LANG)",
                                    languages=LANGUAGE_CHOICES)))
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Write the replay; 0 on success, 1 with one line on stderr when the hand cannot be
    replayed (no such database or hand, or one played before replays were recorded), 2 for
    a language it does not speak."""
    language, refusal = command_line_language(argv, os.environ if environ is None else environ)
    say = language.render
    if refusal is not None:
        print(say(tr("error: {problem}", problem=refusal)), file=sys.stderr)
        return 2
    args = build_parser(language).parse_args(list(argv))
    try:
        image = asyncio.run(_replay(args.database, args.hand, args.player, args.limit))
    except HoldemError as error:
        print(say(tr("error: {problem}", problem=error.message)), file=sys.stderr)
        return 1
    if image.animation is None:
        print(say(tr("error: not even the streets-only replay fits the limit; --still writes "
                     "the result")), file=sys.stderr)
    else:
        args.out.write_bytes(image.animation)
        size = len(image.animation)
        print(say(tr("wrote {path}: {frames} frames, streets only, {size} bytes",
                     path=str(args.out), frames=image.frames, size=size)
                  if image.streets_only else
                  tr("wrote {path}: {frames} frames, {size} bytes", path=str(args.out),
                     frames=image.frames, size=size)))
    if args.still is not None:
        args.still.write_bytes(image.still)
        print(say(tr("wrote {path}: {size} bytes", path=str(args.still),
                     size=len(image.still))))
    return 0 if image.animation is not None else 1


async def _replay(database: Path, hand_id: int, player: int | None,
                  limit: int) -> ReplayImage:
    if not database.is_file():
        raise HoldemError(tr("there is no database at {path}", path=str(database)))
    ledger = await Ledger.open(database)
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
    seat = record.seat_of(player) if player is not None else None
    if player is not None and seat is None:
        raise HoldemError(tr("user {user} did not play hand #{hand}", user=str(player),
                             hand=str(hand_id)))
    names = [participant.name for participant in record.participants]
    return render_replay(RecordedHand.from_json(record.replay), names, seat,
                         title=record.hand_id, limit=limit)

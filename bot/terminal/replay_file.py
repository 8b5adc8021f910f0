"""``python -m bot replay HAND --database PATH --out FILE.gif``: a hand's replay as a file.

The same image ``/replay`` attaches, drawn from the same ledger: for someone who was not in
the hand unless ``--player`` names a player of it (a user id), whose cards are then face up.
The last frame (the result) can be written as a PNG with ``--still``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.errors import HoldemError
from bot.ledger import Ledger
from bot.render.replay import DEFAULT_UPLOAD_LIMIT, ReplayImage, render_replay
from engine.hand_record import RecordedHand


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``holdem replay``."""
    parser = argparse.ArgumentParser(
        prog="holdem replay", description="Write a finished hand's replay as an animated GIF.")
    parser.add_argument("hand", type=int, help="the hand's id (as /history shows it)")
    parser.add_argument("--database", type=Path, required=True, metavar="PATH",
                        help="SQLite file of the ledger")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE.gif",
                        help="where to write the animation")
    parser.add_argument("--still", type=Path, default=None, metavar="FILE.png",
                        help="also write the last frame (the result) as a PNG")
    parser.add_argument("--player", type=int, default=None, metavar="USER_ID",
                        help="draw it as this player of the hand sees it (their cards face up)")
    parser.add_argument("--limit", type=int, default=DEFAULT_UPLOAD_LIMIT, metavar="BYTES",
                        help="the largest file (default: Discord's 10 MiB)")
    return parser


def main(argv: Sequence[str]) -> int:
    """Write the replay; 0 on success, 1 with one line on stderr when the hand cannot be
    replayed (no such database or hand, or one played before replays were recorded)."""
    args = build_parser().parse_args(list(argv))
    try:
        image = asyncio.run(_replay(args.database, args.hand, args.player, args.limit))
    except HoldemError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if image.animation is None:
        print("error: not even the streets-only replay fits the limit; --still writes the "
              "result", file=sys.stderr)
    else:
        args.out.write_bytes(image.animation)
        cut = ", streets only" if image.streets_only else ""
        print(f"wrote {args.out}: {image.frames} frames{cut}, {len(image.animation):,} bytes")
    if args.still is not None:
        args.still.write_bytes(image.still)
        print(f"wrote {args.still}: {len(image.still):,} bytes")
    return 0 if image.animation is not None else 1


async def _replay(database: Path, hand_id: int, player: int | None,
                  limit: int) -> ReplayImage:
    if not database.is_file():
        raise HoldemError(f"there is no database at {database}")
    ledger = await Ledger.open(database)
    try:
        record = await ledger.hand_history(hand_id)
    finally:
        await ledger.close()
    if record is None:
        raise HoldemError(f"there is no finished hand #{hand_id} in {database}")
    if record.replay is None:
        raise HoldemError(f"hand #{hand_id} was played before replays were recorded")
    seat = record.seat_of(player) if player is not None else None
    if player is not None and seat is None:
        raise HoldemError(f"user {player} did not play hand #{hand_id}")
    names = [participant.name for participant in record.participants]
    return render_replay(RecordedHand.from_json(record.replay), names, seat,
                         title=record.hand_id, limit=limit)

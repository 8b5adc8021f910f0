"""``python -m bot review HAND``: ``/review`` in the terminal, from the same ledger.

By default the offline game's ledger and the offline player's decisions; ``--player`` names
another player of the hand (a user id). The lines are ``/review``'s, in the terminal's
language: the hand, each decision priced (``engine.coach.review``), what the figures assume.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Mapping, Sequence

from bot.errors import HoldemError
from bot.i18n import ENGLISH, Language, tr
from bot.i18n.coach import review, review_text
from bot.terminal.cli import COMMAND, LANGUAGE_CHOICES, default_database_path
from bot.terminal.ledger_hand import add_hand_arguments, recorded_hand, run_command


def build_parser(language: Language = ENGLISH) -> argparse.ArgumentParser:
    """The parser of ``holdem review``, its help in ``language``."""
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} review",
        description=language.render(tr(
            "Review your decisions in a finished hand: the pot odds, your equity, the "
            "expected value of each choice.")))
    add_hand_arguments(
        parser, language,
        player_help=tr("review this player's decisions (default: yours, the offline "
                       "player's)"),
        language_help=tr("the language of the review: {languages} (default: from LC_ALL, "
                         "LC_MESSAGES or LANG)", languages=LANGUAGE_CHOICES))
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Print the review; 0 on success, 1 with one line on stderr when the hand cannot be
    reviewed (no such database or hand, a file that is not a ledger, a hand played before
    replays were recorded, a hand the player did not play), 2 for bad options."""
    return run_command(argv, environ, build_parser, _print_review)


async def _print_review(args: argparse.Namespace, language: Language) -> int:
    record, played, seat = await recorded_hand(
        args.database or default_database_path(), args.hand, args.player)
    if seat is None:
        raise HoldemError(tr("you did not play hand #{hand}", hand=str(record.hand_id)))
    found = await asyncio.to_thread(review, played, seat)
    for line in review_text(record.hand_id, found):
        print(language.render(line))
    return 0

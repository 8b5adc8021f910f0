"""The options of ``python -m bot play``, read into one frozen value."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from bot.amounts import parse_amount
from bot.errors import InputError
from engine.strategies import LEVELS as BOT_LEVELS

DEFAULT_BOTS = BOT_LEVELS
DEFAULT_BLINDS = (10, 20)
MAX_BOTS = 8  # nine seats: the local player and up to eight bots
APP_NAME = "holdem-discord"
DATABASE_FILE = "holdem.sqlite3"


def default_database_path() -> Path:
    """Where offline play keeps its ledger without ``--database``: the user's data directory
    (``$XDG_DATA_HOME/holdem-discord`` on Linux), so a game started from any directory finds
    the same chips and leaves no ``data/`` folder behind."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DATABASE_FILE


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What the player asked for on the command line."""

    bots: tuple[str, ...] = DEFAULT_BOTS
    small_blind: int = DEFAULT_BLINDS[0]
    big_blind: int = DEFAULT_BLINDS[1]
    buy_in: int | None = None
    database_path: Path = field(default_factory=default_database_path)
    seed: int | None = None
    fast: bool = False
    colour: bool | None = None  # None: decide from the terminal and NO_COLOR


def parse_bots(text: str) -> tuple[str, ...]:
    """Read ``easy,medium,hard``: one level per bot opponent, in seating order."""
    levels = tuple(word.strip().lower() for word in text.split(",") if word.strip())
    if not levels:
        raise argparse.ArgumentTypeError("name at least one bot, like 'easy,medium,hard'")
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {unknown[0]!r}: use {', '.join(BOT_LEVELS)}"
        )
    if len(levels) > MAX_BOTS:
        raise argparse.ArgumentTypeError(f"at most {MAX_BOTS} bots fit at the table")
    return levels


def parse_blinds(text: str) -> tuple[int, int]:
    """Read ``10/20`` as the small and the big blind."""
    small_text, slash, big_text = text.partition("/")
    try:
        if not slash:
            raise InputError("no slash")
        small, big = parse_amount(small_text), parse_amount(big_text)
    except InputError:
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is not blinds: write them like '10/20'") from None
    if small > big:
        raise argparse.ArgumentTypeError("the small blind must be at most the big blind")
    return small, big


def _positive_int(text: str) -> int:
    try:
        return parse_amount(text)
    except InputError:
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is not a positive whole number of chips") from None


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``holdem play``."""
    parser = argparse.ArgumentParser(
        prog="holdem play",
        description="Play No-Limit Texas Hold'em against bots in the terminal, offline. "
        "Your chips are kept in the same SQLite ledger as on Discord.",
    )
    parser.add_argument(
        "--bots", type=parse_bots, default=DEFAULT_BOTS, metavar="LEVELS",
        help="bot opponents, comma separated levels (default: easy,medium,hard)",
    )
    parser.add_argument(
        "--blinds", type=parse_blinds, default=DEFAULT_BLINDS, metavar="SMALL/BIG",
        help="small and big blind (default: 10/20)",
    )
    parser.add_argument(
        "--buy-in", type=_positive_int, default=None, metavar="CHIPS",
        help="chips to bring to the table (default: the table's standard buy-in)",
    )
    parser.add_argument(
        "--database", type=Path, default=None, metavar="PATH",
        help="SQLite file of the ledger (default: holdem.sqlite3 in your data directory, "
        "e.g. ~/.local/share/holdem-discord)",
    )
    parser.add_argument(
        "--seed", type=_seed, default=None, metavar="N",
        help="shuffle with a seeded generator, for a reproducible game",
    )
    parser.add_argument("--fast", action="store_true", help="no pauses before bots act")
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument(
        "--color", "--colour", dest="colour", action="store_true", default=None,
        help="coloured suits even when the output is not a terminal",
    )
    colour.add_argument(
        "--no-color", "--no-colour", dest="colour", action="store_false",
        help="plain suit letters (also when NO_COLOR is set)",
    )
    return parser


def parse_options(argv: Sequence[str]) -> PlayOptions:
    """Read the command line; exits with a usage message on bad options, as argparse does."""
    args = build_parser().parse_args(list(argv))
    database = args.database or default_database_path()
    small, big = args.blinds
    return PlayOptions(
        bots=args.bots, small_blind=small, big_blind=big, buy_in=args.buy_in,
        database_path=database, seed=args.seed, fast=args.fast, colour=args.colour,
    )

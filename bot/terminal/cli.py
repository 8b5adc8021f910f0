"""The options of ``python -m bot play``, read into one frozen value."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import platformdirs

from bot.amounts import parse_amount
from bot.errors import InputError
from bot.i18n import ENGLISH, Language, Text, tr
from engine.blinds import PRESETS as STRUCTURES
from engine.hand import Straddle
from engine.strategies import LEVELS as BOT_LEVELS

DEFAULT_BOTS = ("easy", "medium", "hard")
"""The table's opponents without ``--bots``; ``expert`` is there to be asked for by name."""
DEFAULT_TOURNAMENT_BOTS = ("medium",) * 5
"""A tournament's opponents without ``--bots``: a six-player sit-and-go."""
DEFAULT_STRUCTURE = "regular"
DEFAULT_TOURNAMENT_BUY_IN = 500
DEFAULT_STARTING_STACK = 1500
DEFAULT_BLINDS = (10, 20)
MAX_BOTS = 8  # nine seats: the local player and up to eight bots
APP_NAME = "holdem-discord"
COMMAND = "holdem"
LANGUAGE_CHOICES = ", ".join(("en", "zh-Hans (简体中文, zh-CN)", "zh-Hant (繁體中文, zh-TW)"))
"""What ``--lang`` takes, as its help and its refusal say."""
T = TypeVar("T")
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
    tournament: bool = False
    """``--tournament``: a sit-and-go against the bots instead of a cash table."""
    structure: str = DEFAULT_STRUCTURE
    """The tournament's blind structure preset (``turbo``, ``regular``, ``deep``)."""
    starting_stack: int = DEFAULT_STARTING_STACK
    """The tournament's starting stack (``--stack``)."""
    straddle: str = "off"
    """``--straddle utg|button``: a straddle of two big blinds posted every hand at a cash
    table, by the seat after the big blind or by the button (``TableSettings.straddle``)."""
    hints: bool = False
    """``--hints``: the coach's hint (``engine.coach.hint``) before each of the player's
    turns, at a cash table or in a tournament."""
    language: str | None = None
    """``--lang`` as typed (``zh-Hans``, ``zh-TW``, ``en``); ``None``: the system locale's.
    ``bot.terminal.language.choose_language`` reads it."""


def parse_bots(text: str, language: Language = ENGLISH) -> tuple[str, ...]:
    """Read ``easy,medium,hard``: one level per bot opponent, in seating order."""
    levels = tuple(word.strip().lower() for word in text.split(",") if word.strip())
    if not levels:
        raise refusal(language, tr("name at least one bot, like 'easy,medium,hard'"))
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown:
        raise refusal(language, tr("unknown bot level '{level}': use {levels}",
                                    level=unknown[0][:20], levels=", ".join(BOT_LEVELS)))
    if len(levels) > MAX_BOTS:
        raise refusal(language, tr("at most {count} bots fit at the table", count=MAX_BOTS))
    return levels


def parse_structure(text: str, language: Language = ENGLISH) -> str:
    """Read a blind structure preset name: ``turbo``, ``regular`` or ``deep``."""
    name = text.strip().lower()
    if name not in STRUCTURES:
        raise refusal(language, tr("unknown blind structure '{name}': use {structures}",
                                    name=text[:20], structures=", ".join(STRUCTURES)))
    return name


def parse_blinds(text: str, language: Language = ENGLISH) -> tuple[int, int]:
    """Read ``10/20`` as the small and the big blind."""
    small_text, slash, big_text = text.partition("/")
    try:
        small, big = parse_amount(small_text), parse_amount(big_text)
    except InputError:
        small = big = 0
    if not slash or not small:
        raise refusal(language, tr("'{text}' is not blinds: write them like '10/20'",
                                    text=text[:20]))
    if small > big:
        raise refusal(language, tr("the small blind must be at most the big blind"))
    return small, big


def _positive_int(text: str, language: Language = ENGLISH) -> int:
    try:
        return parse_amount(text)
    except InputError:
        raise refusal(language, tr("'{text}' is not a positive whole number of chips",
                                    text=text[:20])) from None


def _seed(text: str, language: Language = ENGLISH) -> int:
    try:
        return int(text)
    except ValueError:
        raise refusal(language, tr("'{text}' is not a whole number", text=text[:20])) from None


def refusal(language: Language, message: Text) -> argparse.ArgumentTypeError:
    """What argparse prints after the option's name, in the player's language."""
    return argparse.ArgumentTypeError(language.render(message))


def localized(language: Language, read: Callable[[str, Language], T]) -> Callable[[str], T]:
    """``read`` with its refusals in ``language``, as an argparse ``type``."""
    def typed(text: str) -> T:
        return read(text, language)

    typed.__name__ = read.__name__
    return typed


def build_parser(language: Language = ENGLISH) -> argparse.ArgumentParser:
    """The parser of ``holdem play``, its help and refusals in ``language`` (argparse's own
    words, like ``usage:``, stay English)."""
    say = language.render
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} play",
        description=say(tr("Play No-Limit Texas Hold'em against bots in the terminal, "
                           "offline. Your chips are kept in the same SQLite ledger as on "
                           "Discord.")),
    )
    parser.add_argument(
        "--bots", type=localized(language, parse_bots), default=None, metavar="LEVELS",
        help=say(tr("bot opponents, comma separated levels (default: {levels}; in a "
                    "tournament: {tournament_levels}, all of one level)",
                    levels=",".join(DEFAULT_BOTS),
                    tournament_levels=",".join(DEFAULT_TOURNAMENT_BOTS))),
    )
    parser.add_argument(
        "--blinds", type=localized(language, parse_blinds), default=DEFAULT_BLINDS,
        metavar="SMALL/BIG", help=say(tr("small and big blind (default: {blinds})",
                                         blinds="{}/{}".format(*DEFAULT_BLINDS))),
    )
    parser.add_argument(
        "--buy-in", type=localized(language, _positive_int), default=None, metavar="CHIPS",
        help=say(tr("chips to bring to the table (default: the table's standard buy-in); "
                    "in a tournament, its buy-in (default: {chips})",
                    chips=DEFAULT_TOURNAMENT_BUY_IN)),
    )
    parser.add_argument(
        "--tournament", action="store_true",
        help=say(tr("play a sit-and-go tournament against the bots instead of a cash table: "
                    "everyone starts with the same stack, the blinds rise every few hands, "
                    "the last players standing share the prize pool")),
    )
    parser.add_argument(
        "--structure", type=localized(language, parse_structure), default=None,
        metavar="NAME",
        help=say(tr("the tournament's blind structure: {structures} (default: {structure})",
                    structures=", ".join(STRUCTURES), structure=DEFAULT_STRUCTURE)),
    )
    parser.add_argument(
        "--stack", type=localized(language, _positive_int), default=None, metavar="CHIPS",
        help=say(tr("the tournament's starting stack (default: {chips})",
                    chips=DEFAULT_STARTING_STACK)),
    )
    parser.add_argument(
        "--database", type=Path, default=None, metavar="PATH",
        help=say(tr("SQLite file of the ledger (default: {file} in your data directory, "
                    "e.g. {folder})", file=DATABASE_FILE, folder="~/.local/share/" + APP_NAME)),
    )
    parser.add_argument(
        "--seed", type=localized(language, _seed), default=None, metavar="N",
        help=say(tr("shuffle with a seeded generator, for a reproducible game")),
    )
    parser.add_argument("--fast", action="store_true",
                        help=say(tr("no pauses before bots act")))
    parser.add_argument(
        "--straddle", choices=[str(kind) for kind in Straddle], default="off",
        help=say(tr("a straddle of two big blinds every hand at a cash table: utg, the seat "
                    "after the big blind, or button")),
    )
    parser.add_argument("--hints", action="store_true",
                        help=say(tr("before each of your turns, a hint: your hand in words, "
                                    "draws and outs, your equity")))
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument(
        "--color", "--colour", dest="colour", action="store_true", default=None,
        help=say(tr("coloured suits even when the output is not a terminal")),
    )
    colour.add_argument(
        "--no-color", "--no-colour", dest="colour", action="store_false",
        help=say(tr("plain suit letters (also when NO_COLOR is set)")),
    )
    parser.add_argument(
        "--lang", "--language", dest="language", default=None, metavar="LANGUAGE",
        help=say(tr("the language to play in: {languages} (default: from LC_ALL, LC_MESSAGES "
                    "or LANG)", languages=LANGUAGE_CHOICES)),
    )
    return parser


def parse_options(argv: Sequence[str], language: Language = ENGLISH) -> PlayOptions:
    """Read the command line; exits with a usage message on bad options, as argparse does
    (its refusals in ``language``)."""
    parser = build_parser(language)
    args = parser.parse_args(list(argv))
    if not args.tournament and (args.structure is not None or args.stack is not None):
        # Refused rather than implying --tournament: --stack could be meant as a buy-in.
        parser.error(language.render(tr(
            "--structure and --stack are a tournament's: add --tournament (at a cash table, "
            "--buy-in sets your stack)")))
    database = args.database or default_database_path()
    small, big = args.blinds
    bots = args.bots
    if bots is None:
        bots = DEFAULT_TOURNAMENT_BOTS if args.tournament else DEFAULT_BOTS
    elif args.tournament and len(set(bots)) > 1:
        # The tournament fills its empty places with bots of one level.
        parser.error(language.render(tr(
            "the bots of a tournament are all of one level: write it once per bot, like "
            "'{example}'", example=",".join((bots[0],) * len(bots)))))
    return PlayOptions(
        bots=bots, small_blind=small, big_blind=big, buy_in=args.buy_in,
        database_path=database, seed=args.seed, fast=args.fast, colour=args.colour,
        tournament=args.tournament, structure=args.structure or DEFAULT_STRUCTURE,
        starting_stack=args.stack or DEFAULT_STARTING_STACK, language=args.language,
        hints=args.hints,
        straddle=args.straddle,
    )

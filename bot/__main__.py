"""Entry point: `python -m bot` (or `holdem`) runs the Discord bot; `play` runs it offline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.logging_setup import configure_logging
from bot.settings import MISSING_TOKEN_HELP, Settings, SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem",
        description="No-Limit Texas Hold'em for Discord. Without a sub-command, runs the bot.",
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (the default)")
    return parser


def run_discord_bot() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        print(MISSING_TOKEN_HELP, file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.discord_app import create_bot

    create_bot(settings).run(settings.token, log_handler=None)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in (None, "run"):
        return run_discord_bot()
    raise AssertionError(f"unhandled command {args.command!r}")


if __name__ == "__main__":
    sys.exit(main())

"""Entry point: `python -m bot` (or `holdem`) runs the Discord bot; `play` runs it offline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.process import configure_logging
from bot.settings import MISSING_TOKEN_HELP, Settings, SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem",
        description="No-Limit Texas Hold'em for Discord. Without a sub-command, runs the bot.",
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (the default)")
    commands.add_parser(
        "play", add_help=False, help="play offline in the terminal against bots (play --help)"
    )
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
    from bot.discord_ui.app import create_bot
    from bot.process import tune_garbage_collector

    bot = create_bot(settings)
    tune_garbage_collector()  # modules and the bot are built: keep them out of collections
    bot.run(settings.token, log_handler=None)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "play":
        from bot.terminal import main as play_in_terminal

        return play_in_terminal(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command in (None, "run"):
        return run_discord_bot()
    raise AssertionError(f"unhandled command {args.command!r}")


if __name__ == "__main__":
    sys.exit(main())

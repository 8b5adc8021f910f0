"""Entry point: `python -m bot` (or `holdem`) runs the Discord bot; `play` runs it offline;
`replay` and `review` read a finished hand from the ledger."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from bot.process import configure_logging
from bot.settings import Settings, SettingsError, missing_token_help

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot
    from bot.ledger import Ledger


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem",
        description="No-Limit Texas Hold'em for Discord. Without a sub-command, runs the bot.",
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser(
        "run", help="run the Discord bot (the default)",
        description="Run the Discord bot until it is stopped, with the settings of the "
        "environment variables: DISCORD_TOKEN, and those README lists under Configuration. "
        "Without DISCORD_TOKEN it says how to set the bot up.",
    )
    commands.add_parser(
        "play", add_help=False, help="play offline in the terminal against bots (play --help)"
    )
    commands.add_parser(
        "replay", add_help=False,
        help="write a finished hand's replay as a GIF or its result as a PNG (replay --help)"
    )
    commands.add_parser(
        "backfill-habits", help="count the habits of hands settled before they were counted",
        description="Count the habits (3-bet, c-bet, showdowns…) of the hands settled before "
        "the bot counted them as hands settle, and add them to people's /stats, in the ledger "
        "of DATABASE_URL or DATABASE_PATH. Run once after upgrading; it may run beside the "
        "bot, and counts each hand once however often it runs.",
    )
    prune = commands.add_parser(
        "prune-hands", help="drop the details (history, replay) of old hands to save disk",
        description="Clear the history text and replay of the hands finished more than DAYS "
        "days ago, in the ledger of DATABASE_URL or DATABASE_PATH. Balances, stats, "
        "leaderboards and every hand's results stay; /history, /replay and /review then say "
        "such a hand's details were pruned. It may run beside the bot. Hands whose habits are "
        "not counted yet are kept: run backfill-habits first. SQLite gives the space back to "
        "the disk only after VACUUM (README, Disk).",
    )
    prune.add_argument("--days", type=_days, required=True,
                       help="keep the details of the hands of the last DAYS days (at least 1)")
    commands.add_parser(
        "web", help="serve the web companion: servers, players, hands and tournaments in a "
                    "browser",
        description="Serve the web pages over the ledger of DATABASE_URL or DATABASE_PATH on "
        "WEB_HOST:WEB_PORT (default 127.0.0.1:8080); people log in with Discord through "
        "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, and WEB_BASE_URL is the address they "
        "open.",
    )
    commands.add_parser(
        "review", add_help=False,
        help="review your decisions in a finished hand: pot odds, equity, expected values "
             "(review --help)"
    )
    return parser


async def start_problem(settings: Settings) -> str | None:
    """Why the bot cannot start on its chip ledger, or ``None``: the database cannot be
    opened, or another process runs one of this process's shards. Checked before the bot
    connects to Discord, so either is one line at once, not a failure after login; the claim
    taken here is this process's (the bot takes it again under the same name)."""
    from bot.ledger import Ledger, LedgerUnavailable, ShardsTaken
    from bot.process import PROCESS_TOKEN
    from bot.tables.shard_lease import ShardLease

    try:
        ledger = await Ledger.open(settings.database)
    except LedgerUnavailable as error:
        fix = ("check DATABASE_URL" if settings.database_url
               else "set DATABASE_PATH to a database file")
        return f"{error.reason}; {fix}."
    try:
        if not settings.wait_for_shards:  # else the bot waits for them, logging that it does
            await ShardLease(ledger, PROCESS_TOKEN, settings.shards,
                             settings.shard_lease).acquire()
    except ShardsTaken as taken:
        return f"cannot run {settings.shards}: {taken}."
    finally:
        await ledger.close()
    return None


async def serve(bot: HoldemBot, token: str) -> None:
    """Run ``bot`` until it closes. SIGTERM (what ``docker stop``, systemd and ``kill`` send)
    and Ctrl-C first let the hands in progress finish while the bot is still connected
    (``HoldemBot.drain``), then cancel this task wherever the bot is, starting up included,
    so that leaving ``async with bot`` closes it: what still runs refunded, the tables kept
    and their messages saying they are paused, the shard claim released. A second signal
    cuts the drain short. Without the handler SIGTERM would end the process on the spot, and
    a container's first process would ignore it until the SIGKILL that follows."""
    serving = asyncio.current_task()
    assert serving is not None
    signals = 0
    draining: set[asyncio.Task[None]] = set()

    async def drain_then_stop() -> None:
        with contextlib.suppress(Exception):  # a failing drain must not keep the bot up
            await bot.drain()
        serving.cancel()

    def stop() -> None:
        nonlocal signals
        signals += 1
        if signals == 1:
            task = asyncio.get_running_loop().create_task(drain_then_stop())
            draining.add(task)
            task.add_done_callback(draining.discard)
        elif signals == 2:  # impatient: stop now (a third must not cut the close short)
            serving.cancel()

    with contextlib.suppress(NotImplementedError):  # Windows: no signal handlers on a loop
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop)
        loop.add_signal_handler(signal.SIGINT, stop)
    try:
        async with bot:
            await bot.start(token)
    except asyncio.CancelledError:
        if not signals:
            raise


def run_discord_bot() -> int:
    """Run the bot until it is stopped; a start-up failure is one line on stderr and status 1
    (a refused token, Discord out of reach), never a traceback."""
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        from bot.discord_ui.permissions import INVITE_PERMISSIONS

        print(missing_token_help(INVITE_PERMISSIONS.value), file=sys.stderr)
        return 2
    problem = asyncio.run(start_problem(settings))  # before logging: a refusal is one line
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    configure_logging(settings.log_level)
    import aiohttp
    import discord

    from bot.discord_ui.app import BotOptions, create_bot
    from bot.ledger import ShardsTaken
    from bot.process import tune_garbage_collector

    companion = None
    if settings.web.in_bot:  # WEB_PORT: the web companion with live tables, in this process
        from bot.web.live_server import LiveServer

        companion = LiveServer(settings)
    bot = create_bot(settings, BotOptions(draw_images=settings.images, companion=companion))
    tune_garbage_collector()  # modules and the bot are built: keep them out of collections
    try:
        asyncio.run(serve(bot, settings.token))
    except KeyboardInterrupt:
        pass  # Ctrl-C: asyncio cancelled ``serve``, and leaving ``async with bot`` closed it
    except discord.LoginFailure:
        print("error: Discord refused DISCORD_TOKEN; copy the bot's token again from the "
              "developer portal (Bot > Reset Token).", file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, OSError) as error:
        print(f"error: cannot reach Discord ({error}); check the network and try again.",
              file=sys.stderr)
        return 1
    except ShardsTaken as taken:
        print(f"error: cannot run {settings.shards}: {taken}.", file=sys.stderr)
        return 1
    if bot.lost_claim is not None:
        print(f"error: stopped: {bot.lost_claim}.", file=sys.stderr)
        return 1
    return 0


def run_offline(command: str, argv: Sequence[str]) -> int:
    """Run ``play``, ``replay`` or ``review``; output into a pipe its reader closed
    (``| head``) ends them quietly with ``CLOSED_PIPE``, never a traceback."""
    from bot.terminal import main as play_in_terminal
    from bot.terminal.pipe import CLOSED_PIPE, discard_stdout
    from bot.terminal.replay_file import main as write_replay
    from bot.terminal.review import main as print_review

    commands: dict[str, Callable[[Sequence[str]], int]] = {
        "play": play_in_terminal, "replay": write_replay, "review": print_review}
    try:
        status = commands[command](argv)
        sys.stdout.flush()
    except BrokenPipeError:
        status = CLOSED_PIPE
    return discard_stdout() if status == CLOSED_PIPE else status


def on_the_ledger(work: Callable[[Ledger], Awaitable[str]]) -> int:
    """An operator's command on the bot's ledger (DATABASE_URL or DATABASE_PATH, which must
    hold one): prints ``work``'s last line, or one line saying why it could not run."""
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from bot.ledger import Ledger, LedgerUnavailable

    async def run() -> str:
        async with await Ledger.open(settings.database, existing=True) as ledger:
            return await work(ledger)

    try:
        print(asyncio.run(run()))
    except LedgerUnavailable as error:
        print(f"error: {error.reason}", file=sys.stderr)
        return 1
    return 0


async def backfill_habits(ledger: Ledger) -> str:
    """Count the hands settled before habits were counted at settlement, printing progress."""
    done = await ledger.backfill_habits(
        lambda done: print(f"{done:,} hands counted", flush=True))
    return f"done: {done:,} hands counted; every settled hand's habits are in /stats"


def _days(text: str) -> int:
    """``--days``: a whole number of days, at least 1."""
    if not (text.strip().isdecimal() and 1 <= int(text) <= 100_000):
        raise argparse.ArgumentTypeError(f"a whole number of days from 1, not {text[:20]!r}")
    return int(text)


async def prune_hands(ledger: Ledger, days: int) -> str:
    """Prune the details of the hands older than ``days`` days, printing progress."""
    done = await ledger.prune_hands(time.time() - days * 86_400,
                                    lambda done: print(f"{done:,} hands pruned", flush=True))
    return f"done: {done:,} hands older than {days} days pruned"


def serve_web() -> int:
    """Serve the web companion until SIGTERM or Ctrl-C; a bad setting or a ledger that cannot
    be opened is one line on stderr."""
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.ledger import LedgerUnavailable
    from bot.web.app import serve

    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        pass
    except LedgerUnavailable as error:
        print(f"error: {error.reason}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: cannot serve on {settings.web.host}:{settings.web.port} ({error})",
              file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.command in ("play", "replay", "review"):
        return run_offline(args.command, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command in (None, "run"):
        return run_discord_bot()
    if args.command == "backfill-habits":
        return on_the_ledger(backfill_habits)
    if args.command == "web":
        return serve_web()
    if args.command == "prune-hands":
        return on_the_ledger(partial(prune_hands, days=args.days))
    raise AssertionError(f"unhandled command {args.command!r}")


if __name__ == "__main__":
    sys.exit(main())

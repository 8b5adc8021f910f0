"""One offline session: open the ledger, seat the bots and the local player, play, cash out.

The table is the same runtime as on Discord, in guild 0 / channel 0, with the local player's
balance kept in the same SQLite ledger between runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import random
from collections.abc import Awaitable
from pathlib import Path
from typing import TextIO

from bot.errors import HoldemError, NotEnoughChips, NotSeated
from bot.i18n import Text, tr
from bot.ledger import Ledger, LedgerUnavailable
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.tables.show_cards import ShowChoice
from bot.terminal.cli import PlayOptions, default_database_path
from bot.terminal.console_notifier import ConsoleNotifier, Pacing
from bot.terminal.line_reader import LineReader
from bot.terminal.menu import help_text
from bot.terminal.pipe import CLOSED_PIPE
from bot.terminal.render import Style, signed
from bot.terminal.session import LocalPlayer
from bot.terminal.tournament import SitAndGo

GUILD_ID = 0
CHANNEL_ID = 0
LOCAL_USER_ID = 1
THINKING_TIME = 24 * 3600.0  # a person at the keyboard is never timed out
HAND_END_WAIT = 60.0  # how long leaving mid-hand waits for the bots to finish the hand


def table_settings(options: PlayOptions, *, at_keyboard: bool = False) -> TableSettings:
    """The table's settings: the chosen blinds, no turn timer worth the name, short pauses
    (or, with ``--fast``, pauses just long enough to show each bot's action), and hints only
    with ``--hints`` (a player at the keyboard asked for them or not). Only a player
    ``at_keyboard`` is offered to show their cards: a piped script, written before the
    cards were dealt, cannot know when an offer comes.

    A tournament table's bots act at once: the terminal pauses while the player watches
    (``Pacing``), so that once the player is out the rest is played out quickly."""
    fast = options.fast or options.tournament
    next_hand, bot_min, bot_max = (0.0, 0.001, 0.001) if fast else (2.0, 0.5, 1.5)
    return TableSettings(
        small_blind=options.small_blind, big_blind=options.big_blind,
        turn_timeout=THINKING_TIME, run_it_twice_timeout=THINKING_TIME,
        show_timeout=THINKING_TIME if at_keyboard else 0.0,
        next_hand_delay=next_hand, bot_delay_min=bot_min, bot_delay_max=bot_max,
        hints=options.hints, straddle=options.straddle,
        straddle_mandatory=options.straddle != "off",
    )


def folder_problem(database: Path) -> Text | None:
    """Why a ``--database`` the player named cannot be made where they said, or ``None``.
    Only the default data directory is created: a typo in a named path should not leave new
    folders behind (``/nonexistent/dir`` at the root)."""
    if database == default_database_path():
        return None
    folder = database.parent
    if folder.is_dir():
        return None
    if folder.exists():
        return tr("{folder} is not a folder", folder=str(folder))
    return tr("the folder {folder} does not exist; create it, or name a file in a folder "
              "that does", folder=str(folder))


def local_player_name() -> str:
    """The login name, so the hand histories and rankings name a person."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "player"


async def play(options: PlayOptions, stdin: TextIO, out: TextIO, style: Style) -> int:
    """Play until the player leaves; returns the process exit status."""
    settings = table_settings(options, at_keyboard=_is_terminal(stdin))
    problem = folder_problem(options.database_path)
    try:
        if problem is not None:
            raise LedgerUnavailable(style.say(problem))
        ledger = await Ledger.open(options.database_path)
    except LedgerUnavailable as error:
        # The ledger's reasons are the database driver's own words, in English.
        out.write(style.say(tr("Cannot open the chip ledger {path}: {reason}",
                               path=str(options.database_path), reason=error.reason)) + "\n")
        return 1
    try:
        name = local_player_name()
        await ledger.ensure_player(GUILD_ID, LOCAL_USER_ID, name)
        notifier = ConsoleNotifier(out, style, LOCAL_USER_ID)
        if options.tournament and not options.fast:
            notifier.pacing = Pacing(rng=random.Random(options.seed))
        bank = LedgerBank(ledger)
        rng = random.Random(options.seed) if options.seed is not None else None
        manager = TableManager(ledger, notifier, rng=rng, default_settings=settings)
        await manager.start()
        # The recovery may have refunded a hand or tournament a crash interrupted: that is
        # not this session's gain.
        balance_before = await ledger.balance(GUILD_ID, LOCAL_USER_ID)
        try:
            status = await _unless_output_closes(
                notifier, _seat_and_play(manager, notifier, bank, options, name, stdin))
        finally:
            await manager.shutdown()
        balance_after = await ledger.balance(GUILD_ID, LOCAL_USER_ID)
    finally:
        await ledger.close()
    change = signed(balance_after - balance_before, notifier.language)
    path = str(options.database_path)
    if bank.claimed:
        notifier.say(tr("Balance: {balance} chips ({change} this session, including a "
                        "{bonus}-chip daily bonus), kept in {path}.", balance=balance_after,
                        change=change, bonus=bank.claimed, path=path))
    else:
        notifier.say(tr("Balance: {balance} chips ({change} this session), kept in {path}.",
                        balance=balance_after, change=change, path=path))
    if notifier.last_hand is not None:
        notifier.say(tr("Your last hand was #{hand}: python -m bot review goes over your "
                        "decisions in it, python -m bot replay --out hand.gif draws it (give "
                        "either another hand's id, the number after 'Hand #').",
                        hand=str(notifier.last_hand)))
    return status


async def _unless_output_closes(notifier: ConsoleNotifier, game: Awaitable[int]) -> int:
    """Play ``game`` unless the output's reader goes first (``| head -3`` has read enough):
    then nobody sees the table, so the game stops as Ctrl-C stops it (the shutdown that
    follows refunds the hand or the tournament) and the status is ``CLOSED_PIPE``."""
    playing = asyncio.ensure_future(game)
    closed = asyncio.ensure_future(notifier.output_closed.wait())
    try:
        await asyncio.wait({playing, closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        closed.cancel()
        if not playing.done():
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
    return CLOSED_PIPE if notifier.output_closed.is_set() else playing.result()


class LedgerBank:
    """The local player's account in the ledger (guild 0), as the ``LocalPlayer`` uses it."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger
        self.claimed = 0
        """The daily bonus chips claimed this session."""

    @property
    def daily_amount(self) -> int:
        """The chips one daily bonus grants."""
        return self._ledger.daily_amount

    async def balance(self) -> int:
        """The chips away from the table."""
        return await self._ledger.balance(GUILD_ID, LOCAL_USER_ID)

    async def claim_daily(self) -> int:
        """``Ledger.claim_daily``: the new balance, or ``DailyNotReady``."""
        balance = await self._ledger.claim_daily(GUILD_ID, LOCAL_USER_ID)
        self.claimed += self._ledger.daily_amount
        return balance


async def _seat_and_play(
    manager: TableManager, notifier: ConsoleNotifier, bank: LedgerBank, options: PlayOptions,
    name: str, stdin: TextIO,
) -> int:
    if options.tournament:
        player = _keyboard_player(manager, notifier, bank, stdin)
        sit_and_go = SitAndGo(manager, notifier, player, guild_id=GUILD_ID,
                              channel_id=CHANNEL_ID)
        return await sit_and_go.play(options, name)
    # Bots first: a table with no person waits, so the first hand is dealt to everyone.
    try:
        for level in options.bots:
            await manager.add_bots(GUILD_ID, CHANNEL_ID, level, 1)
    except HoldemError as error:
        notifier.say(tr("Cannot sit down: {reason}", reason=error.message))
        return 1
    player = _keyboard_player(manager, notifier, bank, stdin)
    stack = await _sit_down(manager, notifier, player, options, name)
    if stack is None:
        return 1
    notifier.say(tr("You sit down with {chips} chips. {help}", chips=stack,
                    help=help_text(notifier.language)))
    await player.play()
    await _leave(manager, notifier)
    return 0


async def _sit_down(
    manager: TableManager, notifier: ConsoleNotifier, player: LocalPlayer, options: PlayOptions,
    name: str,
) -> int | None:
    """Join the table; the stack, or ``None`` when the player cannot sit down. A balance too
    small for the buy-in is offered the daily bonus (once, if it is enough) instead of a
    dead end."""
    needed = options.buy_in or manager.table_settings(CHANNEL_ID).min_buy_in
    offered = False
    while True:
        try:
            return await manager.join(GUILD_ID, CHANNEL_ID, LOCAL_USER_ID, name, options.buy_in)
        except NotEnoughChips as error:
            notifier.say(tr("Cannot sit down: {reason}", reason=error.message))
            if offered or await player.claim_daily_bonus(needed) is None:
                return None
            offered = True
        except HoldemError as error:
            notifier.say(tr("Cannot sit down: {reason}", reason=error.message))
            return None


async def _leave(manager: TableManager, notifier: ConsoleNotifier) -> None:
    """Leave now, or fold and wait for the hand to end, then say what was cashed out: one
    line says which."""
    try:
        cashed = await manager.leave(CHANNEL_ID, LOCAL_USER_ID)
    except NotSeated:
        notifier.say(tr("You leave the table."))
        return
    if cashed is None:
        notifier.say(tr("You leave when this hand is over."))
        cashed = await _wait_until_unseated(manager, notifier)
    else:
        notifier.say(tr("You leave the table."))
    if cashed is not None:
        notifier.say(tr("You cash out {chips} chips.", chips=cashed))


async def _wait_until_unseated(manager: TableManager, notifier: ConsoleNotifier) -> int | None:
    """The chips cashed out once the hand ends, or ``None`` if it takes too long (shutting
    the table down then refunds the hand, so nothing is lost either way).

    A player who leaves while all-in is not there to answer the run-it-twice question, which
    would hold the hand up until its deadline: the answer is no (run once), as a "no" at the
    prompt would be, whether the question is open already or comes later; nor to answer an
    offer to show: their cards stay private."""
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + HAND_END_WAIT
    while loop.time() < give_up_at:
        state = manager.state(CHANNEL_ID)
        if state is None or state.seat_of(LOCAL_USER_ID) is None:
            return notifier.final_stack
        with contextlib.suppress(HoldemError):  # NoQuestionPending: nothing is asked now
            await manager.answer_run_it_twice(CHANNEL_ID, LOCAL_USER_ID, False)
        with contextlib.suppress(HoldemError):  # ShowRefused: no offer to show is open
            await manager.answer_show(CHANNEL_ID, LOCAL_USER_ID, state.hand_id or 0,
                                      ShowChoice.NONE)
        await asyncio.sleep(0.05)
    return None


def _keyboard_player(manager: TableManager, notifier: ConsoleNotifier, bank: LedgerBank,
                     stdin: TextIO) -> LocalPlayer:
    """The local player, reading ``stdin`` from now on: a piped script is echoed and read
    line by line as the turns come; at a terminal, what was typed before a turn is not its
    answer."""
    reader = LineReader(stdin)
    reader.start()
    terminal = _is_terminal(stdin)
    return LocalPlayer(manager, notifier, reader, channel_id=CHANNEL_ID, bank=bank,
                       echo_input=not terminal, drop_type_ahead=terminal)


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())

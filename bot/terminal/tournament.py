"""A sit-and-go in the terminal (``python -m bot play --tournament``): the local player
registers (the buy-in leaves their offline balance), bots fill the other seats (the house pays
their buy-ins), and the tournament runs on the same runtime as on Discord, at one table.

The player plays until they have a place. Tournament rules allow no leaving with chips: ``q``
(or the end of input) sits them out, so they stay in, blinded and folded, until the end. Once
the player is out (or sat out) nothing more is drawn and the bots play the rest at once; then
the standings are shown and the player's place and prize (already in the balance) are said.
Interrupting with Ctrl-C cancels the tournament, which refunds every buy-in.
"""

from __future__ import annotations

import asyncio
import contextlib

from bot.errors import HoldemError, NotEnoughChips
from bot.i18n import tr, tr_c
from bot.tables.errors import NotYourTurn
from bot.tables.manager import TableManager
from bot.tables.tournament_settings import TournamentSettings
from bot.tables.tournament_status import TournamentPhase
from bot.terminal.cli import DEFAULT_TOURNAMENT_BUY_IN, PlayOptions
from bot.terminal.console_notifier import ConsoleNotifier, RunItTwiceRequest, TurnRequest
from bot.terminal.menu import help_text
from bot.terminal.render import BOT_LEVELS
from bot.terminal.session import LocalPlayer
from bot.terminal.tournament_view import your_result
from engine.actions import Action, ActionKind
from engine.blinds import LevelUnit

STRUCTURE_NAMES = {"turbo": tr_c("structure", "turbo"), "regular": tr_c("structure", "regular"),
                   "deep": tr_c("structure", "deep")}


def tournament_settings(options: PlayOptions) -> TournamentSettings:
    """The sit-and-go the options describe: one seat per bot and one for the player, levels
    counted in hands (so the pace of the bots, or of the player, never changes the
    structure), the bots' level filling the empty seats. ``InvalidTournamentSettings`` for a
    stack too small for the structure."""
    return TournamentSettings(
        buy_in=options.buy_in if options.buy_in is not None else DEFAULT_TOURNAMENT_BUY_IN,
        starting_stack=options.starting_stack, seats=len(options.bots) + 1,
        structure=options.structure, unit=LevelUnit.HANDS, bot_fill=options.bots[0])


class SitAndGo:
    """One sit-and-go of the local player at the terminal's table (``channel_id``)."""

    def __init__(self, manager: TableManager, notifier: ConsoleNotifier, player: LocalPlayer,
                 *, guild_id: int, channel_id: int) -> None:
        self._manager = manager
        self._tournaments = manager.tournaments
        self._notifier = notifier
        self._player = player
        self._guild_id = guild_id
        self._channel_id = channel_id

    async def play(self, options: PlayOptions, name: str) -> int:
        """Register, start, play until the player has a place (or sits out), wait for the
        end; returns the exit status (0 once the standings are shown)."""
        notifier, tournaments = self._notifier, self._tournaments
        user_id = notifier.user_id
        notifier.in_tournament, notifier.rebuys = True, False
        try:
            settings = tournament_settings(options)
            tournament_id = await tournaments.create(self._guild_id, self._channel_id, user_id,
                                                     settings)
        except HoldemError as error:
            notifier.say(tr("Cannot start the tournament: {reason}", reason=error.message))
            return 1
        if not await self._register(tournament_id, name, settings.buy_in):
            with contextlib.suppress(HoldemError):
                await tournaments.cancel(tournament_id)
            return 1
        notifier.say(tr("You register for the tournament: buy-in {buy_in} chips, {bots} bots "
                        "({level}), {structure} structure.", buy_in=settings.buy_in,
                        bots=len(options.bots), level=BOT_LEVELS[options.bots[0]],
                        structure=STRUCTURE_NAMES[settings.structure]))
        notifier.say(help_text(notifier.language, tournament=True))
        try:
            await tournaments.start(tournament_id, user_id)
        except HoldemError as error:
            notifier.say(tr("Cannot start the tournament: {reason}", reason=error.message))
            with contextlib.suppress(HoldemError):
                await tournaments.cancel(tournament_id)
            return 1
        await self._player.play()
        status = tournaments.status(tournament_id)
        mine = status.entrant(user_id)
        if status.phase is TournamentPhase.RUNNING:
            if mine is not None and mine.place is None:
                # Nobody leaves a tournament with chips: the player sits out, blinded off.
                notifier.say(tr("You sit out: you stay in the tournament, your blinds and "
                                "antes are posted and your hands folded until it is over."))
            else:
                notifier.say(tr("The other players play on; the standings follow."))
        notifier.quiet = True
        autopilot = asyncio.ensure_future(self._check_or_fold())
        try:
            if mine is not None and mine.place is None:
                with contextlib.suppress(HoldemError):  # out meanwhile: nothing to sit out
                    await self._manager.sit_out(self._channel_id, user_id)
                await self._answer_what_is_open()
            await notifier.tournament_over.wait()
        finally:
            autopilot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await autopilot
        await tournaments.wait_until_done()
        result = your_result(tournaments.status(tournament_id), notifier.results, user_id)
        if result is not None:
            notifier.say(result)
        return 0

    async def _register(self, tournament_id: int, name: str, buy_in: int) -> bool:
        """Pay the ``buy_in``; a balance too small is offered the daily bonus once, if it
        would be enough."""
        offered = False
        while True:
            try:
                await self._tournaments.join(tournament_id, self._notifier.user_id, name)
                return True
            except NotEnoughChips as error:
                self._notifier.say(tr("Cannot register: {reason}", reason=error.message))
                if offered or await self._player.claim_daily_bonus(buy_in) is None:
                    return False
                offered = True
            except HoldemError as error:
                self._notifier.say(tr("Cannot register: {reason}", reason=error.message))
                return False

    async def _answer_what_is_open(self) -> None:
        """The turn or question the player left unanswered (its request was taken by the
        prompt they quit at): check or fold, and run it once."""
        user_id = self._notifier.user_id
        for action in (Action(ActionKind.CHECK), Action(ActionKind.FOLD)):
            try:
                await self._manager.act(self._channel_id, user_id, action)
                break
            except NotYourTurn:
                break
            except HoldemError:
                continue
        with contextlib.suppress(HoldemError):  # no question open
            await self._manager.answer_run_it_twice(self._channel_id, user_id, False)

    async def _check_or_fold(self) -> None:
        """Answer for a player who sat out: check or fold every turn still asked of them
        (the hand they sat out in), and run it once."""
        requests = self._notifier.requests
        while True:
            request = await requests.get()
            with contextlib.suppress(HoldemError):
                if isinstance(request, TurnRequest):
                    legal = request.prompt.legal
                    kind = ActionKind.CHECK if legal.can_check else ActionKind.FOLD
                    await self._manager.act(self._channel_id, self._notifier.user_id,
                                            Action(kind))
                elif isinstance(request, RunItTwiceRequest):
                    await self._manager.answer_run_it_twice(
                        self._channel_id, self._notifier.user_id, False)


__all__ = ["SitAndGo", "tournament_settings"]

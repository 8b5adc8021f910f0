"""The terminal's ``Notifier``: draws what the table reports and queues what needs an answer.

The runtime must never wait on a person typing, so turns and run-it-twice questions are put
in ``requests`` for the local player's session to answer; everything else is printed at once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from bot.i18n import Language, Message, Text, tr
from bot.tables.notifier import HandOutcome, ShowOffer, TableState, TurnPrompt
from bot.tables.tournament_status import (
    PlayerMoved,
    TournamentPhase,
    TournamentResults,
    TournamentStatus,
)
from bot.terminal.render import (
    Style,
    render_last_action,
    render_outcome,
    render_table,
    uncalled_bets,
)
from bot.terminal.tournament_view import (
    TournamentNews,
    render_standings,
    tournament_line,
)
from engine.cards import Card


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """The local player is to act."""

    state: TableState
    prompt: TurnPrompt


@dataclass(frozen=True, slots=True)
class RunItTwiceRequest:
    """The local player is asked whether to run the board twice."""

    state: TableState
    deadline: float


@dataclass(frozen=True, slots=True)
class OutOfChipsRequest:
    """The local player's stack is empty: buy in again, or leave."""

    state: TableState


@dataclass(frozen=True, slots=True)
class OutOfTournamentRequest:
    """The local player's tournament is over for them: they have a place (busted, or the
    winner), or the tournament was cancelled."""

    status: TournamentStatus


@dataclass(frozen=True, slots=True)
class ShowRequest:
    """The local player may show their cards (``ShowOffer``)."""

    offer: ShowOffer


Request = (TurnRequest | RunItTwiceRequest | OutOfChipsRequest | OutOfTournamentRequest
           | ShowRequest)


@dataclass(slots=True)
class Pacing:
    """Pauses the terminal makes while the local player watches a tournament table, whose
    bots themselves act at once (so that, once the player is out, the rest is played out
    quickly): ``bot`` seconds (a range) before each bot action, ``hand`` between hands."""

    bot: tuple[float, float] = (0.5, 1.5)
    hand: float = 2.0
    rng: random.Random | None = None


class ConsoleNotifier:
    """Prints one player's view of a table to ``out``; the other seats are bots."""

    def __init__(self, out: TextIO, style: Style, user_id: int) -> None:
        self.out = out
        self.style = style
        self.user_id = user_id
        self.requests: asyncio.Queue[Request] = asyncio.Queue()
        self._hand_number = 0
        self._cards: tuple[Card, ...] = ()
        self._last_drawing = ""
        self._action_shown: tuple[int, Text | str | None] = (0, None)  # (hand, action) drawn
        self.final_stack: int | None = None  # the local player's stack after the last hand
        self.last_hand: int | None = None
        """The id of the last hand the local player was dealt, as ``review`` takes it."""
        self.in_tournament = False
        """The table is the local player's tournament's (``tournament_*`` calls come)."""
        self.rebuys = True
        """Offer buying in again when the stack is empty (cash tables; not tournaments)."""
        self.quiet = False
        """Print no hands (a tournament the local player is out of is played out)."""
        self.pacing: Pacing | None = None
        self.tournament: TournamentStatus | None = None
        """The local player's tournament as last reported."""
        self.results: TournamentResults | None = None
        self.tournament_over = asyncio.Event()
        """Set once the tournament is finished (standings shown) or cancelled."""
        self._news = TournamentNews(user_id)
        self._out_reported = False
        self._paced: tuple[int, int | None, object] | None = None
        self.output_closed = asyncio.Event()
        """Set once ``out`` is a pipe its reader closed (``| head``): nobody sees the game."""

    @property
    def language(self) -> Language:
        """The language the local player reads."""
        return self.style.language

    def say(self, text: Message, end: str = "\n") -> None:
        """Print (a ``Text`` in the player's language) and flush, so a pipe sees each line as
        it happens. A closed pipe is not an error of the table that reports (it would stop
        the table's runner): it sets ``output_closed``, and the game stops."""
        if self.output_closed.is_set():
            return
        try:
            self.out.write(self.language.render(text) + end)
            self.out.flush()
        except BrokenPipeError:
            self.output_closed.set()

    def draw(self, state: TableState) -> None:
        """Print the table while the local player sits at it, unless it looks exactly as it
        was last printed."""
        if state.seat_of(self.user_id) is None or self.quiet or self._before_start():
            return
        cards = self._cards if state.hand_number == self._hand_number else ()
        drawing = render_table(state, self.style, self.user_id, cards)
        if self.tournament is not None:
            header, _, rest = drawing.partition("\n")
            line = tournament_line(self.tournament, state, self.style)
            drawing = "\n".join(part for part in (header, line, rest) if part)
        if drawing != self._last_drawing:
            self._last_drawing = drawing
            self._action_shown = (state.hand_number, state.last_action)
            self.say(drawing)

    async def table_changed(self, state: TableState) -> None:
        between_hands = not state.is_hand_running and state.hand_number > 0
        # Between hands the result was just printed; a new hand is drawn once the cards come.
        if not between_hands and not self._awaiting_cards(state):
            self.draw(state)
        await self._pause_for_bot(state)

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        if user_id == self.user_id:
            self._hand_number, self._cards = state.hand_number, tuple(cards)
            self.draw(state)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        if user_id == self.user_id:
            self.draw(state)
            self.requests.put_nowait(TurnRequest(state, prompt))

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        if self.quiet:
            return
        # The action that ended the hand (a fold, the last call, run it once or twice) is
        # never drawn on a table: the runtime settles the hand straight after it.
        shown = (state.hand_number, state.last_action) == self._action_shown
        if state.last_action and not shown:
            self.say(render_last_action(state, self.style, self.user_id))
        for line in uncalled_bets(outcome, self.user_id, self.language):
            self.say(line)
        self.say(render_outcome(outcome, self.style, self.user_id))
        result = next((result for result in outcome.results if result.user_id == self.user_id),
                      None)
        if result is not None:
            self.final_stack = result.final_stack
            self.last_hand = outcome.hand_id
        self._last_drawing = ""
        seat = state.seat_of(self.user_id)
        if seat is not None and seat.stack == 0 and not seat.leaving and self.rebuys:
            self.requests.put_nowait(OutOfChipsRequest(state))
        if self.pacing is not None and seat is not None and not self.quiet:
            await asyncio.sleep(self.pacing.hand)

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        if user_id == self.user_id:
            self.say("! " + self.language.render(message))

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        if self.user_id in user_ids:
            self.draw(state)
            self.requests.put_nowait(RunItTwiceRequest(state, deadline))

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        if user_id == self.user_id:  # the result follows the answer: nothing to draw yet
            self.requests.put_nowait(ShowRequest(offer))

    async def table_closed(self, channel_id: int) -> None:
        """Nothing to forget: the terminal shows one table, and says goodbye itself."""

    async def table_paused(self, channel_id: int) -> None:
        """Never called: the terminal's game ends with its tables closed, not kept."""

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        """Never called: the terminal opens no saved table."""

    # -- tournaments -------------------------------------------------------------------------

    async def tournament_changed(self, status: TournamentStatus) -> None:
        """Announce level changes and busts; tell the local player's session when their
        tournament is over."""
        if self.tournament is not None and status.tournament_id != self.tournament.tournament_id:
            return
        for line in self._news.lines(status):
            self.say(line)
        self.tournament = status
        if status.phase is TournamentPhase.CANCELLED:
            self.tournament_over.set()
        mine = status.entrant(self.user_id)
        over = (mine is not None and mine.place is not None) or status.phase in (
            TournamentPhase.FINISHED, TournamentPhase.CANCELLED)
        if over and status.phase is not TournamentPhase.REGISTERING and not self._out_reported:
            self._out_reported = True
            self.requests.put_nowait(OutOfTournamentRequest(status))

    async def tournament_finished(self, results: TournamentResults) -> None:
        """Show the standings."""
        self.results = results
        self.say(render_standings(results, self.style, self.user_id))
        self.tournament_over.set()

    async def player_moved(self, move: PlayerMoved) -> None:
        """The terminal plays sit-and-gos, one table: nobody moves; say so if it happens."""
        if move.user_id == self.user_id:
            self.say(tr("You move to another table with {stack} chips.", stack=move.stack))

    async def open_tournament_table(self, tournament_id: int, channel_id: int,
                                    number: int) -> int:
        """The terminal shows one table: a tournament needing another cannot start."""
        raise RuntimeError("the terminal plays single-table tournaments only")

    def _before_start(self) -> bool:
        """True at a tournament's table while its players are being seated."""
        return self.in_tournament and (
            self.tournament is None or self.tournament.phase is not TournamentPhase.RUNNING)

    async def _pause_for_bot(self, state: TableState) -> None:
        """While the local player watches a tournament table, wait before a bot acts (once
        per turn), as a cash table's bot delay does."""
        pacing = self.pacing
        to_act = state.to_act
        if (pacing is None or self.quiet or not state.is_hand_running or to_act is None
                or not to_act.is_bot or state.seat_of(self.user_id) is None):
            return
        turn = (state.hand_number, state.to_act_seat, state.last_action)
        if turn == self._paced:
            return
        self._paced = turn
        rng = pacing.rng or random
        await asyncio.sleep(rng.uniform(*pacing.bot))

    def _awaiting_cards(self, state: TableState) -> bool:
        """True for a new hand whose table is drawn once our cards arrive (just after)."""
        mine = state.seat_of(self.user_id)
        return (state.is_hand_running and state.hand_number != self._hand_number
                and mine is not None and mine.in_hand)

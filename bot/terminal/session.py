"""The local player's side of the game: answer turns and questions from typed lines.

It waits for a request from the ``ConsoleNotifier`` and, at the same time, for ``q`` or the
end of input, so leaving works at any moment, not only on the player's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from bot.errors import HoldemError
from bot.i18n import Message, Text, tr
from bot.i18n.coach import hint, hint_text
from bot.tables.errors import NotYourTurn
from bot.tables.manager import TableManager
from bot.tables.show_cards import ShowChoice
from bot.terminal.console_notifier import (
    ConsoleNotifier,
    OutOfChipsRequest,
    OutOfTournamentRequest,
    Request,
    RunItTwiceRequest,
    ShowRequest,
    TurnRequest,
)
from bot.terminal.line_reader import LineReader, is_leave
from bot.terminal.menu import (
    BACK_WORDS,
    HELP_WORDS,
    MenuError,
    MenuOption,
    amount_help,
    amount_prompt,
    format_menu,
    help_text,
    menu_options,
    names_a_choice,
    read_amount,
    read_choice,
)
from engine.actions import Action, ActionKind
from engine.cards import card_str

YES = frozenset({"y", "yes", "是", "好", "要"})
NO = frozenset({"n", "no", "否", "不", "不要"})
AFTERMATH_WAIT = 5.0
"""Seconds the out-of-chips question waits for the table to finish the hand's aftermath."""


class Bank(Protocol):
    """The local player's account in the ledger, for buying in again when out of chips."""

    @property
    def daily_amount(self) -> int:
        """The chips one daily bonus grants."""

    async def balance(self) -> int:
        """The chips away from the table."""

    async def claim_daily(self) -> int:
        """Grant the daily bonus, as Discord's ``/daily`` does, and return the new balance;
        raises ``DailyNotReady`` (saying how long to wait) within the interval."""


class LocalPlayer:
    """Plays one seat from the keyboard (or a pipe) until the player leaves or play ends."""

    def __init__(
        self,
        manager: TableManager,
        notifier: ConsoleNotifier,
        reader: LineReader,
        *,
        channel_id: int,
        bank: Bank,
        echo_input: bool = False,
        drop_type_ahead: bool = False,
    ) -> None:
        self._manager = manager
        self._notifier = notifier
        self._reader = reader
        self._channel_id = channel_id
        self._bank = bank
        self._echo = echo_input
        self._drop_type_ahead = drop_type_ahead
        """At a terminal, lines typed while the bots acted are dropped when a turn starts:
        they were typed before the person saw the street they would answer."""
        self._user_id = notifier.user_id
        self._language = notifier.language

    async def play(self) -> None:
        """Answer requests until the player leaves (``q``, the end of input, or declining to
        buy in again when out of chips) or has a place in their tournament."""
        while True:
            request = await self._next_request()
            if request is None or isinstance(request, OutOfTournamentRequest):
                return
            if isinstance(request, TurnRequest):
                carry_on = await self._take_turn(request)
            elif isinstance(request, RunItTwiceRequest):
                carry_on = await self._answer_run_it_twice(request)
            elif isinstance(request, ShowRequest):
                carry_on = await self._show_cards(request)
            else:
                carry_on = await self._buy_in_again(request)
            if not carry_on:
                return

    async def _next_request(self) -> Request | None:
        """The next request, or ``None`` when the next typed line asks to leave."""
        requests = self._notifier.requests
        if not requests.empty():
            return requests.get_nowait()
        getting = asyncio.ensure_future(requests.get())
        leaving = asyncio.ensure_future(self._reader.wait_for_leave())
        try:
            await asyncio.wait({getting, leaving}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            getting.cancel()
            leaving.cancel()
        return getting.result() if getting.done() and not getting.cancelled() else None

    async def _take_turn(self, request: TurnRequest) -> bool:
        legal = request.prompt.legal
        pot = request.prompt.pot_total
        say = self._notifier.say
        dropped = self._reader.drop_typed_ahead() if self._drop_type_ahead else []
        if dropped:
            say(tr("Ignored what was typed before your turn: {typed}",
                   typed=", ".join(printable(line) for line in dropped)))
        say(tr("Your turn: {amount} to call, pot {pot}.", amount=legal.call_amount, pot=pot)
            if legal.can_call else tr("Your turn: nothing to call, pot {pot}.", pot=pot))
        view = self._manager.coaching_view(self._channel_id, self._user_id)
        if view is not None:  # the table shows hints (--hints)
            for hint_line in hint_text(await asyncio.to_thread(hint, view)):
                say("  " + self._language.render(hint_line))
        menu = "  " + format_menu(menu_options(legal, self._language))
        say(menu)
        tournament = self._notifier.in_tournament
        typed: str | None = None  # a menu answer given at the amount question
        while True:
            line = typed if typed is not None else await self._ask(
                tr("Your choice (? help, q sits out)") if tournament
                else tr("Your choice (? help, q leaves)"))
            typed = None
            if is_leave(line):
                return False
            if (line or "").strip().lower() in HELP_WORDS:
                say(help_text(self._language, tournament=tournament))
                continue
            choice: Action | MenuOption
            try:
                choice = read_choice(legal, line or "", self._language)
            except MenuError as error:
                say(error.message)
                if error.amount_for is None:
                    continue
                choice = error.amount_for
            if choice == Action(ActionKind.FOLD) and legal.can_check:
                # As poker sites do: a fold that gives up a free look is asked about once.
                sure = await self._ask_yes_or_no(tr("Checking is free: fold anyway? y/n"))
                if sure is None:
                    return False
                if not sure:
                    continue
            if isinstance(choice, MenuOption):
                amount = await self._ask_amount(request)
                if amount is None:
                    return False
                if isinstance(amount, str):
                    if not amount:  # back
                        say(menu)
                    typed = amount or None
                    continue
                choice = amount
            if await self._act(choice):
                return True

    async def _ask_amount(self, request: TurnRequest) -> Action | str | None:
        """The bet or raise typed at the amount question, ``None`` to leave, or a line the
        menu reads instead: ``""`` for ``back``, another choice as typed (``c``, ``fold``)."""
        legal = request.prompt.legal
        while True:
            line = await self._ask(amount_prompt(legal, self._language).removesuffix("> "))
            if is_leave(line):
                return None
            text = line or ""
            word = text.strip().lower()
            if word in BACK_WORDS:
                return ""
            if names_a_choice(text):
                return text
            if word in HELP_WORDS:
                self._notifier.say(amount_help(legal, self._language))
                continue
            try:
                return read_amount(legal, text, self._language)
            except MenuError as error:
                self._notifier.say(error.message)

    async def _act(self, action: Action) -> bool:
        """Send the action; True when the turn is over (taken, or no longer ours)."""
        try:
            await self._manager.act(self._channel_id, self._user_id, action)
        except NotYourTurn as error:
            self._notifier.say(error.message)
            return True
        except HoldemError as error:
            self._notifier.say(error.message)
            return False
        return True

    async def _answer_run_it_twice(self, request: RunItTwiceRequest) -> bool:
        self._notifier.say(
            tr("No more betting: run the rest of the board twice (half the pot on each)?"))
        agree = await self._ask_yes_or_no(tr("Run it twice? y/n (q sits out)")
                                          if self._notifier.in_tournament
                                          else tr("Run it twice? y/n (q leaves)"))
        if agree is None:
            return False
        try:
            await self._manager.answer_run_it_twice(self._channel_id, self._user_id, agree)
        except HoldemError as error:
            self._notifier.say(error.message)
        return True

    async def _show_cards(self, request: ShowRequest) -> bool:
        """Show or muck a hand that wins nothing at showdown (y/n), or, having won without a
        showdown, show one card, the other, both or neither (Enter keeps them)."""
        offer = request.offer
        if offer.at_showdown:
            show = await self._ask_yes_or_no(tr("Your hand wins nothing: show it? y shows, "
                                                "n mucks"))
            if show is None:
                return False
            choice = ShowChoice.BOTH if show else ShowChoice.NONE
        else:
            first, second = (card_str(card) for card in offer.cards)
            choices = {"1": ShowChoice.FIRST, "2": ShowChoice.SECOND, "b": ShowChoice.BOTH,
                       "": ShowChoice.NONE, "n": ShowChoice.NONE}
            while True:
                line = await self._ask(tr(
                    "You won without a showdown. Show {first} (1), {second} (2), both (b), "
                    "or Enter keeps them", first=first, second=second))
                if is_leave(line):
                    return False
                typed = choices.get((line or "").strip().lower())
                if typed is not None:
                    choice = typed
                    break
                self._notifier.say(tr("Answer 1, 2, b, or Enter."))
        try:
            await self._manager.answer_show(self._channel_id, self._user_id, offer.hand_id,
                                            choice)
        except HoldemError as error:
            self._notifier.say(error.message)
        return True

    async def _buy_in_again(self, request: OutOfChipsRequest) -> bool:
        # The question comes with the hand's result, the table's "out of chips" notice a
        # moment later: let the table finish the hand (cash-outs, notices) before asking.
        with contextlib.suppress(HoldemError, TimeoutError):
            await asyncio.wait_for(self._manager.wait_until_idle(self._channel_id),
                                   AFTERMATH_WAIT)
        say = self._notifier.say
        settings = self._manager.table_settings(self._channel_id)
        least = settings.min_buy_in
        try:
            balance = await self._bank.balance()
        except HoldemError as error:
            say(error.message)
            return False
        if balance < least:
            # Nothing left to buy in with: the daily bonus, as on Discord, not a dead end.
            say(tr("Your balance is {balance} chips; a buy-in takes at least {least}.",
                   balance=balance, least=least))
            claimed = await self.claim_daily_bonus()
            if claimed is None:
                return False
            if claimed < least:
                say(tr("That is still less than the {least} chips a buy-in takes.", least=least))
                return False
            balance = claimed
        amount = min(settings.default_buy_in, balance)
        if not await self._ask_yes_or_no(tr("Buy in again for {amount} chips? y/n",
                                            amount=amount)):
            return False
        try:
            stack = await self._manager.top_up(self._channel_id, self._user_id, amount)
        except HoldemError as error:
            say(error.message)
            return False
        say(tr("You buy in again: your stack is {stack}.", stack=stack))
        return True

    async def claim_daily_bonus(self, needed: int | None = None) -> int | None:
        """Offer the daily bonus; the new balance once claimed, ``None`` when the player
        declines or leaves, or the bonus is not ready yet (they are told how long to wait).
        Not offered (``None``) when it could not bring the balance to ``needed`` chips."""
        amount = self._bank.daily_amount
        if needed is not None and await self._bank.balance() + amount < needed:
            return None
        if not await self._ask_yes_or_no(tr("Claim your daily bonus of {amount} chips? y/n",
                                            amount=amount)):
            return None
        try:
            balance = await self._bank.claim_daily()
        except HoldemError as error:  # DailyNotReady says when the next one is ready
            self._notifier.say(error.message)
            return None
        self._notifier.say(tr("You claim {amount} chips. Your balance is {balance}.",
                              amount=amount, balance=balance))
        return balance

    async def _ask_yes_or_no(self, prompt: Text) -> bool | None:
        """True for y, False for n, ``None`` when the player leaves instead."""
        while True:
            line = await self._ask(prompt)
            if is_leave(line):
                return None
            answer = (line or "").strip().lower()
            if answer in YES or answer in NO:
                return answer in YES
            self._notifier.say(tr("Answer y for yes or n for no."))

    async def _ask(self, prompt: Message) -> str | None:
        """Ask ``prompt`` (the ``> `` that ends it is added) and wait for the answer."""
        self._notifier.say(self._language.render(prompt) + "> ", end="")
        line = await self._reader.take()
        # A piped answer is not echoed by a terminal: write it, so the transcript reads well.
        self._notifier.say(printable(line) if self._echo and line is not None else "")
        return line


def printable(line: str) -> str:
    """``line`` with control and other unprintable characters (surrogates too) written as
    escapes, so an echoed answer cannot steer the terminal or garble the transcript.

    >>> printable("2\\x1b[2J\\udcff")
    '2\\\\x1b[2J\\\\udcff'
    """
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in line)

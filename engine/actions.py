"""The vocabulary of a betting round: streets, actions, and the legal actions of a turn.

These types are shared by the hand state machine, the bot strategies and every front end, so
that nobody has to guess what is legal: ``LegalActions`` says it, with the amounts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

MAX_AMOUNT_DIGITS = 18
"""The longest amount ``Action.parse`` reads: more chips than any table holds."""


class Street(IntEnum):
    """The betting rounds, in order; ``SHOWDOWN`` means no more betting in this hand."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4

    @property
    def label(self) -> str:
        """The street's name as players say it: ``"Preflop"``, ``"Flop"`` …"""
        return self.name.capitalize()


class ActionKind(StrEnum):
    """What a player may do on their turn. ``ALL_IN`` is a bet, raise or call of the whole stack."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "allin"


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. For ``BET`` and ``RAISE``, ``amount`` is the total this street *to* which
    the player bets or raises (not the chips added); for the other kinds it is 0.

    >>> Action.parse("raise 40")
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=40)
    >>> str(Action(ActionKind.CALL))
    'call'
    """

    kind: ActionKind
    amount: int = 0

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``fold``, ``check``, ``call``, ``allin``, ``bet N`` or ``raise N``.

        Typed commands arrive as text; anything else raises ``ValueError`` saying what is wrong.
        An amount is decimal digits only (``str.isdecimal``: no sign, no ``²``), at most
        ``MAX_AMOUNT_DIGITS`` of them.
        """
        words = text.split()
        if not words:
            raise ValueError("an action is empty: use fold, check, call, bet N, raise N or allin")
        try:
            kind = ActionKind(words[0].lower().replace("-", ""))
        except ValueError:
            raise ValueError(
                f"{words[0]!r} is not an action: use fold, check, call, bet N, raise N or allin"
            ) from None
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if len(words) != 2 or not (words[1].isdecimal()
                                       and len(words[1]) <= MAX_AMOUNT_DIGITS):
                raise ValueError(f"{kind.value} needs a whole number of chips (at most "
                                 f"{MAX_AMOUNT_DIGITS} digits), like '{kind} 40'")
            return cls(kind, int(words[1]))
        if len(words) != 1:
            raise ValueError(f"{kind.value} takes no amount")
        return cls(kind)

    def __str__(self) -> str:
        return f"{self.kind} {self.amount}" if self.kind in (ActionKind.BET, ActionKind.RAISE) \
            else str(self.kind)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now, with the amounts.

    ``call_amount`` is the chips a call adds (capped at the stack; 0 when checking is possible).
    ``min_to``/``max_to`` bound a bet (when ``can_bet``) or a raise (when ``can_raise``) as a
    street total; ``max_to`` is the all-in total, and ``min_to == max_to`` when only an all-in
    for less than a full raise is possible.
    """

    seat: int
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    stack: int

    @property
    def can_bet_or_raise(self) -> bool:
        """True when a bet or a raise (of any legal size) is possible."""
        return self.can_bet or self.can_raise

    def allows(self, action: Action) -> bool:
        """True when ``action`` (kind and amount) is legal now."""
        kind = action.kind
        if kind is ActionKind.FOLD:
            return self.can_fold
        if kind is ActionKind.CHECK:
            return self.can_check
        if kind is ActionKind.CALL:
            return self.can_call
        if kind is ActionKind.ALL_IN:  # a call of the whole stack, or a bet or raise to max_to
            return self.stack > 0 and (self.stack <= self.call_amount or self.can_bet_or_raise)
        allowed = self.can_bet if kind is ActionKind.BET else self.can_raise
        return allowed and self.min_to <= action.amount <= self.max_to

"""Pre-actions: what a person not yet to act chooses to do when their turn comes.

Poker sites offer them so that a table never waits for an obvious decision. A pre-action is
for one street of one hand: at the person's turn it is applied at once if it still holds,
and otherwise dropped (a raise after **Call N** clears it, as sites do, and the person is
told). It is applied through the same turn checks as a click: one action per turn.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.i18n import Text, tr_c
from engine.actions import Action, ActionKind, LegalActions, Street


class PreActionKind(enum.Enum):
    """The choices, as the buttons name them."""

    CHECK_FOLD = "checkfold"
    """Check if nobody bet, else fold."""
    CHECK = "check"
    """Check; cleared if someone bets."""
    CALL = "call"
    """Call exactly the amount owed when chosen; cleared by a raise."""
    CALL_ANY = "callany"
    """Call whatever is owed (check when nothing is)."""


@dataclass(frozen=True, slots=True)
class PreAction:
    """A pre-action chosen in hand ``hand`` (the ledger's id) on ``street``; ``amount`` is
    the N of Call N."""

    kind: PreActionKind
    hand: int
    street: Street
    amount: int = 0

    def action_now(self, legal: LegalActions) -> Action | None:
        """The action it stands for at the turn whose options are ``legal``, or ``None``
        when it no longer holds (a bet after Check, a raise after Call N).

        >>> from engine.actions import LegalActions
        >>> facing = LegalActions(0, True, False, True, 40, False, True, 80, 500, 500)
        >>> PreAction(PreActionKind.CHECK_FOLD, 1, Street.FLOP).action_now(facing).kind.name
        'FOLD'
        >>> PreAction(PreActionKind.CALL, 1, Street.FLOP, 20).action_now(facing) is None
        True
        >>> PreAction(PreActionKind.CALL_ANY, 1, Street.FLOP).action_now(facing).kind.name
        'CALL'
        """
        kind = self.kind
        if kind is PreActionKind.CHECK_FOLD:
            return Action(ActionKind.CHECK if legal.can_check else ActionKind.FOLD)
        if kind is PreActionKind.CHECK:
            return Action(ActionKind.CHECK) if legal.can_check else None
        if kind is PreActionKind.CALL:
            fits = legal.can_call and legal.call_amount == self.amount
            return Action(ActionKind.CALL) if fits else None
        if legal.can_call:
            return Action(ActionKind.CALL)
        return Action(ActionKind.CHECK) if legal.can_check else None

    @property
    def label(self) -> Text:
        """The button's label: ``Check/Fold``, ``Check``, ``Call 40``, ``Call any``."""
        if self.kind is PreActionKind.CALL:
            return tr_c("button", "Call {amount}", amount=self.amount)
        return LABELS[self.kind]


LABELS = {PreActionKind.CHECK_FOLD: tr_c("button", "Check/Fold"),
          PreActionKind.CHECK: tr_c("button", "Check"),
          PreActionKind.CALL_ANY: tr_c("button", "Call any")}
"""The labels of the choices without an amount."""


@dataclass(frozen=True, slots=True)
class PreActionChoices:
    """What a person dealt into the running hand, and not to act now, may choose: on
    ``street`` of hand ``hand``, owing ``to_call`` now; ``chosen`` is their pre-action for
    this street, if any."""

    hand: int
    street: Street
    to_call: int
    chosen: PreAction | None

    @property
    def offered(self) -> tuple[PreAction, ...]:
        """The pre-actions to offer: Check/Fold, then Check when nothing is owed or Call N
        when a bet is faced, then Call any."""
        def choice(kind: PreActionKind, amount: int = 0) -> PreAction:
            return PreAction(kind, self.hand, self.street, amount)

        middle = choice(PreActionKind.CHECK) if self.to_call == 0 \
            else choice(PreActionKind.CALL, self.to_call)
        return choice(PreActionKind.CHECK_FOLD), middle, choice(PreActionKind.CALL_ANY)

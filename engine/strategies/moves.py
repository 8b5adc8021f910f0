"""Turning a strategy's intent (check, call, bet a share of the pot …) into a legal ``Action``.

Every helper returns an action that ``view.legal.allows`` accepts, so strategies never build
amounts by hand.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, LegalActions
from engine.view import PlayerView

CHECK = Action(ActionKind.CHECK)
CALL = Action(ActionKind.CALL)
FOLD = Action(ActionKind.FOLD)
ALL_IN = Action(ActionKind.ALL_IN)


def legal_of(view: PlayerView) -> LegalActions:
    """The view's legal actions; a view without a turn to play is a caller's mistake, so it
    raises ``ValueError``."""
    if view.legal is None or not view.is_my_turn():
        raise ValueError(f"seat {view.seat} has no decision to make in this view")
    return view.legal


def passive(legal: LegalActions) -> Action:
    """Check when free, otherwise call (the calling station's whole game)."""
    if legal.can_check:
        return CHECK
    if legal.can_call:
        return CALL
    return FOLD


def check_or_fold(legal: LegalActions) -> Action:
    """Check when free, otherwise give up."""
    return CHECK if legal.can_check else FOLD


def bet_to(legal: LegalActions, total: int) -> Action:
    """Bet or raise to ``total`` chips this street, clamped to the legal range.

    When no bet or raise is possible (say the stack only covers a call) this calls instead.
    """
    if not legal.can_bet_or_raise:
        return passive(legal)
    amount = min(max(total, legal.min_to), legal.max_to)
    return Action(ActionKind.BET if legal.can_bet else ActionKind.RAISE, amount)


def pot_after_call(view: PlayerView) -> int:
    """The pot once the player has called: the base a pot-fraction raise is measured on."""
    return view.pot + legal_of(view).call_amount


def bet_pot_fraction(view: PlayerView, fraction: float) -> Action:
    """Bet ``fraction`` of the pot, or raise by that share of the pot after calling.

    A pot-sized raise (``fraction=1``) facing a bet of 10 into 30 raises to 10 + 50 = 60.
    """
    legal = legal_of(view)
    increase = round(fraction * pot_after_call(view))
    return bet_to(legal, view.current_bet + max(increase, view.big_blind))


def call_cost_share(view: PlayerView) -> float:
    """The share of the final pot that calling costs: the equity a call needs to break even."""
    cost = legal_of(view).call_amount
    return cost / pot_after_call(view) if cost else 0.0

"""Turning a chip total a player chose into a legal action: bet or raise, quick sizes."""

from __future__ import annotations

from fractions import Fraction

from bot.errors import InvalidAmount
from bot.i18n import tr
from bot.i18n.poker import action_word
from bot.tables.errors import IllegalAction
from engine.actions import Action, ActionKind, LegalActions

QUICK_SIZES: dict[str, Fraction] = {"half_pot": Fraction(1, 2), "pot": Fraction(1)}


def bet_or_raise(legal: LegalActions, amount: int) -> Action:
    """A bet to ``amount`` when nobody has bet this street, otherwise a raise to it; an
    ``amount`` equal to the whole stack's total is an all-in. An amount outside the legal
    range raises ``InvalidAmount``, which names the range."""
    kind = ActionKind.RAISE if legal.can_raise or legal.call_amount else ActionKind.BET
    if not legal.can_bet_or_raise:
        raise IllegalAction(tr("You cannot {action} now; you can check.", action=action_word(kind))
                            if legal.can_check else
                            tr("You cannot {action} now; you can call or fold.",
                               action=action_word(kind)))
    if not legal.min_to <= amount <= legal.max_to:
        raise InvalidAmount.out_of_range(action_word(kind), amount, legal.min_to, legal.max_to)
    if amount == legal.max_to:
        return Action(ActionKind.ALL_IN)
    return Action(kind, amount)


def quick_amount(legal: LegalActions, size: str, pot_total: int, current_bet: int) -> int:
    """The street total of a quick bet: ``"min"``, or a fraction of the pot (``"half_pot"``,
    ``"pot"``) counted after calling, clamped to the legal range."""
    if size == "min":
        return legal.min_to
    fraction = QUICK_SIZES[size]
    wanted = current_bet + int(fraction * (pot_total + legal.call_amount))
    return max(legal.min_to, min(legal.max_to, wanted))

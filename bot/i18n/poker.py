"""Poker's words as catalog messages: hand names, streets, actions and why an action is refused.

The engine names things in English for hand histories (an interchange format that tools
parse); people read these instead, in their language. The English renderings equal the
engine's own names, which a test checks for every hand rank.

>>> from bot.i18n import language_for
>>> from engine.cards import parse_cards
>>> from engine.evaluator import evaluate
>>> str(hand_name(evaluate(parse_cards("Kd Ks Kc 5c 5h"))))
'Full House, Kings full of Fives'

>>> language_for("zh-CN").render(hand_name(evaluate(parse_cards("Kd Ks Kc 5c 5h"))))
'葫芦，K带5'
"""

from __future__ import annotations

from bot.i18n.text import Text, tr, tr_c
from engine.actions import Action, ActionKind, LegalActions, Street
from engine.evaluator import HandCategory
from engine.evaluator_tables import HAND_CLASSES
from engine.view import ActionRecord

__all__ = ["action_text", "action_word", "category_name", "hand_name", "rank_name",
           "rank_plural", "street_name", "why_illegal"]

_RANKS = (
    tr_c("rank", "Two"), tr_c("rank", "Three"), tr_c("rank", "Four"), tr_c("rank", "Five"),
    tr_c("rank", "Six"), tr_c("rank", "Seven"), tr_c("rank", "Eight"), tr_c("rank", "Nine"),
    tr_c("rank", "Ten"), tr_c("rank", "Jack"), tr_c("rank", "Queen"), tr_c("rank", "King"),
    tr_c("rank", "Ace"),
)
_RANK_PLURALS = (
    tr_c("ranks", "Twos"), tr_c("ranks", "Threes"), tr_c("ranks", "Fours"),
    tr_c("ranks", "Fives"), tr_c("ranks", "Sixes"), tr_c("ranks", "Sevens"),
    tr_c("ranks", "Eights"), tr_c("ranks", "Nines"), tr_c("ranks", "Tens"),
    tr_c("ranks", "Jacks"), tr_c("ranks", "Queens"), tr_c("ranks", "Kings"),
    tr_c("ranks", "Aces"),
)
_CATEGORIES = {
    HandCategory.STRAIGHT_FLUSH: tr("Straight Flush"),
    HandCategory.FOUR_OF_A_KIND: tr("Four of a Kind"),
    HandCategory.FULL_HOUSE: tr("Full House"),
    HandCategory.FLUSH: tr("Flush"),
    HandCategory.STRAIGHT: tr("Straight"),
    HandCategory.THREE_OF_A_KIND: tr("Three of a Kind"),
    HandCategory.TWO_PAIR: tr("Two Pair"),
    HandCategory.ONE_PAIR: tr("One Pair"),
    HandCategory.HIGH_CARD: tr("High Card"),
}
_STREETS = {
    Street.PREFLOP: tr("Preflop"), Street.FLOP: tr("Flop"), Street.TURN: tr("Turn"),
    Street.RIVER: tr("River"), Street.SHOWDOWN: tr("Showdown"),
}
_ACTIONS = {
    ActionKind.FOLD: tr_c("action", "fold"), ActionKind.CHECK: tr_c("action", "check"),
    ActionKind.CALL: tr_c("action", "call"), ActionKind.BET: tr_c("action", "bet"),
    ActionKind.RAISE: tr_c("action", "raise"), ActionKind.ALL_IN: tr_c("action", "all-in"),
}


def rank_name(rank: int) -> Text:
    """A card rank (0 is a Two, 12 an Ace) as one card: ``Ace``."""
    return _RANKS[rank]


def rank_plural(rank: int) -> Text:
    """A card rank as several cards: ``Aces``."""
    return _RANK_PLURALS[rank]


def category_name(category: HandCategory) -> Text:
    """A kind of hand: ``Full House``."""
    return _CATEGORIES[category]


def street_name(street: Street) -> Text:
    """A betting round: ``Flop``."""
    return _STREETS[street]


def action_word(kind: ActionKind) -> Text:
    """An action as a verb: ``raise``."""
    return _ACTIONS[kind]


def hand_name(rank: int) -> Text:
    """The name of the hands of evaluator rank ``rank``, as players say it."""
    kind, ranks = HandCategory(HAND_CLASSES[rank - 1][0]), HAND_CLASSES[rank - 1][1]
    top = ranks[0]
    if kind is HandCategory.STRAIGHT_FLUSH and top == 12:
        return tr("Royal Flush")
    if kind in (HandCategory.STRAIGHT_FLUSH, HandCategory.STRAIGHT, HandCategory.FLUSH):
        return tr("{category}, {rank} high", category=_CATEGORIES[kind], rank=_RANKS[top])
    if kind is HandCategory.FOUR_OF_A_KIND:
        return tr("Four of a Kind, {ranks}", ranks=_RANK_PLURALS[top])
    if kind is HandCategory.THREE_OF_A_KIND:
        return tr("Three of a Kind, {ranks}", ranks=_RANK_PLURALS[top])
    if kind is HandCategory.FULL_HOUSE:
        return tr("Full House, {trips} full of {pair}", trips=_RANK_PLURALS[top],
                  pair=_RANK_PLURALS[ranks[1]])
    if kind is HandCategory.TWO_PAIR:
        return tr("Two Pair, {high} and {low}", high=_RANK_PLURALS[top],
                  low=_RANK_PLURALS[ranks[1]])
    if kind is HandCategory.ONE_PAIR:
        return tr("Pair of {ranks}", ranks=_RANK_PLURALS[top])
    return tr("High Card, {rank}", rank=_RANKS[top])


def action_text(name: str, record: ActionRecord) -> Text:
    """An action as the table shows it: a call names the chips it added, a bet or raise the
    street total it makes, and an all-in says so.

    >>> str(action_text("Ann", ActionRecord(0, Street.FLOP, ActionKind.RAISE, 60, 80, True)))
    'Ann: raise to 80 (all-in)'
    """
    kind = record.kind
    if kind is ActionKind.CALL:
        text = tr("{name}: call {amount}", name=name, amount=record.added)
    elif kind is ActionKind.BET:
        text = tr("{name}: bet {amount}", name=name, amount=record.to)
    elif kind is ActionKind.RAISE:
        text = tr("{name}: raise to {amount}", name=name, amount=record.to)
    else:
        text = tr("{name}: {action}", name=name, action=_ACTIONS[kind])
    return tr("{action} (all-in)", action=text) if record.is_all_in else text


def why_illegal(legal: LegalActions, action: Action) -> Text:
    """Why the rules refuse ``action`` now, and what is allowed instead."""
    kind = action.kind
    if kind is ActionKind.CHECK:
        return tr("You cannot check: there are {amount} chips to call.",
                  amount=legal.call_amount)
    if kind is ActionKind.CALL:
        return tr("You cannot call: there is no bet to call (check instead).")
    if kind is ActionKind.BET and legal.can_raise:
        return tr("You cannot bet: there is already a bet (raise instead).")
    if kind is ActionKind.RAISE and legal.can_bet:
        return tr("You cannot raise: there is no bet yet (bet instead).")
    if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN):
        if not legal.can_bet_or_raise:
            return tr("You cannot {action} now: betting is not open to you, only call or fold.",
                      action=_ACTIONS[kind])
        return tr("The amount must be {low} to {high}.", low=legal.min_to, high=legal.max_to)
    return tr("You cannot {action} now.", action=_ACTIONS[kind])

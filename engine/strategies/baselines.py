"""Baseline opponents for measuring the real strategies: a calling station and a random player."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.strategies.moves import (
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    bet_to,
    legal_of,
    passive,
    pot_after_call,
)
from engine.view import PlayerView


class CallingStrategy:
    """Always checks or calls: never folds, never bets. Beating it shows value betting works."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Check when free, otherwise call."""
        return passive(legal_of(view))


class RandomStrategy:
    """Picks uniformly among the kinds of legal action, with sane amounts.

    It folds only when facing a bet (folding a free check is not sane), and bets or raises to a
    uniformly chosen total between the minimum and a pot-sized raise.
    """

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        legal = legal_of(view)
        choices: list[Action] = []
        if legal.can_check:
            choices.append(CHECK)
        else:
            if legal.can_fold:
                choices.append(FOLD)
            if legal.can_call:
                choices.append(CALL)
        if legal.can_bet_or_raise:
            pot_raise = view.current_bet + pot_after_call(view)
            top = max(legal.min_to, min(legal.max_to, pot_raise))
            choices.append(bet_to(legal, rng.randint(legal.min_to, top)))
        elif not choices:
            choices.append(ALL_IN)
        return rng.choice(choices)

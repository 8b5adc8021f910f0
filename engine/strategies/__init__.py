"""Bot opponents: the ``Strategy`` protocol, the registry of known strategies, ``make_strategy``.

A strategy sees only a ``PlayerView`` (public facts plus its own hole cards) and returns one of
the legal actions. Decisions are reproducible: all randomness comes from the ``rng`` argument.

>>> import random
>>> bot = make_strategy("calling")
>>> sorted(STRATEGIES)
['calling', 'easy', 'expert', 'hard', 'medium', 'random']
>>> make_strategy("grandmaster")
Traceback (most recent call last):
...
ValueError: unknown strategy 'grandmaster': use one of calling, easy, expert, hard, medium, \
random, or module:Class
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol, runtime_checkable

from engine.actions import Action
from engine.view import PlayerView

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The strengths a table offers for its bot opponents, weakest first."""

STRATEGIES: dict[str, str] = {
    "easy": "engine.strategies.easy:EasyStrategy",
    "medium": "engine.strategies.medium:MediumStrategy",
    "hard": "engine.strategies.hard:HardStrategy",
    "expert": "engine.strategies.expert:ExpertStrategy",
    "calling": "engine.strategies.baselines:CallingStrategy",
    "random": "engine.strategies.baselines:RandomStrategy",
}
"""Known strategy names and where each class lives (imported on first use)."""


@runtime_checkable
class Strategy(Protocol):
    """A bot opponent.

    ``decide`` is called on the bot's turn with the bot's own view (``view.legal`` is not None)
    and returns an action that ``view.legal.allows`` accepts. A strategy may also define
    ``hand_finished(view)``, called after every hand with the bot's final view (public history
    and the cards shown at showdown), to learn about its opponents over a session.
    """

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """The action to take now."""
        ...


def make_strategy(name: str) -> Strategy:
    """A new strategy by registry name (see ``STRATEGIES``) or as ``"package.module:Class"``.

    The class is built without arguments. Raises ``ValueError`` for an unknown name (listing
    the known ones), and for a ``module:Class`` whose module cannot be imported, whose
    attribute is missing or not a class, whose class has no ``decide`` method, or that cannot
    be built without arguments: each with a one-line message.
    """
    spec = STRATEGIES.get(name.strip().lower()) if isinstance(name, str) else None
    if spec is None:
        if not isinstance(name, str) or ":" not in name:
            known = ", ".join(sorted(STRATEGIES))
            raise ValueError(f"unknown strategy {name!r}: use one of {known}, or module:Class")
        spec = name.strip()
    return _load(spec)


def _load(spec: str) -> Strategy:
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError(f"{spec!r} is not of the form module:Class")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # importing runs the module's code: any failure means "cannot"
        raise ValueError(f"cannot import strategy module {module_name!r}: {error}") from None
    factory: object = getattr(module, class_name, None)
    if factory is None:
        raise ValueError(f"module {module_name!r} has no class {class_name!r}")
    if not isinstance(factory, type):
        raise ValueError(f"{spec} is not a class (it is a {type(factory).__name__})")
    if not callable(getattr(factory, "decide", None)):  # checked before running its __init__
        raise ValueError(f"{spec} has no decide(view, rng) method, so it is not a strategy")
    try:
        strategy: object = factory()
    except Exception as error:  # the class's own code: report it rather than crash the caller
        raise ValueError(f"cannot build {spec} without arguments: {error}") from None
    if not isinstance(strategy, Strategy) or not callable(strategy.decide):
        raise ValueError(f"{spec} has no decide(view, rng) method, so it is not a strategy")
    return strategy


STRADDLE_DEPTH = 50
"""A bot that may choose to straddle does so with at least this many big blinds behind: the
straddle buys position preflop (it acts last) for two big blinds, cheap at that depth, while
a short stack would spend a big share of its chips out of the hand's best spots."""


def bot_straddles(stack: int, big_blind: int) -> bool:
    """Whether a bot in the straddle's seat posts a voluntary straddle with ``stack`` chips
    (the rule of ``STRADDLE_DEPTH``), so that bots straddle by a rule a table can state.

    >>> bot_straddles(1000, 20), bot_straddles(999, 20)
    (True, False)
    """
    return stack >= STRADDLE_DEPTH * big_blind


__all__ = ["LEVELS", "STRADDLE_DEPTH", "STRATEGIES", "Strategy", "bot_straddles",
           "make_strategy"]

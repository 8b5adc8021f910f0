"""Checks on callers' arguments, and the mapping from a player to the columns that hold them.

The ledger checks an argument before its write is queued, so a malformed one is refused
without costing a transaction and without touching the database. What needs the database to
decide (a balance too small, a hand not running) is checked inside the write instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.errors import InvalidAmount
from bot.i18n import tr
from bot.ledger.errors import InvalidRequest
from bot.ledger.records import PlayerKey

MAX_CHIPS = 10**15
"""The most chips the ledger accepts in one amount, stack, pot or hand; more is refused.

SQLite stores 64-bit integers: a value above 2**63 - 1 cannot even be bound (Python raises
``OverflowError``, which no person should see), and a sum that passes it fails (``SUM``) or
silently turns into an inexact float (``chips + ?``). A quadrillion is far beyond any real
game and 9,223 times below 2**63, so no value the ledger stores, and no sum over one hand, one
table or one grant, can overflow; the running totals that ``audit()`` adds up could pass 2**63
only after more than 9,000 grants at the cap.
"""

Holder = tuple[int, str]
"""A player as the ``(user_id, bot_name)`` columns: a person has ``bot_name`` ``''``, a bot
has ``user_id`` 0."""


def check_amount(amount: object) -> int:
    """A whole number of chips from 1 to ``MAX_CHIPS``, to move or grant; ``InvalidAmount``
    otherwise."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(tr("An amount of chips must be a whole number, not “{amount}”.",
                                 amount=str(amount)[:20]))
    if amount <= 0:
        raise InvalidAmount(tr("An amount of chips must be positive, not {amount}.",
                                 amount=amount))
    if amount > MAX_CHIPS:
        raise InvalidAmount(tr("An amount of chips can be at most {most}, not {amount}.",
                                 most=MAX_CHIPS, amount=amount))
    return amount


def check_chips(chips: object, what: str) -> int:
    """A count of chips from 0 to ``MAX_CHIPS``, such as a stack; ``InvalidAmount`` otherwise."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        raise InvalidAmount(tr("{what} must be a whole number of chips, not “{chips}”.",
                                 what=what, chips=str(chips)[:20]))
    if chips > MAX_CHIPS:
        raise InvalidAmount(tr("{what} can hold at most {most} chips, not {chips}.",
                                 what=what, most=MAX_CHIPS, chips=chips))
    return chips


def check_id(value: object, what: str) -> int:
    """An integer id (or count) named ``what`` in the refusal; ``InvalidRequest`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"A {what} must be an integer id, not {value!r}.")
    return value


def holder_of(player: object) -> Holder:
    """The ``(user_id, bot_name)`` columns of a player key; ``InvalidRequest`` if malformed.

    >>> holder_of(42), holder_of("Ada")
    ((42, ''), (0, 'Ada'))
    """
    if isinstance(player, str):
        if not player.strip():
            raise InvalidRequest("A bot needs a non-empty name.")
        return 0, player
    return check_id(player, "player"), ""


def player_key(user_id: int, bot_name: str) -> PlayerKey:
    """The player key of a holder's columns, the inverse of ``holder_of``."""
    return bot_name or user_id


def check_stacks(stacks: Mapping[PlayerKey, int]) -> dict[Holder, int]:
    """Stacks keyed by holder columns; ``InvalidAmount`` or ``InvalidRequest`` if malformed."""
    return {holder_of(player): check_chips(chips, "stack") for player, chips in stacks.items()}

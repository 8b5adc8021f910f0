"""The numbered action menu of a turn and how typed answers become actions.

Numbers are fixed by meaning, so a scripted game reads the same in every spot: 1 folds,
2 checks or calls, 3 bets or raises (then asks the amount), 4 goes all-in. Options that are
not legal now are left out. Amounts are street totals: "raise to 80", and the all-in option
says the total it raises to. Shortcut words work too (``HELP`` lists each once): ``f``,
``x``, ``c``, ``r 80`` or ``raise 80``, ``a``.

>>> from engine.actions import LegalActions
>>> legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True,
...     call_amount=20, can_bet=False, can_raise=True, min_to=40, max_to=1000, stack=990)
>>> format_menu(menu_options(legal))
'1 fold   2 call 20   3 raise to 40-1,000   4 all-in (raise to 1,000)'
>>> read_choice(legal, "3 100")
Action(kind=<ActionKind.RAISE: 'raise'>, amount=100)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.amounts import parse_amount
from bot.errors import InputError
from engine.actions import Action, ActionKind, LegalActions

FOLD, CHECK_OR_CALL, BET_OR_RAISE, ALL_IN = 1, 2, 3, 4


class MenuError(InputError):
    """Typed input that is not a legal choice now; ``str()`` says what to type instead."""


@dataclass(frozen=True, slots=True)
class MenuOption:
    """One numbered line of the menu. ``kind`` BET or RAISE still needs an amount."""

    number: int
    kind: ActionKind
    label: str

    @property
    def needs_amount(self) -> bool:
        """True for a bet or raise, whose size is asked next."""
        return self.kind in (ActionKind.BET, ActionKind.RAISE)


def menu_options(legal: LegalActions) -> tuple[MenuOption, ...]:
    """The legal choices of a turn, with the amounts a player needs to decide."""
    options: list[MenuOption] = []
    if legal.can_fold:
        options.append(MenuOption(FOLD, ActionKind.FOLD, "fold"))
    if legal.can_check:
        options.append(MenuOption(CHECK_OR_CALL, ActionKind.CHECK, "check"))
    elif legal.can_call:
        all_in = " (all-in)" if legal.call_amount >= legal.stack else ""
        options.append(
            MenuOption(CHECK_OR_CALL, ActionKind.CALL, f"call {legal.call_amount:,}{all_in}")
        )
    if legal.can_bet_or_raise and legal.min_to < legal.max_to:
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        verb = "bet" if legal.can_bet else "raise to"
        options.append(
            MenuOption(BET_OR_RAISE, kind, f"{verb} {legal.min_to:,}-{legal.max_to:,}")
        )
    if legal.allows(Action(ActionKind.ALL_IN)):
        options.append(MenuOption(ALL_IN, ActionKind.ALL_IN, f"all-in ({_all_in(legal)})"))
    return tuple(options)


def _all_in(legal: LegalActions) -> str:
    """What going all-in is, in the words of the other options: a raise or a bet to the
    street total ``max_to``, or a call of the whole stack."""
    if legal.can_raise:
        return f"raise to {legal.max_to:,}"
    if legal.can_bet:
        return f"bet {legal.max_to:,}"
    return f"call {legal.stack:,}"


def format_menu(options: tuple[MenuOption, ...]) -> str:
    """The menu on one line: ``1 fold   2 call 20   …``."""
    return "   ".join(f"{option.number} {option.label}" for option in options)


def read_choice(legal: LegalActions, text: str) -> Action | MenuOption:
    """Read a menu answer: an ``Action``, or the bet/raise option when the amount is missing.

    Raises ``MenuError`` for anything that is not legal now.
    """
    words = text.strip().lower().split()
    if not words:
        raise MenuError(f"Type a number: {_numbers(legal)}.")
    options = menu_options(legal)
    option = _option_named(options, words[0])
    if option is None:
        raise MenuError(f"{words[0][:20]!r} is not on the menu; choose {_numbers(legal)}.")
    if len(words) > 2 or (len(words) == 2 and not option.needs_amount):
        raise MenuError(f"{option.label.split()[0]} takes no amount; type just {option.number}.")
    if not option.needs_amount:
        return Action(option.kind)
    if len(words) == 2:
        return read_amount(legal, words[1])
    return option


def read_amount(legal: LegalActions, text: str) -> Action:
    """Read the street total of a bet or raise; Enter alone means the minimum."""
    if not text.strip():
        amount = legal.min_to
    else:
        try:
            amount = parse_amount(text)
        except InputError as error:
            raise MenuError(f"{str(error).rstrip('.')}; {amount_hint(legal)}.") from None
    if not legal.min_to <= amount <= legal.max_to:
        raise MenuError(f"{amount:,} is out of range; {amount_hint(legal)}.")
    return Action(ActionKind.BET if legal.can_bet else ActionKind.RAISE, amount)


def amount_hint(legal: LegalActions) -> str:
    """How to answer the amount question, like ``raise to 40-1,000 (Enter: 40)``."""
    verb = "bet" if legal.can_bet else "raise to"
    return f"{verb} {legal.min_to:,}-{legal.max_to:,} (Enter: {legal.min_to:,})"


def amount_prompt(legal: LegalActions) -> str:
    """The amount question: ``Raise to 40-1,000 (Enter: 40)> ``."""
    hint = amount_hint(legal)
    return f"{hint[0].upper()}{hint[1:]}> "


_SHORTCUTS: tuple[tuple[str, tuple[str, ...], tuple[ActionKind, ...]], ...] = (
    # (how the help line shows it, the words, what they choose); each word appears once.
    ("f fold", ("f", "fold"), (ActionKind.FOLD,)),
    ("x check", ("x", "k", "check"), (ActionKind.CHECK,)),
    ("c check or call", ("c",), (ActionKind.CHECK, ActionKind.CALL)),
    ("", ("call",), (ActionKind.CALL,)),
    ("r 150 bet or raise to 150", ("r", "raise", "b", "bet"), (ActionKind.BET, ActionKind.RAISE)),
    ("a all-in", ("a", "allin", "all-in"), (ActionKind.ALL_IN,)),
)
_KINDS_BY_WORD: dict[str, tuple[ActionKind, ...]] = {
    word: kinds for _, words, kinds in _SHORTCUTS for word in words
}
HELP_WORDS = frozenset({"?", "h", "help"})
HELP = ("Type a number from the menu or a shortcut: "
        + ", ".join(shown for shown, _, _ in _SHORTCUTS if shown)
        + " (words like 'raise 150' work too); ? shows this again, q leaves the table.")
"""The help line, printed once when the player sits down and again on ``?``."""


def _option_named(options: tuple[MenuOption, ...], word: str) -> MenuOption | None:
    if word.isdecimal():
        return next((option for option in options if str(option.number) == word), None)
    kinds = _KINDS_BY_WORD.get(word, ())
    return next((option for option in options if option.kind in kinds), None)


def _numbers(legal: LegalActions) -> str:
    numbers = [str(option.number) for option in menu_options(legal)]
    return ", ".join(numbers[:-1]) + f" or {numbers[-1]}" if len(numbers) > 1 else numbers[0]

"""The numbered action menu of a turn and how typed answers become actions.

Numbers are fixed by meaning, so a scripted game reads the same in every spot and in every
language: 1 folds, 2 checks or calls, 3 bets or raises (then asks the amount), 4 goes all-in.
Options that are not legal now are left out. Amounts are street totals: "raise to 80", and the
all-in option says the total it raises to. Shortcut words work too, in every language
(``help_text`` lists each once): ``f``, ``x``, ``c``, ``r 80`` or ``raise 80``, ``a``, and the
Chinese words (``弃牌``, ``过牌``, ``跟注``, ``下注``, ``加注 80``, ``全下``...).

Every function takes the ``Language`` the player reads (English unless given) and returns
text already written in it; a ``MenuError`` carries such text too.

>>> from engine.actions import LegalActions
>>> legal = LegalActions(seat=0, can_fold=True, can_check=False, can_call=True,
...     call_amount=20, can_bet=False, can_raise=True, min_to=40, max_to=1000, stack=990)
>>> format_menu(menu_options(legal))
'1 fold   2 call 20   3 raise to 40-1,000   4 all-in (raise to 1,000)'
>>> read_choice(legal, "3 100")
Action(kind=<ActionKind.RAISE: 'raise'>, amount=100)
>>> read_choice(legal, "加注 100")
Action(kind=<ActionKind.RAISE: 'raise'>, amount=100)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.amounts import parse_amount
from bot.errors import InputError
from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c
from bot.i18n.poker import action_word
from engine.actions import Action, ActionKind, LegalActions

FOLD, CHECK_OR_CALL, BET_OR_RAISE, ALL_IN = 1, 2, 3, 4


class MenuError(InputError):
    """Typed input that is not a legal choice now; ``message`` (already in the player's
    language) says what to type instead."""

    def __init__(self, message: Message, amount_for: MenuOption | None = None) -> None:
        super().__init__(message)
        self.amount_for = amount_for
        """The bet or raise whose typed amount was refused: the amount question comes next,
        so that its hint's "Enter" means what it says."""


@dataclass(frozen=True, slots=True)
class MenuOption:
    """One numbered line of the menu. ``kind`` BET or RAISE still needs an amount."""

    number: int
    kind: ActionKind
    label: str
    """What the menu shows after the number, in the player's language."""

    @property
    def needs_amount(self) -> bool:
        """True for a bet or raise, whose size is asked next."""
        return self.kind in (ActionKind.BET, ActionKind.RAISE)


def menu_options(legal: LegalActions, language: Language = ENGLISH) -> tuple[MenuOption, ...]:
    """The legal choices of a turn, with the amounts a player needs to decide."""
    say = language.render
    options: list[MenuOption] = []
    if legal.can_fold:
        options.append(MenuOption(FOLD, ActionKind.FOLD, say(tr_c("menu", "fold"))))
    if legal.can_check:
        options.append(MenuOption(CHECK_OR_CALL, ActionKind.CHECK, say(tr_c("menu", "check"))))
    elif legal.can_call:
        label = (tr_c("menu", "call {amount} (all-in)", amount=legal.call_amount)
                 if legal.call_amount >= legal.stack
                 else tr_c("menu", "call {amount}", amount=legal.call_amount))
        options.append(MenuOption(CHECK_OR_CALL, ActionKind.CALL, say(label)))
    if legal.can_bet_or_raise and legal.min_to < legal.max_to:
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        label = (tr_c("menu", "bet {low}-{high}", low=legal.min_to, high=legal.max_to)
                 if legal.can_bet
                 else tr_c("menu", "raise to {low}-{high}", low=legal.min_to, high=legal.max_to))
        options.append(MenuOption(BET_OR_RAISE, kind, say(label)))
    if legal.allows(Action(ActionKind.ALL_IN)):
        label = tr_c("menu", "all-in ({what})", what=_all_in(legal))
        options.append(MenuOption(ALL_IN, ActionKind.ALL_IN, say(label)))
    return tuple(options)


def _all_in(legal: LegalActions) -> Text:
    """What going all-in is, in the words of the other options: a raise or a bet to the
    street total ``max_to``, or a call of the whole stack."""
    if legal.can_raise:
        return tr_c("menu", "raise to {amount}", amount=legal.max_to)
    if legal.can_bet:
        return tr_c("menu", "bet {amount}", amount=legal.max_to)
    return tr_c("menu", "call {amount}", amount=legal.stack)


def format_menu(options: tuple[MenuOption, ...]) -> str:
    """The menu on one line: ``1 fold   2 call 20   …``."""
    return "   ".join(f"{option.number} {option.label}" for option in options)


def read_choice(legal: LegalActions, text: str,
                language: Language = ENGLISH) -> Action | MenuOption:
    """Read a menu answer: an ``Action``, or the bet/raise option when the amount is missing.

    Raises ``MenuError`` for anything that is not legal now.
    """
    say = language.render
    words = text.strip().lower().split()
    if not words:
        raise MenuError(say(tr("Type a number: {numbers}.", numbers=_numbers(legal, language))))
    options = menu_options(legal, language)
    option = _option_named(options, words[0])
    if option is None and (words[0] in _KINDS_BY_WORD or words[0] in _NUMBERS):
        # An action of the game, just not one this turn offers: say which ones it does.
        choices = [f"{option.number} {option.label}" for option in options]
        raise MenuError(say(tr("'{text}' is not offered now; choose {choices}.",
                               text=words[0], choices=_one_of(choices, language))))
    if option is None:
        raise MenuError(say(tr("'{text}' is not on the menu; choose {numbers}.",
                               text=_shown(words[0][:20]), numbers=_numbers(legal, language))))
    if len(words) > 2 or (len(words) == 2 and not option.needs_amount):
        raise MenuError(say(tr("{action} takes no amount; type just {number}.",
                               action=action_word(option.kind), number=str(option.number))))
    if not option.needs_amount:
        return Action(option.kind)
    if len(words) == 2:
        try:
            return read_amount(legal, words[1], language)
        except MenuError as error:
            raise MenuError(error.message, amount_for=option) from None
    return option


def read_amount(legal: LegalActions, text: str, language: Language = ENGLISH) -> Action:
    """Read the street total of a bet or raise; Enter alone means the minimum."""
    say = language.render
    if not text.strip():
        amount = legal.min_to
    else:
        try:
            amount = parse_amount(text)
        except InputError as error:
            problem = say(error.message).rstrip(".。")
            raise MenuError(say(tr("{problem}; {hint}.", problem=problem,
                                   hint=_amount_hint(legal)))) from None
    if not legal.min_to <= amount <= legal.max_to:
        raise MenuError(say(tr("{amount} is out of range; {hint}.", amount=amount,
                               hint=_amount_hint(legal))))
    return Action(ActionKind.BET if legal.can_bet else ActionKind.RAISE, amount)


def amount_hint(legal: LegalActions, language: Language = ENGLISH) -> str:
    """How to answer the amount question, like ``raise to 40-1,000 (Enter: 40)``."""
    return language.render(_amount_hint(legal))


def _amount_hint(legal: LegalActions) -> Text:
    if legal.can_bet:
        return tr("bet {low}-{high} (Enter: {low})", low=legal.min_to, high=legal.max_to)
    return tr("raise to {low}-{high} (Enter: {low})", low=legal.min_to, high=legal.max_to)


def amount_prompt(legal: LegalActions, language: Language = ENGLISH) -> str:
    """The amount question: ``Raise to 40-1,000 (Enter: 40)> ``."""
    if legal.can_bet:
        text = tr("Bet {low}-{high} (Enter: {low})", low=legal.min_to, high=legal.max_to)
    else:
        text = tr("Raise to {low}-{high} (Enter: {low})", low=legal.min_to, high=legal.max_to)
    return language.render(text) + "> "


_SHORTCUTS: tuple[tuple[str, Text | None, tuple[str, ...], tuple[ActionKind, ...]], ...] = (
    # (the key the help line shows, what it says it does, the words, what they choose); each
    # word appears once. The Chinese words work in every language, like the English ones.
    ("f", tr_c("shortcut", "fold"), ("f", "fold", "弃牌", "棄牌"), (ActionKind.FOLD,)),
    ("x", tr_c("shortcut", "check"), ("x", "k", "check", "过牌", "過牌", "看牌"),
     (ActionKind.CHECK,)),
    ("c", tr_c("shortcut", "check or call"), ("c",), (ActionKind.CHECK, ActionKind.CALL)),
    ("", None, ("call", "跟注", "跟"), (ActionKind.CALL,)),
    ("r 150", tr_c("shortcut", "bet or raise to 150"),
     ("r", "raise", "b", "bet", "下注", "加注"), (ActionKind.BET, ActionKind.RAISE)),
    ("a", tr_c("shortcut", "all-in"), ("a", "allin", "all-in", "全下", "全押", "梭哈"),
     (ActionKind.ALL_IN,)),
)
_KINDS_BY_WORD: dict[str, tuple[ActionKind, ...]] = {
    word: kinds for _, _, words, kinds in _SHORTCUTS for word in words
}
_NUMBERS = frozenset(str(number) for number in (FOLD, CHECK_OR_CALL, BET_OR_RAISE, ALL_IN))
HELP_WORDS = frozenset({"?", "？", "h", "help", "帮助", "幫助"})
BACK_WORDS = frozenset({"back", "menu", "返回", "菜单", "選單"})
"""At the amount question: go back to the menu."""


def names_a_choice(text: str) -> bool:
    """True when ``text`` starts with a shortcut word (``c``, ``fold``, ``r 100``): at the
    amount question it is read as the menu's answer, while a bare number is an amount."""
    words = text.strip().lower().split()
    return bool(words) and words[0] in _KINDS_BY_WORD


def amount_help(legal: LegalActions, language: Language = ENGLISH) -> str:
    """What ``?`` says at the amount question."""
    return language.render(tr("Type a street total from {low} to {high} (Enter: {low}), "
                              "another choice like c or f, or back for the menu.",
                              low=legal.min_to, high=legal.max_to))


def help_text(language: Language = ENGLISH, *, tournament: bool = False) -> str:
    """The help line, printed once when the player sits down and again on ``?``; in a
    ``tournament`` ``q`` sits the player out (nobody leaves one with chips)."""
    separator = language.render(tr_c("list separator", ", "))
    shortcuts = separator.join(f"{key} {language.render(meaning)}"
                               for key, meaning, _, _ in _SHORTCUTS if meaning is not None)
    if tournament:
        return language.render(tr(
            "Type a number from the menu or a shortcut: {shortcuts} (words like 'raise 150' "
            "work too); ? shows this again, q sits you out (you stay in the tournament, your "
            "hands folded).", shortcuts=shortcuts))
    return language.render(tr(
        "Type a number from the menu or a shortcut: {shortcuts} (words like 'raise 150' work "
        "too); ? shows this again, q leaves the table.", shortcuts=shortcuts))


HELP = help_text()
"""The help line in English."""


def _option_named(options: tuple[MenuOption, ...], word: str) -> MenuOption | None:
    if word.isdecimal():
        return next((option for option in options if str(option.number) == word), None)
    kinds = _KINDS_BY_WORD.get(word, ())
    return next((option for option in options if option.kind in kinds), None)


def _shown(word: str) -> str:
    """``word`` as typed, with control and other unprintable characters written as escapes,
    so quoting it cannot steer the terminal."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in word)


def _numbers(legal: LegalActions, language: Language) -> str:
    """The menu's numbers as a choice: ``1, 2, 3 or 4``."""
    return _one_of([str(option.number) for option in menu_options(legal)], language)


def _one_of(items: list[str], language: Language) -> str:
    """``items`` as a choice: ``a, b or c``."""
    if len(items) == 1:
        return items[0]
    separator = language.render(tr_c("list separator", ", "))
    return language.render(tr("{numbers} or {last}", numbers=separator.join(items[:-1]),
                              last=items[-1]))


__all__ = ["ALL_IN", "BACK_WORDS", "BET_OR_RAISE", "CHECK_OR_CALL", "FOLD", "HELP",
           "HELP_WORDS", "MenuError", "MenuOption", "amount_help", "amount_hint",
           "amount_prompt", "format_menu", "help_text", "menu_options", "names_a_choice",
           "read_amount", "read_choice"]

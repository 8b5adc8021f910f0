"""Chinese as Chinese typesetting writes it: numbers spaced from words, one word per poker idea.

The catalogs put a space between a number (Latin digits, or a placeholder that holds one) and
a Chinese character, never beside Chinese punctuation (``1,950 和 1,050``, ``第 1 级``,
``（80 至 1,500 筹码）``); where a number meets words that no single catalog entry sees (a
nested message's value, a list's connector), the renderer puts the space.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from bot.i18n import language_for, tr
from bot.i18n.extraction import LOCALES
from bot.i18n.poker import hand_name
from engine.cards import parse_cards
from engine.evaluator import evaluate

CHINESE = ("zh_Hans", "zh_Hant")
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
IDEOGRAPH = "\u3400-\u9fff\uf900-\ufaff"
PUNCTUATION = "，。；：！？、（）「」『』“”"
NUMBERS = frozenset({
    "amount", "ante", "balance", "big", "bonus", "bots", "buy_in", "change", "chips", "count",
    "default", "entrants", "frames", "high", "hours", "in_the_money", "last", "least", "left",
    "limit", "low", "minutes", "most", "needed", "net", "number", "numbers", "page", "percent",
    "place", "places", "played", "pool", "prize", "prizes", "run", "seated", "seats", "seconds",
    "size", "small", "stack", "table", "total", "wins",
})
"""Placeholders that hold a number (or numbers) wherever they appear."""
NUMBERS_WHERE = {"hand": "#{hand}", "level": "evel {level}", "levels": "to {levels}",
                 "pot": "pot {pot}", "players": "{players} players"}
"""Placeholders that hold a number only where the English puts them so (``Hand #{hand}``);
elsewhere a word (``with {hand}``: a hand's name)."""
EXEMPT = {
    "Two Pair, {high} and {low}",
}
"""Hand names write card ranks tight, as players do (``两对，J和3``)."""
KNOCKED_OUT = re.compile(r"knocked out|is out in place|out of the tournament")
"""English that says a player is eliminated from a tournament."""


def entries(code: str) -> Iterator[tuple[str, str]]:
    """``(msgid, msgstr)`` for every translation in the catalog ``code``, plural forms each."""
    with (LOCALES / f"{code}.po").open("rb") as file:
        catalog = read_po(file, locale=code)
    for entry in catalog:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        yield from ((str(ids[-1]), str(string)) for string in strings)


def _numbers_as_digits(msgid: str, msgstr: str) -> str:
    """``msgstr`` with its numbers' placeholders written ``0`` and its words' ``_``."""
    def shown(match: re.Match[str]) -> str:
        name = match[1]
        is_number = name in NUMBERS or (name in NUMBERS_WHERE and NUMBERS_WHERE[name] in msgid)
        return "0" if is_number else "_"
    return PLACEHOLDER.sub(shown, msgstr)


@pytest.mark.parametrize("code", CHINESE)
def test_numbers_are_spaced_from_chinese_words_but_not_from_punctuation(code: str) -> None:
    unspaced = re.compile(rf"[{IDEOGRAPH}]#?\d|\d%?[{IDEOGRAPH}]")
    spaced = re.compile(rf"[{PUNCTUATION}] | [{PUNCTUATION}]")
    wrong = [f"{msgid!r} -> {msgstr!r}" for msgid, msgstr in entries(code)
             if msgid not in EXEMPT
             and (unspaced.search(_numbers_as_digits(msgid, msgstr)) or spaced.search(msgstr))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", CHINESE)
def test_a_level_is_di_n_ji(code: str) -> None:
    """``第 1 级`` (the first level), not ``第 1 级别``: 级别 is the noun, 级 the unit."""
    wrong = [msgstr for _, msgstr in entries(code)
             if re.search(r"第 ?(\d+|\{\w+\}) ?(级别|級別)", msgstr)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", CHINESE)
def test_being_eliminated_is_one_word(code: str) -> None:
    said = list(entries(code))
    other_words = [msgstr for _, msgstr in said if re.search("遭淘汰|出局|离场|離場", msgstr)]
    unsaid = [msgstr for msgid, msgstr in said if KNOCKED_OUT.search(msgid)
              and "被淘汰" not in msgstr]
    assert not other_words and not unsaid, "\n".join(other_words + unsaid)


@pytest.mark.parametrize(("code", "own", "foreign"), [("zh_Hans", "“”", "「」"),
                                                       ("zh_Hant", "「」", "“”")])
def test_each_script_quotes_its_own_way(code: str, own: str, foreign: str) -> None:
    wrong = [msgstr for _, msgstr in entries(code) if set(foreign) & set(msgstr)]
    assert not wrong, "\n".join(wrong)
    assert any(set(own) <= set(msgstr) for _, msgstr in entries(code))


@pytest.mark.parametrize("code", CHINESE)
def test_translations_keep_every_placeholder_exactly(code: str) -> None:
    wrong = [f"{msgid!r} -> {msgstr!r}" for msgid, msgstr in entries(code)
             if Counter(re.findall(r"\{[^{}]*\}", msgid))
             != Counter(re.findall(r"\{[^{}]*\}", msgstr))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("tag", "prizes", "pot", "hand"), [
    ("zh-CN", "1,950、1,050 和 500。", "Hal 从边池 1 赢得 80", "顺子，5高"),
    ("zh-TW", "1,950、1,050 和 500。", "Hal 從邊池 1 贏得 80", "順子，5高"),
])
def test_the_renderer_spaces_numbers_that_no_catalog_entry_sees(
        tag: str, prizes: str, pot: str, hand: str) -> None:
    """A list's connector, and a nested message ending in a number (``边池 1``), meet the
    sentence's words only when rendered; a card rank (``5高``) stays the way players write
    hands."""
    language = language_for(tag)
    start = tr("The tournament starts: {players} players with {stack} chips each; prize pool "
               "{pool}, paid to the top {places}: {prizes}.", players=6, stack=1_500,
               pool=3_500, places=3, prizes=[1_950, 1_050, 500])
    assert language.render(start).endswith(prizes)
    won = tr("{name} wins {amount} from {pot}", name="Hal", amount=80,
             pot=tr("side pot {number}", number="1"))
    assert language.render(won) == pot
    assert language.render(hand_name(evaluate(parse_cards("Ah 2d 3c 4s 5h")))) == hand

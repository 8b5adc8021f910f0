"""The message catalogs: complete, consistent with the code, and used wherever people read.

Every message the code marks (``tr``, ``tr_n``, ``tr_c``) and every slash command string has
a translation in every catalog with the same placeholders, and the Discord, terminal and image
modules build no sentence outside the catalogs.
"""

from __future__ import annotations

import ast
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from bot.discord_ui.translator import command_strings
from bot.i18n import ENGLISH, extraction, language_for, languages, tr, tr_n
from bot.i18n.extraction import LOCALES, Found, messages_in_code, update_catalogs
from bot.i18n.languages import load_languages
from bot.i18n.poker import action_word, hand_name, street_name
from bot.i18n.text import write_integer
from engine.actions import ActionKind, Street
from engine.evaluator import WORST_RANK
from engine.evaluator import hand_name as engine_hand_name

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("bot/discord_ui", "bot/terminal", "bot/render")
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
SENTENCE = re.compile(r"[A-Za-z]{2,}[,.;:!?]? +[A-Za-z]{2,}")
"""Two words in a row: what a sentence for people looks like (ids and file names have none)."""
PATH = re.compile(r"([A-Z]:)?/")
"""A file's path (fonts on other systems), whatever words its names hold."""
MARKERS = {"tr", "tr_n", "tr_c"}
COMMAND_STRINGS = {"command", "describe", "Choice", "Group"}
"""Slash command declarations: discord.py passes their strings through the translator."""
NOT_FOR_PEOPLE = {"debug", "info", "warning", "error", "exception", "critical", "log"}
"""Calls whose text goes to the log, not to a person."""
RECORDS = {"reason"}
"""Keyword arguments that go into a record for admins (a grant's reason), not a sentence."""
COLOUR_SAMPLES = {"palette"}
"""Functions that draw sample text only to pick the images' colours; nobody sees it."""
PROGRAMMING_ERRORS = {"ValueError", "TypeError", "RuntimeError", "KeyError", "AssertionError",
                      "NotImplementedError", "LookupError", "OSError"}


def catalogs() -> dict[str, Catalog]:
    found = {}
    for path in sorted(LOCALES.glob("*.po")):
        with path.open("rb") as file:
            found[path.stem] = read_po(file, locale=path.stem)
    return found


@pytest.fixture(scope="module")
def all_messages() -> list[Found]:
    return [*messages_in_code(), *command_strings()]


def test_there_are_simplified_and_traditional_chinese_catalogs() -> None:
    assert {"zh_Hans", "zh_Hant"} <= set(catalogs())


def test_every_message_of_the_code_is_translated_in_every_catalog(
        all_messages: list[Found]) -> None:
    missing = []
    for code, catalog in catalogs().items():
        for found in all_messages:
            entry = catalog.get(found.msgid, context=found.context)
            strings = entry.string if entry is not None else None
            if entry is None or entry.fuzzy or not all(
                    strings if isinstance(strings, tuple) else (strings,)):
                missing.append(f"{code}: {found.msgid!r} ({found.path}:{found.line})")
    assert not missing, f"{len(missing)} untranslated:\n" + "\n".join(missing[:40])


def test_translations_keep_the_placeholders_of_their_message() -> None:
    wrong = []
    for code, catalog in catalogs().items():
        for entry in catalog:
            if not entry.id:
                continue
            ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            expected = set(PLACEHOLDER.findall(ids[-1]))
            wrong.extend(f"{code}: {ids[0]!r} -> {string!r}" for string in strings
                         if string and set(PLACEHOLDER.findall(string)) != expected)
    assert not wrong, "\n".join(wrong)


def test_every_catalog_entry_renders_without_error() -> None:
    """A translation with a stray brace would raise at the moment someone reads it."""
    for code, language in languages().items():
        for entry in catalogs().get(code, Catalog()):
            ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            if not ids[0]:
                continue
            values = {name: 1 for name in PLACEHOLDER.findall(ids[-1])}
            message = (tr_n(ids[0], ids[1], 2, **values) if len(ids) > 1
                       else tr(ids[0], **values))
            language.render(message)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # A string alone as a statement documents the line above it (attribute docstrings).
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            ids.add(id(node.value))
    return ids


def _call_name(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _exempt_strings(tree: ast.AST) -> set[int]:
    """Strings inside catalog markers, command declarations, log calls, programming errors
    and colour samples."""
    exempt = set()
    for node in ast.walk(tree):
        inside = None
        if isinstance(node, ast.Call) and _call_name(node) in (
                MARKERS | COMMAND_STRINGS | NOT_FOR_PEOPLE):
            inside = node
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and _call_name(node.exc) in PROGRAMMING_ERRORS:
            inside = node.exc
        if isinstance(node, ast.keyword) and node.arg in RECORDS:
            inside = node
        if isinstance(node, ast.FunctionDef) and node.name in COLOUR_SAMPLES:
            inside = node
        if inside is not None:
            exempt.update(id(child) for child in ast.walk(inside))
    return exempt


def sentences_outside_the_catalog(path: Path, root: Path = ROOT) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree) | _exempt_strings(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skipped and SENTENCE.search(node.value)
                and not PATH.match(node.value)):
            yield f"{path.relative_to(root)}:{node.lineno}: {node.value!r}"


def test_front_ends_build_no_sentence_outside_the_catalogs() -> None:
    found = [line for folder in FRONT_ENDS for path in sorted((ROOT / folder).rglob("*.py"))
             for line in sentences_outside_the_catalog(path)]
    assert not found, f"{len(found)} sentences bypass the catalogs:\n" + "\n".join(found)


def test_the_check_finds_a_sentence_built_outside_the_catalog(tmp_path: Path) -> None:
    module = tmp_path / "reply.py"
    module.write_text('"""Doc string here."""\n'
                      'log.info("logged for people who run it")\n'
                      'ok = tr("You sit down with {chips} chips.", chips=5)\n'
                      'bad = f"You sit down with {5} chips."\n')
    found = [line.split(": ", 1)[1] for line in sentences_outside_the_catalog(module, tmp_path)]
    assert found == ["'You sit down with '"]


@pytest.mark.parametrize(("tag", "code"), [
    ("zh-CN", "zh_Hans"), ("zh-TW", "zh_Hant"), ("en-US", "en"), ("en-GB", "en"),
    ("fr", "en"), ("zh_TW.UTF-8", "zh_Hant"), ("zh_CN.UTF-8", "zh_Hans"), ("zh_Hans", "zh_Hans"),
    ("zh-HK", "zh_Hant"), ("", "en"), (None, "en"), ("not a locale!", "en"), ("C", "en"),
])
def test_a_locale_picks_the_closest_catalog(tag: str | None, code: str) -> None:
    assert language_for(tag).code == code


def test_adding_a_language_is_adding_one_catalog_file(tmp_path: Path) -> None:
    shutil.copy(LOCALES / "zh_Hans.po", tmp_path / "zh_Hans.po")
    (tmp_path / "fr.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "It is not your turn."\nmsgstr "Ce n\'est pas votre tour."\n\n'
        'msgid "{count} bot"\nmsgid_plural "{count} bots"\n'
        'msgstr[0] "{count} bot"\nmsgstr[1] "{count} bots"\n', encoding="utf-8")
    available = load_languages(tmp_path)
    french = language_for("fr", available)
    assert french.code == "fr"
    assert french.render(tr("It is not your turn.")) == "Ce n'est pas votre tour."
    assert french.render(tr_n("{count} bot", "{count} bots", 1234)) == "1\u202f234 bots"
    assert language_for("zh-CN", available).code == "zh_Hans"


def test_numbers_and_lists_follow_each_language() -> None:
    chinese = language_for("zh-CN")
    needed = tr("You need {needed} chips but your balance is {balance}.", needed=12_345,
                balance=600)
    assert chinese.render(needed) == "你需要 12,345 筹码，但你的余额只有 600。"
    assert str(tr("Unknown bot level “{level}”; choose one of {levels}.", level="x",
                  levels=("easy", "medium", "hard"))).endswith("easy, medium, and hard.")
    levels = tr("Unknown bot level “{level}”; choose one of {levels}.", level="x",
                levels=("easy", "medium", "hard"))
    assert "easy、medium和hard" in chinese.render(levels)


@pytest.mark.parametrize("code", ["en", "zh_Hans", "zh_Hant", "fr", "de_CH", "hi", "ar"])
def test_integers_are_written_as_babel_writes_them(code: str) -> None:
    """The fast way of grouping digits (Python's, by threes) writes what Babel writes, in the
    catalogs' languages and in locales it does not fit (Hindi's lakhs, Swiss millions)."""
    locale = Locale.parse(code)
    values = [0, 7, 999, 1_000, 12_345, 999_999, 1_000_000, 123_456_789, 10**12, -1, -12_345,
              *random.Random(code).sample(range(10**10), 500)]
    assert [write_integer(value, locale) for value in values] == [
        str(format_decimal(value, locale=locale)) for value in values]


def test_plurals_follow_english_rules_in_english() -> None:
    assert str(tr_n("{count} bot", "{count} bots", 1)) == "1 bot"
    assert str(tr_n("{count} bot", "{count} bots", 2)) == "2 bots"


def test_english_hand_names_are_the_engines_for_every_rank() -> None:
    assert all(str(hand_name(rank)) == engine_hand_name(rank)
               for rank in range(1, WORST_RANK + 1))


@pytest.mark.parametrize(("tag", "full_house", "two_pair", "straight"), [
    ("zh-CN", "葫芦，K带5", "两对，J和3", "顺子，5高"),
    ("zh-TW", "葫蘆，K帶5", "兩對，J和3", "順子，5高"),
])
def test_hand_names_in_chinese(tag: str, full_house: str, two_pair: str, straight: str) -> None:
    from engine.cards import parse_cards
    from engine.evaluator import evaluate

    language = language_for(tag)
    assert language.render(hand_name(evaluate(parse_cards("Kd Ks Kc 5c 5h")))) == full_house
    assert language.render(hand_name(evaluate(parse_cards("Jd Js 3c 3h 9d")))) == two_pair
    assert language.render(hand_name(evaluate(parse_cards("Ah 2d 3c 4s 5h")))) == straight


@pytest.mark.parametrize(("tag", "words"), [
    ("zh-CN", ["弃牌", "过牌", "跟注", "下注", "加注", "全下", "翻牌前", "翻牌", "转牌", "河牌"]),
    ("zh-TW", ["棄牌", "過牌", "跟注", "下注", "加注", "全押", "翻牌前", "翻牌", "轉牌", "河牌"]),
])
def test_poker_words_as_players_of_each_language_say_them(tag: str, words: list[str]) -> None:
    language = language_for(tag)
    said = [language.render(action_word(kind)) for kind in (
        ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
        ActionKind.ALL_IN)]
    said += [language.render(street_name(street)) for street in (
        Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)]
    assert said == words


def test_english_is_the_message_itself() -> None:
    assert ENGLISH.render(tr("The table is full ({seats} seats).", seats=9)) == \
        "The table is full (9 seats)."


def test_updating_the_catalogs_keeps_their_headers_and_warns_of_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
    all_messages: list[Found],
) -> None:
    """``python -m bot.discord_ui.translator`` changes only entries: not the header's
    Generated-By line when Babel was upgraded, and it warns of nothing in the code."""
    def header(path: Path) -> bytes:
        return path.read_bytes().split(b"\n\n", 1)[0]

    for path in LOCALES.glob("*.po"):
        shutil.copy(path, tmp_path / path.name)
    monkeypatch.setattr(extraction, "LOCALES", tmp_path)
    capfd.readouterr()
    written = update_catalogs(list(command_strings()))
    assert capfd.readouterr().err == ""
    assert {path.name for path in written} == {path.name for path in LOCALES.glob("*.po")}
    for path in written:
        assert header(path) == header(LOCALES / path.name)
    once = {path: path.read_bytes() for path in written}
    update_catalogs(list(command_strings()))
    assert {path: path.read_bytes() for path in written} == once

"""``python -m bot play`` in English, 简体中文 and 繁體中文: ``--lang``, the locale's default,
whole piped games in each language, Chinese shortcuts, and columns padded by display width."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale, UnknownLocaleError

from bot.i18n import language_for
from bot.i18n.extraction import messages_in_code
from bot.ledger import Ledger
from bot.tables.notifier import PotState
from bot.terminal import main
from bot.terminal.cli import parse_options
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID, local_player_name
from bot.terminal.language import choose_language, display_width, pad, system_language
from bot.terminal.menu import help_text, menu_options, read_amount, read_choice
from bot.terminal.render import Style, render_outcome, render_table
from engine.actions import Action, ActionKind, LegalActions
from engine.cards import parse_cards
from tests.table_states import seat_state, table_state

TERMINAL = Path(__file__).resolve().parents[2] / "bot" / "terminal"
HANS, HANT = language_for("zh_Hans"), language_for("zh_Hant")
ME = 7
SCRIPT = "9\n?\n3\nlots\n\n4\ny\nn\nq\n"
"""A game that meets the menu's hint, the help, the amount question, an all-in, run it twice
and the out-of-chips question (with seed 4)."""


def legal(**changes: object) -> LegalActions:
    values = dict(seat=0, can_fold=True, can_check=False, can_call=True, call_amount=20,
                  can_bet=False, can_raise=True, min_to=40, max_to=1000, stack=990)
    values.update(changes)
    return LegalActions(**values)  # type: ignore[arg-type]


def english_fragments() -> set[str]:
    """The English words of every terminal message long enough to recognise: the text
    between placeholders, when it has two words or more."""
    fragments = set()
    for found in messages_in_code(TERMINAL):
        ids = found.msgid if isinstance(found.msgid, tuple) else (found.msgid,)
        for msgid in ids:
            for part in re.split(r"\{\w*\}", msgid):
                part = part.strip(" .,;:()'?")
                if len(re.findall(r"[A-Za-z]+", part)) >= 2:
                    fragments.add(part)
    return fragments


def play(tmp_path: Path, *args: str, script: str = SCRIPT,
         environ: dict[str, str] | None = None) -> str:
    out = io.StringIO()
    status = main(["--fast", "--seed", "4", "--bots", "easy", "--database",
                   str(tmp_path / "holdem.sqlite3"), *args],
                  stdin=io.StringIO(script), stdout=out, environ=environ or {})
    assert status == 0, out.getvalue()[-2_000:]
    return out.getvalue()


async def audit_holds(path: Path) -> bool:
    async with await Ledger.open(path) as ledger:
        return (await ledger.audit()).ok and await ledger.balance(GUILD_ID, LOCAL_USER_ID) > 0


# -- choosing the language -------------------------------------------------------------------


@pytest.mark.parametrize(("tag", "code"), [
    ("zh-Hans", "zh_Hans"), ("zh-CN", "zh_Hans"), ("zh_CN.UTF-8", "zh_Hans"), ("zh", "zh_Hans"),
    ("zh-SG", "zh_Hans"), ("zh_Hant", "zh_Hant"), ("zh-TW", "zh_Hant"), ("zh-HK", "zh_Hant"),
    ("en", "en"), ("en-GB", "en"), ("en_US.UTF-8", "en"),
])
def test_lang_takes_codes_and_locales(tag: str, code: str) -> None:
    chosen = choose_language(tag)
    assert chosen is not None and chosen.code == code


@pytest.mark.parametrize("tag", ["klingon", "fr", "de-DE", "", "zz", "--"])
def test_a_language_the_bot_does_not_speak_is_refused(tag: str) -> None:
    assert choose_language(tag) is None


@pytest.mark.parametrize("tag", ["C", "POSIX", "C.UTF-8", "posix", "C@euro"])
@pytest.mark.parametrize("babel_parses_c", [True, False], ids=["babel-2.19", "babel-2.17"])
def test_c_and_posix_state_no_preference_so_the_default_language_is_taken(
    tag: str, babel_parses_c: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As gettext reads them, on either answer Babel has given for ``C`` (2.17 and 2.18
    refuse it, 2.19 parses it as ``en_US_POSIX``)."""
    if not babel_parses_c:
        real_parse = Locale.parse

        def parse_like_babel_2_17(identifier: object, *args: object, **kwargs: object) -> Locale:
            if str(identifier).upper() in ("C", "POSIX"):
                raise UnknownLocaleError(str(identifier))
            return real_parse(identifier, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Locale, "parse", parse_like_babel_2_17)
    chosen = choose_language(tag)
    assert chosen is not None and chosen.code == "en"
    assert system_language({"LANG": tag}).code == "en"


@pytest.mark.parametrize("tag", ["klingon", "fr"])
def test_an_unknown_lang_is_refused_like_a_bad_option_with_status_2(
    tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        main(["--lang", tag, "--database", str(tmp_path / "x.sqlite3")],
             stdin=io.StringIO("q\n"), stdout=out, environ={})
    assert exited.value.code == 2 and out.getvalue() == ""
    assert capsys.readouterr().err.endswith(
        f"holdem play: error: unknown language {tag!r} for --lang; use en, zh-Hans (or zh-CN) "
        "or zh-Hant (or zh-TW)\n")
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.parametrize(("environ", "code"), [
    ({}, "en"),
    ({"LANG": "zh_TW.UTF-8"}, "zh_Hant"),
    ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
    ({"LANG": "zh_HK.UTF-8"}, "zh_Hant"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8"}, "zh_Hant"),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
    ({"LANG": "zh_TW.UTF-8", "LC_ALL": ""}, "zh_Hant"),  # an empty variable is not set
])
def test_the_default_language_follows_lc_all_lc_messages_then_lang(
    environ: dict[str, str], code: str
) -> None:
    assert system_language(environ).code == code


def test_lang_wins_over_the_locale(tmp_path: Path) -> None:
    output = play(tmp_path, "--lang", "en", script="q\n", environ={"LANG": "zh_TW.UTF-8"})
    assert "You sit down with" in output and "籌碼" not in output


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words", "other_script"), [
    ("zh-Hans", ("你带着", "筹码入座", "轮到你了", "弃牌", "跟注", "底池", "公共牌", "翻牌前",
                 "不在菜单上", "输入菜单上的数字", "加注到", "上一动作：你：", "第 1 手结果",
                 "你的筹码：", "发两次？y/n", "再次买入 2,000 筹码？y/n", "你离开了牌桌。",
                 "余额：", "保存在"), "籌碼"),
    ("zh-TW", ("你帶著", "籌碼入座", "輪到你了", "棄牌", "跟注", "底池", "公共牌", "翻牌前",
               "不在選單上", "輸入選單上的數字", "加注到", "上一動作：你：", "第 1 手結果",
               "你的籌碼：", "發兩次？y/n", "再次買入 2,000 籌碼？y/n", "你離開了牌桌。",
               "餘額：", "儲存在"), "筹码"),
])
def test_a_piped_game_in_chinese_has_no_english_sentence_left(
    lang: str, words: tuple[str, ...], other_script: str, tmp_path: Path
) -> None:
    output = play(tmp_path, "--lang", lang)
    for word in words:
        assert word in output, word
    assert other_script not in output  # simplified and traditional are not mixed
    fragments = english_fragments()
    assert len(fragments) > 50 and "Your turn" in fragments
    left = [fragment for fragment in fragments if fragment in output]
    assert left == [], left
    # Apart from names, card codes, the file's path, the keys (y/n, q, ?, Enter), what was
    # typed and the commands that review and replay the last hand, no Latin words.
    path = str(tmp_path / "holdem.sqlite3")
    commands = ("python -m bot review", "python -m bot replay --out hand.gif")
    latin = set(re.findall(r"[A-Za-z]{3,}", output.replace(path, "")))
    assert all(command in output for command in commands)
    latin -= {word for command in commands for word in re.findall(r"[A-Za-z]{3,}", command)}
    assert latin <= {"Happy", "Hal", "Enter", "lots", local_player_name()}, latin
    assert asyncio.run(audit_holds(tmp_path / "holdem.sqlite3"))


def test_the_same_game_in_english_still_reads_english(tmp_path: Path) -> None:
    output = play(tmp_path, "--lang", "en")
    for sentence in ("You sit down with", "Your turn:", "'9' is not on the menu",
                     "Type a number from the menu or a shortcut", "Run it twice? y/n",
                     "Hand #1 result", "Buy in again for 2,000 chips? y/n",
                     "You leave the table.", "Balance:"):
        assert sentence in output, sentence
    assert not re.search(r"[\u4e00-\u9fff]", output)


def left_in_traditional_chinese(output: str) -> bool:
    """True when ``output`` says the player leaves: at once, or (mid-hand) once it is over."""
    return "你離開了牌桌。" in output or "這手牌結束後你將離開。" in output


def test_the_locale_chooses_the_language_of_a_game_in_a_subprocess(tmp_path: Path) -> None:
    env = {**os.environ, "LANG": "zh_TW.UTF-8", "LC_ALL": "", "LC_MESSAGES": "",
           "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--fast", "--seed", "4", "--bots", "easy",
         "--database", str(tmp_path / "holdem.sqlite3")],
        input="2\nq\n", capture_output=True, text=True, env=env, timeout=120,
        encoding="utf-8")
    assert result.returncode == 0, result.stderr
    assert "輪到你了" in result.stdout and left_in_traditional_chinese(result.stdout)
    assert "Your turn" not in result.stdout


def test_chinese_shortcuts_play_the_game(tmp_path: Path) -> None:
    output = play(tmp_path, "--lang", "zh-Hans", script="跟注\n过牌\n加注 100\n弃牌\nq\n")
    assert "上一动作：你：跟注" in output
    assert "不在菜单上" not in output


# -- the menu --------------------------------------------------------------------------------


def test_the_menu_speaks_each_language_with_the_same_numbers() -> None:
    for language, expected in (
        (HANS, [(1, "弃牌"), (2, "跟注 20"), (3, "加注到 40-1,000"), (4, "全下（加注到 1,000）")]),
        (HANT, [(1, "棄牌"), (2, "跟注 20"), (3, "加注到 40-1,000"), (4, "全押（加注到 1,000）")]),
    ):
        assert [(o.number, o.label) for o in menu_options(legal(), language)] == expected
        assert read_choice(legal(), "4", language) == Action(ActionKind.ALL_IN)
        assert read_choice(legal(), "raise 80", language) == Action(ActionKind.RAISE, 80)


@pytest.mark.parametrize(("text", "action"), [
    ("弃牌", Action(ActionKind.FOLD)), ("棄牌", Action(ActionKind.FOLD)),
    ("跟注", Action(ActionKind.CALL)), ("加注 100", Action(ActionKind.RAISE, 100)),
    ("全下", Action(ActionKind.ALL_IN)), ("全押", Action(ActionKind.ALL_IN)),
])
def test_chinese_shortcut_words_work_in_every_language(text: str, action: Action) -> None:
    for language in (language_for("en"), HANS, HANT):
        assert read_choice(legal(), text, language) == action
    unopened = legal(can_check=True, can_call=False, call_amount=0, can_bet=True,
                     can_raise=False, min_to=20)
    assert read_choice(unopened, "过牌") == Action(ActionKind.CHECK)
    assert read_choice(unopened, "過牌") == Action(ActionKind.CHECK)
    assert read_choice(unopened, "下注 50") == Action(ActionKind.BET, 50)


def test_menu_hints_are_in_the_players_language() -> None:
    with pytest.raises(Exception, match="“9”不在菜单上；请选择 1、2、3 或 4。"):
        read_choice(legal(), "9", HANS)
    with pytest.raises(Exception, match=re.escape("跟注不需要金額；只要輸入 2。")):
        read_choice(legal(), "2 50", HANT)
    with pytest.raises(Exception, match=re.escape("超出範圍；加注到 40-1,000（按 Enter：40）。")):
        read_amount(legal(), "5000", HANT)
    assert "q 離開牌桌" in help_text(HANT) and "f 棄牌、x 過牌" in help_text(HANT)


# -- drawings --------------------------------------------------------------------------------


def test_columns_line_up_by_display_width_with_chinese_words() -> None:
    seats = (seat_state(0, "小明", ME, stack=1500, bet=40),
             seat_state(1, "Happy Hal", None, bet=40, is_button=True),
             seat_state(2, "王大锤的机器人", None, stack=0, all_in=True),
             seat_state(3, "Cal", None, folded=True))
    state = table_state(board="Ah Kd 7c", seats=seats, hand_number=3,
                        pots=(PotState(300, (0, 1, 2)), PotState(80, (0, 1))))
    for language in (HANS, HANT):
        lines = render_table(state, Style(False, language), ME, parse_cards("Qs Qh")).splitlines()
        seat_lines = lines[2:6]
        # The stacks end in the same column, and so do the statuses.
        ends = {display_width(line[:line.index(f"{stack:,}") + len(f"{stack:,}")])
                for line, stack in zip(seat_lines, (1500, 1000, 0, 1000), strict=True)}
        assert len(ends) == 1, seat_lines
        assert lines[0].startswith("-- 第 3 手 | 翻牌 | 盲注 10/20 ")
        assert display_width(lines[0]) == 60
        assert seat_lines[0].startswith(">  你 ")


def test_the_result_in_chinese_names_hands_and_pots() -> None:
    from tests.terminal.test_terminal import outcome

    text = render_outcome(outcome(), Style(False, HANS), ME)
    assert "第 3 手结果" in text and "你从主池赢得 300" in text
    assert "Happy Hal 从边池 1赢得 80" in text or "Happy Hal 从边池 1 赢得 80" in text
    assert "你的筹码：1,660（本手 +160）" in text


def test_pad_counts_wide_characters_twice() -> None:
    assert display_width("你好ab") == 6
    assert pad("你好", 6) == "你好  " and pad("ab", 6) == "ab    "


def test_your_own_last_action_names_you_in_every_language() -> None:
    from bot.i18n.poker import action_text
    from engine.actions import Street
    from engine.view import ActionRecord

    raise_all_in = action_text("alice", ActionRecord(0, Street.FLOP, ActionKind.RAISE, 60, 80,
                                                     True))
    seats = (seat_state(0, "alice", ME), seat_state(1, "Pip", None))
    state = table_state(seats=seats, last_action=raise_all_in)
    for language, expected in ((language_for("en"), "Last: You: raise to 80 (all-in)"),
                               (HANS, "上一动作：你：加注到 80（全下）"),
                               (HANT, "上一動作：你：加注到 80（全押）")):
        assert render_table(state, Style(False, language), ME).splitlines()[-1] == expected
    others = table_state(seats=seats, last_action=action_text(
        "Pip", ActionRecord(1, Street.FLOP, ActionKind.CALL, 20, 20, False)))
    assert render_table(others, Style(False, HANS), ME).splitlines()[-1] == "上一动作：Pip：跟注 20"


@pytest.mark.parametrize("word", ["退出", "离开", "離開"])
def test_chinese_words_leave_the_table_like_q(word: str, tmp_path: Path) -> None:
    output = play(tmp_path, "--lang", "zh-Hant", script=f"{word}\n2\n2\n")
    assert left_in_traditional_chinese(output)
    assert "上一動作：你：跟注" not in output  # 2 not played


def test_an_unknown_lang_is_refused_in_the_locales_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "klingon", "--database", str(tmp_path / "x.sqlite3")],
             stdin=io.StringIO(""), stdout=io.StringIO(), environ={"LANG": "zh_TW.UTF-8"})
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        "holdem play: error: --lang 的語言「klingon」未知；"
        "請使用 en、zh-Hans（或 zh-CN）或 zh-Hant（或 zh-TW）\n")


def test_bad_options_and_the_help_are_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_options(["--bots", "easy,genius"], HANS)
    assert exit_info.value.code == 2
    assert "未知的机器人等级“genius”：请使用 easy, medium, hard" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang", "zh-TW", "--help"], environ={})
    help_page = capsys.readouterr().out
    assert "在終端機裡離線和機器人玩無限注德州撲克" in help_page and "遊戲語言" in help_page

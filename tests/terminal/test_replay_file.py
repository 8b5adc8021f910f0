"""``python -m bot replay HAND --database PATH --out FILE.gif`` writes the image /replay
attaches, and says in one line why when it cannot."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.ledger import HandParticipant, Ledger
from bot.render.replay import render_replay
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID
from bot.terminal.language import choose_language
from bot.terminal.render import YOU
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from tests.terminal.closed_pipe import run_into_closed_pipe

ROOT = Path(__file__).parents[2]
GUILD, TABLE, ANN, BO, BOT = 1, 5, 21, 22, -1


def run(*args: str | Path, lang: str = "C.UTF-8", cwd: Path | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bot replay`` with ``args``, in the locale ``lang`` (English by default),
    with ``env`` added to the environment."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "", "PYTHONPATH": path,
           **(env or {})}
    return subprocess.run([sys.executable, "-m", "bot", "replay", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=60, cwd=cwd)


async def record_hand(path: Path, guild: int, first: tuple[int, str],
                      second: tuple[int, str]) -> tuple[int, RecordedHand]:
    """Settle one hand of two players in the ledger at ``path``, recorded for replays."""
    hand = hand_with_cards([500, 500], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    record = RecordedHand.from_hand(hand)
    (one, one_name), (two, two_name) = first, second
    async with await Ledger.open(path) as ledger:
        for user, name in (first, second):
            await ledger.ensure_player(guild, user, name)
            await ledger.buy_in(guild, TABLE, user, 500)
        hand_id = await ledger.begin_hand(guild, TABLE, 1, {one: 500, two: 500})
        final = hand.result.final_stacks
        await ledger.settle_hand(
            hand_id, {one: final[0], two: final[1]},
            [HandParticipant(one, one_name, final[0] - 500, won=True),
             HandParticipant(two, two_name, final[1] - 500)], "text", record.to_json())
    return hand_id, record


@pytest.fixture
async def database(tmp_path: Path) -> tuple[Path, int, RecordedHand]:
    """A ledger with one settled hand of Ann and Bo, recorded for replays."""
    path = tmp_path / "ledger.sqlite3"
    hand_id, record = await record_hand(path, GUILD, (ANN, "Ann"), (BO, "Bo"))
    return path, hand_id, record


@pytest.fixture
async def offline(tmp_path: Path) -> tuple[dict[str, str], int, RecordedHand]:
    """The environment of a user whose offline game (its default ledger, in their data
    directory) has one hand of theirs, and that hand."""
    path = tmp_path / "data" / "holdem-discord" / "holdem.sqlite3"
    path.parent.mkdir(parents=True)
    hand_id, record = await record_hand(path, GUILD_ID, (LOCAL_USER_ID, "alice"),
                                        (BOT, "Happy Hal"))
    return {"XDG_DATA_HOME": str(tmp_path / "data")}, hand_id, record


def test_it_writes_the_replay_that_replay_attaches(database, tmp_path: Path):
    path, hand_id, record = database
    out, still = tmp_path / "hand.gif", tmp_path / "hand.png"
    ran = run(hand_id, "--database", path, "--out", out, "--still", still, "--player", BO)
    assert ran.returncode == 0, ran.stderr
    expected = render_replay(record, ["Ann", "Bo"], 1, title=hand_id)
    assert out.read_bytes() == expected.animation and still.read_bytes() == expected.still
    assert ran.stdout.startswith(f"wrote {out}: {expected.frames} frames, ")
    spectator = run(hand_id, "--database", path, "--out", out)
    assert spectator.returncode == 0
    assert out.read_bytes() == render_replay(record, ["Ann", "Bo"], None,
                                             title=hand_id).animation


@pytest.mark.parametrize(("args", "message"), [
    (("--database", "missing.sqlite3"), "there is no database at missing.sqlite3"),
    (("--hand", "99"), "there is no finished hand #99"),
    (("--player", "7"), "user 7 did not play hand #"),
])
def test_a_hand_it_cannot_replay_is_one_line_and_status_1(database, tmp_path, args, message):
    path, hand_id, _ = database
    options = dict(zip(args[::2], args[1::2], strict=True))
    hand = options.pop("--hand", str(hand_id))
    database_path = options.pop("--database", str(path))
    extra = [item for pair in options.items() for item in pair]
    out = tmp_path / "never.gif"
    ran = run(hand, "--database", database_path, "--out", out, *extra)
    assert ran.returncode == 1
    assert ran.stderr.strip().startswith("error: ") and message in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize(("lang", "args", "message"), [
    ("zh_CN.UTF-8", (), "错误：ledger.sqlite3 中没有已结束的牌局 #99"),
    ("zh_TW.UTF-8", (), "錯誤：ledger.sqlite3 中沒有已結束的牌局 #99"),
    ("C.UTF-8", ("--lang", "zh-Hant"), "錯誤：ledger.sqlite3 中沒有已結束的牌局 #99"),
    ("zh_TW.UTF-8", ("--lang", "en"), "error: there is no finished hand #99 in ledger.sqlite3"),
])
def test_it_speaks_the_language_of_the_locale_or_of_lang(database, tmp_path, lang, args,
                                                          message):
    path, _, _ = database
    ran = run("99", "--database", path.name, "--out", tmp_path / "never.gif", *args, lang=lang,
              cwd=path.parent)
    assert ran.returncode == 1
    assert ran.stderr == message + "\n"


def test_it_writes_its_report_in_chinese(database, tmp_path: Path):
    path, hand_id, _ = database
    out = tmp_path / "hand.gif"
    ran = run(hand_id, "--database", path, "--out", out, "--lang", "zh-CN")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(f"已写入 {out}：") and "帧" in ran.stdout
    assert "frames" not in ran.stdout


def test_an_unknown_lang_is_refused_like_a_bad_option_with_status_2(database, tmp_path: Path):
    path, hand_id, _ = database
    ran = run(hand_id, "--database", path, "--out", tmp_path / "x.gif", "--lang", "klingon")
    assert ran.returncode == 2
    assert ran.stderr.startswith("usage: holdem replay")
    assert "holdem replay: error: unknown language 'klingon'" in ran.stderr


@pytest.mark.parametrize("run", range(3))
def test_its_report_into_a_closed_pipe_ends_quietly(database, tmp_path: Path, run: int):
    path, hand_id, _ = database
    out = tmp_path / "hand.gif"
    status, errors = run_into_closed_pipe(
        ["replay", str(hand_id), "--database", str(path), "--out", str(out)], lines=0,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert status in (0, 141) and errors == ""
    assert out.stat().st_size > 0


def test_by_default_it_reads_the_offline_ledger_and_draws_the_hand_as_you_saw_it(
    offline, tmp_path: Path
):
    env, hand_id, record = offline
    out = tmp_path / "hand.gif"
    ran = run(hand_id, "--out", out, env=env)
    assert ran.returncode == 0, ran.stderr
    # Your cards face up, under the name the terminal gives you.
    expected = render_replay(record, ["You", "Happy Hal"], 0, title=hand_id, you=0)
    assert out.read_bytes() == expected.animation


def test_lang_draws_the_image_in_that_language_too(offline, tmp_path: Path):
    env, hand_id, record = offline
    out = tmp_path / "hand.png"
    ran = run(hand_id, "--out", out, "--lang", "zh-CN", env=env)
    assert ran.returncode == 0, ran.stderr
    chinese = choose_language("zh-CN")
    assert chinese is not None
    expected = render_replay(record, [chinese.render(YOU), "Happy Hal"], 0, title=hand_id,
                             language=chinese, you=0)
    assert out.read_bytes() == expected.still


def test_the_file_format_follows_the_suffix_of_out(database, tmp_path: Path):
    path, hand_id, record = database
    expected = render_replay(record, ["Ann", "Bo"], None, title=hand_id)
    for name, image in (("hand.png", expected.still), ("hand.GIF", expected.animation)):
        ran = run(hand_id, "--database", path, "--out", tmp_path / name)
        assert ran.returncode == 0, ran.stderr
        assert (tmp_path / name).read_bytes() == image


@pytest.mark.parametrize("args", [("--out", "hand.jpg"), ("--out", "hand"),
                                  ("--out", "hand.gif", "--still", "result.gif")])
def test_a_suffix_that_is_not_the_file_s_format_is_refused(database, tmp_path: Path, args):
    path, hand_id, _ = database
    ran = run(hand_id, "--database", path, *args, cwd=tmp_path)
    assert ran.returncode == 2
    assert ".gif" in ran.stderr and ".png" in ran.stderr and "Traceback" not in ran.stderr
    assert sorted(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("out", ["no-such-folder/hand.gif", "a-folder.gif"])
def test_a_file_it_cannot_write_is_one_line_and_status_1(database, tmp_path: Path, out):
    path, hand_id, _ = database
    (tmp_path / "a-folder.gif").mkdir()
    ran = run(hand_id, "--database", path, "--out", tmp_path / out)
    assert ran.returncode == 1
    assert ran.stderr.startswith(f"error: cannot write {tmp_path / out}: ")
    assert len(ran.stderr.splitlines()) == 1


def test_a_file_that_is_not_a_ledger_says_so(tmp_path: Path):
    notes = tmp_path / "notes.txt"
    notes.write_text("these are not chips\n" * 100)
    ran = run("1", "--database", notes, "--out", tmp_path / "hand.gif")
    assert ran.returncode == 1
    assert ran.stderr == f"error: {notes} is not a chip ledger: file is not a database\n"
    assert notes.read_text() == "these are not chips\n" * 100


def test_another_programs_sqlite_database_is_refused_and_left_as_it_was(tmp_path: Path):
    """A database, but not a ledger: nothing of the ledger is written into it."""
    other = tmp_path / "notes.sqlite3"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.commit()
    before = other.read_bytes()
    ran = run("1", "--database", other, "--out", tmp_path / "hand.gif")
    assert ran.returncode == 1
    assert ran.stderr == f"error: {other} is not a chip ledger: it has no ledger tables\n"
    assert other.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.sqlite3"]

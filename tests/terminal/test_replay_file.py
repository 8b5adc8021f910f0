"""``python -m bot replay HAND --database PATH --out FILE.gif`` writes the image /replay
attaches, and says in one line why when it cannot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ledger import HandParticipant, Ledger
from bot.render.replay import render_replay
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from tests.terminal.closed_pipe import run_into_closed_pipe

ROOT = Path(__file__).parents[2]
GUILD, TABLE, ANN, BO = 1, 5, 21, 22


def run(*args: str | Path, lang: str = "C.UTF-8",
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bot replay`` with ``args``, in the locale ``lang`` (English by default)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "", "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "bot", "replay", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=60, cwd=cwd)


@pytest.fixture
async def database(tmp_path: Path) -> tuple[Path, int, RecordedHand]:
    """A ledger with one settled hand of Ann and Bo, recorded for replays."""
    hand = hand_with_cards([500, 500], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    record = RecordedHand.from_hand(hand)
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        for user, name in ((ANN, "Ann"), (BO, "Bo")):
            await ledger.ensure_player(GUILD, user, name)
            await ledger.buy_in(GUILD, TABLE, user, 500)
        hand_id = await ledger.begin_hand(GUILD, TABLE, 1, {ANN: 500, BO: 500})
        final = hand.result.final_stacks
        await ledger.settle_hand(
            hand_id, {ANN: final[0], BO: final[1]},
            [HandParticipant(ANN, "Ann", final[0] - 500, won=True),
             HandParticipant(BO, "Bo", final[1] - 500)], "text", record.to_json())
    return path, hand_id, record


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


def test_an_unknown_lang_is_one_line_and_status_2(database, tmp_path: Path):
    path, hand_id, _ = database
    ran = run(hand_id, "--database", path, "--out", tmp_path / "x.gif", "--lang", "klingon")
    assert ran.returncode == 2
    assert ran.stderr.startswith("error: unknown language 'klingon'")
    assert len(ran.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("run", range(3))
def test_its_report_into_a_closed_pipe_ends_quietly(database, tmp_path: Path, run: int):
    path, hand_id, _ = database
    out = tmp_path / "hand.gif"
    status, errors = run_into_closed_pipe(
        ["replay", str(hand_id), "--database", str(path), "--out", str(out)], lines=0,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert status in (0, 141) and errors == ""
    assert out.stat().st_size > 0

"""``python -m bot review HAND`` prints what /review says, from the same ledger, and refuses
a hand it cannot review in one line with status 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.i18n import ENGLISH, language_for
from bot.i18n.coach import review, review_text
from tests.terminal.test_replay_file import ANN, BO, ROOT, database  # noqa: F401 (a fixture)


def run(*args: str | Path, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "", "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "bot", "review", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=60)


def test_it_prints_the_review_that_review_answers(database):  # noqa: F811
    path, hand_id, record = database
    for player, seat in ((ANN, 0), (BO, 1)):
        ran = run(hand_id, "--database", path, "--player", player)
        assert ran.returncode == 0, ran.stderr
        expected = [ENGLISH.render(line) for line in review_text(hand_id, review(record, seat))]
        assert ran.stdout.splitlines() == expected
    chinese = run(hand_id, "--database", path, "--player", ANN, "--lang", "zh-CN")
    assert chinese.stdout.splitlines()[0] == language_for("zh-CN").render(
        review_text(hand_id, review(record, 0))[0])


def test_a_hand_it_cannot_review_is_one_line_and_status_1(database):  # noqa: F811
    path, hand_id, _ = database
    for args, message in (((hand_id + 1, "--database", path), "there is no finished hand #"),
                          ((hand_id, "--database", path, "--player", 7),
                           "user 7 did not play hand #"),
                          ((hand_id, "--database", path), "you did not play hand #")):
        ran = run(*args)
        assert ran.returncode == 1 and ran.stdout == ""
        assert ran.stderr.startswith(f"error: {message}") and ran.stderr.count("\n") == 1

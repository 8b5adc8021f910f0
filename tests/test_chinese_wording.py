"""Chinese words a player reads as a player would say them: a range read from actions is not
"cards shown", the last action is an action, chips taken from the table are 带走, and an
offsuit hand is 杂色."""

from __future__ import annotations

import pytest

from bot.i18n import language_for, tr

HANS, HANT = language_for("zh-CN"), language_for("zh-TW")


@pytest.mark.parametrize(("language", "said"), [
    (HANS, ["提示：…按其行动推断的范围：30%（估算）。", "上一动作：Pip：跟注 20",
            "你带走了 2,000 筹码，已存回余额。", "A8杂色"]),
    (HANT, ["提示：…按其行動推斷的範圍：30%（估算）。", "上一動作：Pip：跟注 20",
            "你帶走了 2,000 籌碼，已存回餘額。", "A8雜色"]),
])
def test_chinese_poker_wording(language: object, said: list[str]) -> None:
    render = language.render  # type: ignore[attr-defined]
    assert [
        render(tr("{equity} Against the hands their actions suggest: {percent}% (estimated).",
                  equity="提示：…", percent=30)),
        render(tr("Last: {action}", action="Pip：跟注 20")),
        render(tr("You cash out {chips} chips.", chips=2000)),
        render(tr("{first}-{second} offsuit", first="A", second="8")),
    ] == said

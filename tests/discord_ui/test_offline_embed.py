"""A table cut off from Discord's gateway says so in one line of its embed, in the table's
language, and shows no countdown: its clocks are stopped."""

from __future__ import annotations

import pytest

from bot.discord_ui.embeds import table_embed
from bot.i18n import ENGLISH, Language, language_for
from tests.table_states import seat_state, table_state


def embed_text(offline: bool, language: Language) -> str:
    state = table_state(seats=(seat_state(0, "alice", 11), seat_state(1, "bob", 12)),
                        to_act_seat=0, to_act_deadline=None, offline=offline)
    data = table_embed(state, language=language).to_dict()
    return "\n".join([data.get("description", ""),
                      *(field["value"] for field in data.get("fields", []))])


@pytest.mark.parametrize(("language", "line"), [
    (ENGLISH, "Waiting for Discord: the connection dropped, so every clock is stopped."),
    (language_for("zh-CN"), "正在等待 Discord：连接已断开，所有计时都已暂停。"),
    (language_for("zh-TW"), "正在等待 Discord：連線已中斷，所有計時都已暫停。"),
])
def test_an_offline_table_says_it_waits_for_discord(language: Language, line: str) -> None:
    assert line in embed_text(True, language)
    assert "Discord" not in embed_text(False, language)
    assert "<t:" not in embed_text(True, language)

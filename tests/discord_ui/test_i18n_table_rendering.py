"""The table message, its buttons and forms in the channel's language, DMs in the member's:
rendered in Simplified and Traditional Chinese, no English sentence is left."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest

from bot.discord_ui.embeds import hole_cards_text, table_embed
from bot.discord_ui.notifier import DM_FAILED_NOTICE, DiscordNotifier
from bot.discord_ui.views.amount_form import AmountForm
from bot.discord_ui.views.run_it_twice import RunItTwiceQuestion
from bot.discord_ui.views.table_controls import table_components
from bot.i18n import ENGLISH, Language, language_for, tr
from bot.i18n.extraction import messages_in_code
from bot.i18n.poker import action_text, hand_name
from bot.tables.notifier import HandOutcome, PlayerResult, PotAward, PotState, ShownHand
from engine.actions import ActionKind, Street
from engine.cards import parse_cards
from engine.evaluator import evaluate
from engine.view import ActionRecord
from tests.discord_ui.test_embeds import embed_text, seat, state
from tests.discord_ui.test_table_controls import buttons, facing_a_bet

SIMPLIFIED, TRADITIONAL = language_for("zh-CN"), language_for("zh-TW")
NAMES = {"alice", "bob", "Noodle"}
"""Words that stay as written in every language: the players' names."""
MY_MODULES = ("embeds.py", "notifier.py", "live_table.py", "player_actions.py",
              "table_clicks.py", "edit_coalescer.py", "views/")


def english_words(text: str) -> set[str]:
    """Latin words of two letters or more that are neither names nor commands."""
    words = set(re.findall(r"[A-Za-z]{2,}", text)) - NAMES
    return {word for word in words if f"/{word}" not in text}


def my_sentences() -> list[str]:
    """The English text between the placeholders of every message of the table's modules."""
    pieces = []
    root = Path(__file__).resolve().parents[2] / "bot"
    for found in messages_in_code(root):
        if "discord_ui/" in found.path and any(module in found.path for module in MY_MODULES):
            msgids = found.msgid if isinstance(found.msgid, tuple) else (found.msgid,)
            for msgid in msgids:
                pieces += [piece.strip(" .:,()*") for piece in re.split(r"\{\w+\}", msgid)]
    return sorted({piece for piece in pieces if re.search(r"[A-Za-z]{3,}", piece)})


def busy_table_and_result():
    """A hand with everything the embed can say: a bot, side pots, every seat status, a
    raise as the last action, and a result run twice with hands shown."""
    seats = (seat(0, "alice", 11, is_button=True, bet=40, all_in=True),
             seat(1, "bob", 12, shown_cards=tuple(parse_cards("7s 7h")), leaving=True),
             seat(2, "Noodle", None, folded=True), seat(3, "carol", 13, sitting_out=True))
    first, second = tuple(parse_cards("Ah Kd 7c 2s 3s")), tuple(parse_cards("Ah Kd 7c 9h Th"))
    table = state(seats=seats, boards=(first, second), board=first, ante=5,
                  pots=(PotState(300, (0, 1, 2)), PotState(1_200, (0, 1))), pot_total=1_500,
                  last_action=action_text("bob", ActionRecord(1, Street.FLOP, ActionKind.RAISE,
                                                              60, 80, True)))
    trips = hand_name(evaluate(parse_cards("7s 7h Ah Kd 7c")))
    outcome = HandOutcome(
        hand_id=4, boards=(first, second),
        awards=(PotAward(1, "bob", 600, 0, 0, trips), PotAward(0, "alice", 1_200, 1, 1, None)),
        shown=(ShownHand(1, "bob", tuple(parse_cards("7s 7h")), (trips, trips)),),
        mucked_seats=(), results=(PlayerResult(1, "bob", 12, 300, 1_800),), history_text="")
    return table, outcome


@pytest.mark.parametrize("language", [SIMPLIFIED, TRADITIONAL], ids=lambda lang: lang.code)
def test_the_table_embed_is_all_in_the_channels_language(language: Language):
    table, outcome = busy_table_and_result()
    embed = table_embed(table, outcome, language=language)
    text = embed_text(embed) + "\n" + (embed.footer.text or "")
    assert not english_words(text), text
    for sentence in my_sentences():
        assert sentence not in text, sentence
    side = "边池" if language is SIMPLIFIED else "邊池"
    assert "底池" in text and side in text and "1,500" in text
    assert ("三条" if language is SIMPLIFIED else "三條") in text
    assert "<t:1800000000:R>" in text  # Discord writes the countdown in each reader's language


def test_the_english_table_embed_is_unchanged_in_meaning():
    table, outcome = busy_table_and_result()
    text = embed_text(table_embed(table, outcome))
    assert "blinds 10/20 ante 5" in text
    assert "bob: raise to 80 (all-in)" in text
    assert "**bob** wins 600 from the main pot on run 1 with Three of a Kind, Sevens" in text
    assert "1,500 (main 300, side 1,200)" in text


def test_a_waiting_table_and_the_hole_cards_message_in_chinese():
    waiting = state(is_hand_running=False, seats=(), board="", last_action=None)
    text = embed_text(table_embed(waiting, language=TRADITIONAL))
    assert "等待玩家" in text and "還沒有人" in text and not english_words(text)
    dm = hole_cards_text(state(), parse_cards("As Ad"), SIMPLIFIED)
    assert dm == "<#2> 第 4 手：你的手牌是 **A♠ A♦**"


@pytest.mark.parametrize("language, fold, all_in", [(SIMPLIFIED, "弃牌", "全下 1,500"),
                                                   (TRADITIONAL, "棄牌", "全押 1,500")],
                         ids=["zh_Hans", "zh_Hant"])
async def test_the_buttons_are_labelled_in_the_channels_language(
        language: Language, fold: str, all_in: str):
    drawn = buttons(table_components(state(), facing_a_bet(), language))
    assert drawn["fold"] == (fold, False)
    assert drawn["call"] == ("跟注 40", False)
    assert drawn["bet"] == ("加注…", False)
    assert drawn["allin"] == (all_in, False)
    assert drawn["min"] == ("最小（80）", False)
    assert drawn["half_pot"] == ("½ 底池（210）", False)
    assert drawn["pot"] == ("底池（380）", False)
    assert drawn["holdem:my_cards"][0] == "我的手牌"
    labels = [label for label, _ in drawn.values()]
    assert not english_words(" ".join(labels)), labels


async def test_the_amount_form_and_run_it_twice_buttons_in_chinese():
    form = AmountForm(facing_a_bet(), TRADITIONAL)
    field = form.children[0]
    assert isinstance(field, discord.ui.TextInput)
    assert form.title == "加注 · 你的籌碼為 1,500"
    assert field.to_component_dict()["label"] == "加注到（80 至 1,500 籌碼）"
    question = RunItTwiceQuestion(812, SIMPLIFIED)
    assert [item.item.label for item in question.children] == ["发两次", "发一次"]


# -- DMs in the member's language --------------------------------------------------------------


@dataclass
class FakeGuild:
    preferred_locale: discord.Locale


@dataclass
class Channel:
    sent: list[str]

    async def send(self, text: str, files: object = None, view: object = None) -> None:
        self.sent.append(text)


@dataclass
class DMClient:
    """Just enough of a client for DMs: every DM lands in ``sent``; the server speaks
    ``guild_locale``."""

    guild_locale: discord.Locale = discord.Locale.american_english
    sent: list[str] = field(default_factory=list)
    fail: bool = False

    async def create_dm(self, user: discord.Object) -> discord.Object:
        if self.fail:
            raise discord.HTTPException(_Response(), "server error")
        return discord.Object(1_000 + user.id)

    def get_partial_messageable(self, channel_id: int, **kwargs: object) -> Channel:
        return Channel(self.sent)

    def get_guild(self, guild_id: int) -> FakeGuild:
        return FakeGuild(self.guild_locale)


class _Response:
    status = 500
    reason = "Internal Server Error"


async def settled() -> None:
    others = asyncio.all_tasks() - {asyncio.current_task()}
    await asyncio.gather(*others, return_exceptions=True)


async def test_hole_cards_and_notes_go_in_the_members_remembered_language():
    client = DMClient()
    notifier = DiscordNotifier(client)  # type: ignore[arg-type]
    notifier.remember_language(12, TRADITIONAL)
    await notifier.hole_cards(state(), 12, tuple(parse_cards("As Ad")))
    await notifier.tell(2, 12, tr("Your time ran out, so you checked or folded."))
    await settled()
    assert client.sent[0] == "<#2> 第 4 手：你的手牌是 **A♠ A♦**"
    assert client.sent[1] == "<#2>: " + TRADITIONAL.render(
        tr("Your time ran out, so you checked or folded."))
    assert not english_words(client.sent[1])


async def test_without_a_remembered_language_a_dm_follows_the_channels_server():
    client = DMClient(guild_locale=discord.Locale.chinese)
    notifier = DiscordNotifier(client)  # type: ignore[arg-type]
    await notifier.hole_cards(state(), 11, tuple(parse_cards("Ks Kd")))
    await settled()
    assert client.sent == ["<#2> 第 4 手：你的手牌是 **K♠ K♦**"]
    assert notifier.table_language(state()) is SIMPLIFIED


async def test_a_waiting_note_is_read_in_the_language_of_the_interaction_that_takes_it():
    client = DMClient(fail=True)
    notifier = DiscordNotifier(client, dm_deadline=0.5)  # type: ignore[arg-type]
    notifier.remember_language(12, SIMPLIFIED)
    await notifier.hole_cards(state(), 12, tuple(parse_cards("As Ad")))
    await settled()
    assert notifier.take_notices(12, TRADITIONAL) == [TRADITIONAL.render(DM_FAILED_NOTICE)]
    assert "**我的手牌**" in TRADITIONAL.render(DM_FAILED_NOTICE)
    await notifier.hole_cards(state(), 12, tuple(parse_cards("As Ad")))
    await settled()
    assert notifier.take_notices(12) == [SIMPLIFIED.render(DM_FAILED_NOTICE)]  # remembered


async def test_remembered_languages_are_bounded(monkeypatch: pytest.MonkeyPatch):
    from bot.discord_ui import notifier as notifier_module

    monkeypatch.setattr(notifier_module, "MAX_PEOPLE_REMEMBERED", 3)
    client = DMClient()
    notifier = DiscordNotifier(client)  # type: ignore[arg-type]
    for user in range(5):
        notifier.remember_language(user, SIMPLIFIED)
    notifier.remember_language(2, SIMPLIFIED)  # used again: kept longest
    notifier.remember_language(9, TRADITIONAL)
    assert [notifier.person_language(user, 2) for user in (4, 2, 9)] == [
        SIMPLIFIED, SIMPLIFIED, TRADITIONAL]
    assert notifier.person_language(3, 2) is ENGLISH  # forgotten: the channel's (unknown)

"""A whole hand in Chinese, through the real discord.py client against the fake Discord.

Two people (their Discord clients in 简体中文, 繁體中文 or English) and a bot play one hand to the
end, by showdown or by a fold, with every way a person acts: slash commands (/join, /start,
/cards, /bet, /check, /call, /fold, /leave), clicks on the table message (the action
buttons, My cards, the amount form), refused input, and a turn left to time out. Afterwards
every message a person read during the scenario is read back from the fake's record of REST
calls: each interaction answer, follow-up, form and answer edit, each DM, and each version
of the table message (posts, channel edits, click answers and token edits). Each is checked
to be in the language its reader should get: a member's own answers and DMs in their
client's language, the table in the server's (its Discord language, or ``/settings
language``), English for an English client.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.discord_ui.app import HoldemBot
from bot.i18n import language_for, languages
from tests.discord_ui.club import Club, control, wait_for_turn_or_end
from tests.fake_discord import CallKind, InteractionRecord

pytestmark = pytest.mark.slow

SERVER = 0
"""The reader of public channel messages (the table): everyone, in the server's language."""
EPHEMERAL_FLAG = 1 << 6
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
TRADITIONAL_ONLY = frozenset("們這個會時籌碼對沒還輪棄過")
SIMPLIFIED_ONLY = frozenset("们这个会时筹码对没还轮弃过")
TURN_TIMER = 2.0
"""Seconds to act in the hands that end by a fold (one person lets the time run out)."""


def english_fragments() -> frozenset[str]:
    """Every piece of 2+ words between the placeholders of the catalog's English message ids
    (singular and plural): none may reach a person who reads Chinese."""
    catalog_file = resources.files("bot.i18n") / "locales" / "zh_Hans.po"
    with catalog_file.open("rb") as po:
        catalog = read_po(po)
    fragments = set()
    for message in catalog:
        if not message.id:
            continue
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in re.split(r"\{[^{}]*\}", msgid):
                piece = piece.strip()
                if len(re.findall(r"[A-Za-z][A-Za-z_'’]*", piece)) >= 2:
                    fragments.add(piece)
    return frozenset(fragments)


ENGLISH_FRAGMENTS = english_fragments()
LANGUAGE_NAMES = tuple(language.name for language in languages().values())


@dataclass(frozen=True, slots=True)
class Read:
    """One message (or one version of a message) a person read."""

    reader: int
    """A user id, or ``SERVER`` for the public table message."""
    what: str
    text: str


@dataclass(frozen=True, slots=True)
class Case:
    alice: str
    bob: str
    guild: str
    """The server's Discord language (GUILD_CREATE ``preferred_locale``, ``guild_locale``)."""
    setting: str | None
    """``/settings language`` (by the admin, whose client is English), if any."""
    ending: str
    """``showdown``: everyone checks, calls or bets small; ``fold``: one person lets their
    time run out facing a raise, the other folds if the hand goes on."""
    seed: int = 7
    """The deck's seed: 3 ends in a split pot, both people showing their hands; 7 in a bot
    winning the showdown."""

    @property
    def table_language(self) -> str:
        return self.setting or language_for(self.guild).code


CASES = {
    "cn+tw, server cn, showdown": Case("zh-CN", "zh-TW", "zh-CN", None, "showdown", seed=3),
    "cn+tw, settings tw, fold": Case("zh-CN", "zh-TW", "en-US", "zh_Hant", "fold"),
    "tw+tw, server tw, fold": Case("zh-TW", "zh-TW", "zh-TW", None, "fold"),
    "cn+en, settings cn, showdown": Case("zh-CN", "en-US", "en-US", "zh_Hans", "showdown"),
    "cn+cn, server tw, showdown": Case("zh-CN", "zh-CN", "zh-TW", None, "showdown", seed=3),
}


class Scenario:
    """The club, the bot, and what each interaction the test made was (for the report)."""

    def __init__(self, club: Club, bot: HoldemBot) -> None:
        self.club, self.bot, self.fake = club, bot, club.fake
        self.labels: dict[int, str] = {}

    def _note(self, record: InteractionRecord, label: str) -> InteractionRecord:
        self.labels[record.id] = label
        return record

    async def slash(self, user: int, name: str, **options: Any) -> InteractionRecord:
        record = await self.fake.slash(user, self.club.channel, name, **options)
        return self._note(record, f"/{name}")

    async def click(self, user: int, custom_id: str) -> InteractionRecord:
        table = await self.club.table_message(self.bot)
        record = await self.fake.click(user, table.id, custom_id)
        return self._note(record, f"click {custom_id.split(':')[1]}")

    async def submit(self, user: int, modal_id: str, values: dict[str, str]
                     ) -> InteractionRecord:
        record = await self.fake.submit_modal(user, modal_id, values)
        return self._note(record, f"form {list(values.values())}")

    async def table_control(self, *actions: str) -> str:
        return control(await self.club.table_message(self.bot), *actions)

    def what_people_read(self) -> list[Read]:
        """Every message and message version people were shown, from the REST calls."""
        world, reads = self.fake.world, []
        for call in self.fake.calls:
            if call.status >= 400 or not isinstance(call.json, dict):
                continue
            parts = call.path.split("/")
            if call.kind is CallKind.INTERACTION_RESPONSE:
                record = world.interactions[int(parts[2])]
                label = self.labels.get(record.id, "interaction")
                kind, data = call.json["type"], call.json.get("data") or {}
                if kind == 9:
                    reads.append(Read(record.user_id, f"{label}: form", message_text(data)))
                elif kind == 4:
                    private = bool((data.get("flags") or 0) & EPHEMERAL_FLAG)
                    reads.append(Read(record.user_id if private else SERVER,
                                      f"{label}: answer", message_text(data)))
                elif kind == 7:
                    reads.append(Read(SERVER, f"{label}: table update", message_text(data)))
            elif call.kind in (CallKind.FOLLOWUP_CREATE, CallKind.RESPONSE_EDIT):
                record = world.interaction_by_token(parts[3])
                assert record is not None
                label = self.labels.get(record.id, "interaction")
                if call.kind is CallKind.FOLLOWUP_CREATE:
                    private = bool((call.json.get("flags") or 0) & EPHEMERAL_FLAG)
                else:
                    target = (record.message if parts[-1] == "@original"
                              else world.messages[int(parts[-1])])
                    private = target is not None and target.is_ephemeral
                where = "answer" if private else "table edit by its token"
                reads.append(Read(record.user_id if private else SERVER, f"{label}: {where}",
                                  message_text(call.json)))
            elif call.kind in (CallKind.CHANNEL_MESSAGE_CREATE, CallKind.CHANNEL_MESSAGE_EDIT):
                assert call.channel_id == self.club.channel, call
                reads.append(Read(SERVER, f"channel {call.kind.value}", message_text(call.json)))
            elif call.kind in (CallKind.DM_MESSAGE_CREATE, CallKind.DM_MESSAGE_EDIT):
                recipient = world.channels[call.channel_id or 0].recipient_id
                assert recipient is not None
                reads.append(Read(recipient, f"DM ({call.kind.value})",
                                  message_text(call.json)))
        return [read for read in reads if read.text.strip()]


def message_text(data: dict[str, Any]) -> str:
    """All a message body (or a form) shows: title, content, embeds, component labels."""
    parts = [data.get("title") or "", data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title", ""), embed.get("description", "")]
        for field in embed.get("fields", []):
            parts += [field.get("name", ""), field.get("value", "")]
        parts += [(embed.get("footer") or {}).get("text", ""),
                  (embed.get("author") or {}).get("name", "")]
    pending = list(data.get("components") or [])
    while pending:
        component = pending.pop(0)
        parts += [component.get(key) or "" for key in ("label", "placeholder", "content")]
        parts += [option.get(key) or "" for option in component.get("options", [])
                  for key in ("label", "description")]
        pending[:0] = component.get("components", [])
        if "accessory" in component:
            pending.insert(0, component["accessory"])
    return "\n".join(part for part in parts if part)


def language_problems(text: str, code: str) -> list[str]:
    """Why ``text`` is not written in the language ``code`` (nothing when it is)."""
    if code == "en":
        for name in LANGUAGE_NAMES:  # a language menu names each language in itself
            text = text.replace(name, "")
        return ["Chinese in an English reader's text"] if CJK.search(text) else []
    problems = []
    if not CJK.search(text):
        problems.append("no Chinese at all")
    english = sorted(fragment for fragment in ENGLISH_FRAGMENTS if fragment in text)
    if english:
        problems.append(f"English sentences {english}")
    wrong = set(text) & (TRADITIONAL_ONLY if code == "zh_Hans" else SIMPLIFIED_ONLY)
    if wrong:
        problems.append(f"the other script's characters {''.join(sorted(wrong))}")
    return problems


async def play_a_hand(scenario: Scenario, case: Case) -> None:
    """Seat both people and a bot, deal, and play the hand to its end with every kind of
    command, click and refused input."""
    club, bot, fake = scenario.club, scenario.bot, scenario.fake
    channel, alice, bob = club.channel, club.alice, club.bob
    for user in (alice, bob):
        joined = await scenario.slash(user, "join")
        assert joined.ephemeral
    assert (await scenario.slash(alice, "addbot", level="easy")).ephemeral
    before = len(fake.dms(alice)), len(fake.dms(bob))
    assert (await scenario.slash(alice, "start")).ephemeral
    await fake.wait_until(lambda: len(fake.dms(alice)) > before[0]
                          and len(fake.dms(bob)) > before[1])

    first = await wait_for_turn_or_end(club, bot)
    assert first is not None
    other = bob if first == alice else alice
    assert (await scenario.slash(first, "cards")).ephemeral
    assert (await scenario.click(other, await scenario.table_control("my_cards"))).ephemeral
    assert (await scenario.click(other, await scenario.table_control("fold"))).ephemeral
    assert (await scenario.slash(other, "check")).ephemeral  # not their turn
    assert (await scenario.slash(first, "bet", amount=50_000)).ephemeral  # too much

    turn = bot.notifier.turn(channel)
    assert turn is not None
    legal = turn[1].legal
    if legal.can_bet_or_raise and legal.min_to < legal.max_to:
        opened = await scenario.click(first, await scenario.table_control("bet"))
        assert opened.response_type == 9 and opened.modal is not None
        modal_id = opened.modal["custom_id"]
        field_id = opened.modal["components"][0]["components"][0]["custom_id"]
        for typed in ("lots", str(max(100, legal.min_to))):
            submitted = await scenario.submit(first, modal_id, {field_id: typed})
        assert submitted.updated
    else:
        await scenario.slash(first, "call")

    timed_out = bet_clicked = False
    acted = 0
    while (user := await wait_for_turn_or_end(club, bot)) is not None:
        turn = bot.notifier.turn(channel)
        assert turn is not None
        legal, acted = turn[1].legal, acted + 1
        if case.ending == "fold" and user == other and not timed_out:
            await let_the_time_run_out(scenario, user)
            timed_out = True
        elif case.ending == "fold":
            assert (await scenario.slash(user, "fold")).ephemeral
        elif legal.can_bet and not bet_clicked:
            assert (await scenario.click(user, await scenario.table_control("min"))).updated
            bet_clicked = True
        elif acted % 2:
            answer = await scenario.slash(user, "check" if legal.can_check else "call")
            assert answer.ephemeral
        else:
            answer = await scenario.click(user, await scenario.table_control("check", "call"))
            assert answer.updated
    await bot.notifier.flush()
    state = bot.tables.state(channel)
    assert state is not None and not state.is_hand_running and state.hand_number == 1
    assert timed_out or case.ending == "showdown"
    for user in (alice, bob):  # cashing out: the answers, and the table without them
        assert (await scenario.slash(user, "leave")).ephemeral
    await bot.notifier.flush()


async def let_the_time_run_out(scenario: Scenario, user: int) -> None:
    """``user`` does nothing: the table acts for them, and tells them so by DM."""
    fake, channel = scenario.fake, scenario.club.channel
    turn, dms = scenario.bot.notifier.turn(channel), len(fake.dms(user))
    await fake.wait_until(lambda: scenario.bot.notifier.turn(channel) != turn,
                          timeout=TURN_TIMER + 5)
    await fake.wait_until(lambda: len(fake.dms(user)) > dms)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
async def test_everything_a_person_reads_in_a_whole_hand_is_in_their_language(
        club: Club, case: Case):
    fake = club.fake
    fake.world.users[club.alice].locale = case.alice
    fake.world.users[club.bob].locale = case.bob
    fake.world.guilds[club.guild_id].locale = case.guild
    bot = await club.start_bot(seed=case.seed)
    scenario = Scenario(club, bot)
    changes: dict[str, Any] = {"turn_timer": TURN_TIMER} if case.ending == "fold" else {}
    if case.setting is not None:
        changes["language"] = case.setting
    if changes:
        answer = await scenario.slash(club.admin, "settings", **changes)
        assert answer.ephemeral
    await play_a_hand(scenario, case)
    assert (await bot.ledger.audit()).ok

    readers = {SERVER: case.table_language, club.admin: "en",
               club.alice: language_for(case.alice).code, club.bob: language_for(case.bob).code}
    reads = scenario.what_people_read()
    wrong = [f"{read.what} for {readers[read.reader]} reader {read.reader}: "
             f"{'; '.join(problems)}\n    {read.text!r}"
             for read in reads
             if (problems := language_problems(read.text, readers[read.reader]))]
    checked = Counter((readers[read.reader], "table" if read.reader == SERVER else "member")
                      for read in reads)
    print(f"\n{case}: checked {dict(checked)}")
    assert not wrong, "\n".join(wrong)

    # Every kind of message was seen: the table, each member's answers, forms and DMs.
    whats = {(read.reader, read.what.split(": ")[-1]) for read in reads}
    for user in (club.alice, club.bob):
        assert any(read.reader == user and read.what.startswith("DM") for read in reads)
        assert any(read.reader == user and read.what.endswith("answer") for read in reads)
    assert any(what.endswith("form") for _, what in whats)
    assert {what for reader, what in whats if reader == SERVER} >= {"table update"}

"""Downloading your hands: /me/hands.txt and /me/hands.phhs on real ledgers (SQLite and
PostgreSQL) holding hands the table runtime played, read back by pokerkit."""

from __future__ import annotations

import re
import warnings
from urllib.parse import urlsplit

import pytest
from pokerkit import HandHistory

from engine.cards import cards_str
from engine.hand_record import RecordedHand
from tests.web.conftest import HANDS, Site


async def hole_cards(site: Site, hand_id: int, user_id: int) -> str:
    record = await site.ledger.hand_history(hand_id)
    assert record is not None and record.replay is not None
    seat = record.seat_of(user_id)
    assert seat is not None
    return cards_str(RecordedHand.from_json(record.replay).hole_cards[seat])


async def unshown_cards(site: Site, hand_id: int, user_id: int) -> list[str]:
    """Every card of ``hand_id`` dealt to someone else than ``user_id`` and never shown."""
    record = await site.ledger.hand_history(hand_id)
    assert record is not None and record.replay is not None
    played = RecordedHand.from_json(record.replay)
    shown = played.shown_seats() | {record.seat_of(user_id)}
    return [cards_str([card]) for seat, cards in enumerate(played.hole_cards)
            if seat not in shown for card in cards]


def phh_cards(actions: list[str]) -> set[str]:
    """The cards PHH ``actions`` deal or show (``??`` for a card not known)."""
    cards = set()
    for action in actions:
        words = action.split()
        if words[:2] in (["d", "dh"], ["d", "db"]) or (words[1:2] == ["sm"] and len(words) == 3):
            cards |= {words[-1][index:index + 2] for index in range(0, len(words[-1]), 2)}
    return cards


async def test_a_player_downloads_their_hands_in_both_formats(site: Site) -> None:
    bob = await site.client_as(site.bob)
    text_file = await bob.get("/me/hands.txt", params={"guild": str(site.guild_id)})
    assert text_file.status == 200
    assert text_file.headers["Content-Disposition"] == \
        f'attachment; filename="holdem-hands-{site.guild_id}.txt"'
    assert text_file.headers["Cache-Control"] == "private, no-store"
    text = await text_file.text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(HandHistory.from_pokerstars(text, error_status=True))
    assert [history.hand for history in parsed] == sorted(site.hand_ids, reverse=True)
    phh_file = await bob.get("/me/hands.phhs")
    assert phh_file.status == 200
    loaded = list(HandHistory.loads_all(await phh_file.text()))
    assert [history.hand for history in loaded] == sorted(site.hand_ids, reverse=True)
    for hand_id, history in zip(sorted(site.hand_ids, reverse=True), loaded, strict=True):
        assert f"Dealt to Bob [{await hole_cards(site, hand_id, site.bob)}]" in text
        record = await site.ledger.hand_history(hand_id)
        assert record is not None
        finals = {participant.name: participant.net for participant in record.participants}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            end = list(history)[-1].stacks
        assert [final - start for final, start in zip(end, history.starting_stacks,
                                                       strict=True)] == \
            [finals[name] for name in history.players]  # the ledger's result, replayed


async def test_nobody_else_s_unshown_cards_are_in_a_download(site: Site) -> None:
    alice = await site.client_as(site.alice)
    text = await (await alice.get("/me/hands.txt")).text()
    phhs = await (await alice.get("/me/hands.phhs")).text()
    written = {int(chunk.split(":")[0]): set(" ".join(re.findall(r"\[([^\]]*)\]", chunk)).split())
               for chunk in text.split("PokerStars Hand #")[1:]}
    for history in HandHistory.loads_all(phhs):
        written[history.hand] |= phh_cards(history.actions)
    hidden = [(hand_id, card) for hand_id in site.hand_ids
              for card in await unshown_cards(site, hand_id, site.alice)]
    assert hidden  # Bob folded or mucked some hands
    for hand_id, card in hidden:
        assert card not in written[hand_id], (hand_id, card)


async def test_count_and_range_choose_the_newest_hands_asked_for(site: Site) -> None:
    bob = await site.client_as(site.bob)
    newest = sorted(site.hand_ids, reverse=True)
    assert len(newest) >= HANDS

    async def hands(**params: str) -> list[int]:
        text = await (await bob.get("/me/hands.phhs", params=params)).text()
        return [history.hand for history in HandHistory.loads_all(text)]

    assert await hands(count="2") == newest[:2]
    assert await hands(before=str(newest[1])) == newest[2:]
    assert await hands(after=str(newest[-2]), count="10") == newest[:-2]
    assert await hands(since="2000-01-01", until="2999-12-31") == newest


async def test_without_a_session_the_download_goes_to_the_login(site: Site) -> None:
    visitor = await site.client_as(None)
    answer = await visitor.get("/me/hands.txt?count=5", allow_redirects=False)
    assert answer.status == 302
    assert urlsplit(answer.headers["Location"]).path == "/login"


@pytest.mark.parametrize("query", ["count=0", "count=abc", "count=99999999", "before=-1",
                                   "guild=x", "since=2024-13-01", "until=yesterday",
                                   "count=%EF%BC%95"])
async def test_a_malformed_query_gets_a_plain_400(site: Site, query: str) -> None:
    bob = await site.client_as(site.bob)
    answer = await bob.get(f"/me/hands.txt?{query}")
    assert answer.status == 400 and "Traceback" not in await answer.text()


async def test_another_server_s_hands_are_refused_and_no_hands_is_said(site: Site) -> None:
    dave = await site.client_as(site.dave)
    assert (await dave.get("/me/hands.txt", params={"guild": str(site.guild_id)})).status == 403
    none = await dave.get("/me/hands.txt", headers={"Accept-Language": "zh-CN"})
    assert none.status == 404 and "Content-Disposition" not in none.headers
    await site.set_web_page("off")
    bob = await site.client_as(site.bob)
    assert (await bob.get("/me/hands.txt", params={"guild": str(site.guild_id)})).status == 404

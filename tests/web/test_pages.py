"""Every page as an outsider, a member, the player and another player: what each may see,
never an unshown hole card; and bad input answered with a plain 4xx page."""

from __future__ import annotations

import re

import pytest

from bot.ledger import Ledger
from bot.render.leaderboard_chart import LEADERBOARD_VALUES
from bot.settings import Settings
from bot.web.app import create_app
from engine.cards import card_str, pretty_card
from engine.hand_record import RecordedHand
from tests.web.conftest import Site


async def every_page(site: Site) -> list[str]:
    guild = site.guild_id
    return [f"/servers/{guild}", *(f"/servers/{guild}/leaderboards/{order}"
                                   for order in LEADERBOARD_VALUES),
            f"/servers/{guild}/players/{site.alice}", f"/servers/{guild}/players/{site.bob}",
            *(f"/hands/{hand_id}" for hand_id in site.hand_ids)]


def leaked(text: str, cards: tuple[int, ...]) -> list[str]:
    """The cards of ``cards`` found in a page: drawn (``A♥``) or in the history (``Ah``)."""
    history = "".join(re.findall(r'<pre class="history">(.*?)</pre>', text, re.S))
    return [card_str(card) for card in cards
            if pretty_card(card) in text or re.search(rf"\b{card_str(card)}\b", history)]


@pytest.mark.parametrize("web_page", ["public", "members"])
async def test_no_page_shows_anyone_a_hole_card_they_may_not_see(site: Site,
                                                                 web_page: str) -> None:
    await site.set_web_page(web_page)
    viewers = {"visitor": None, "outsider": site.dave, "member": site.carol,
               "alice": site.alice, "bob": site.bob}
    hands = {}
    for hand_id in site.hand_ids:
        record = await site.ledger.hand_history(hand_id)
        assert record is not None and record.replay is not None
        hands[hand_id] = (record, RecordedHand.from_json(record.replay))
    own_cards_seen = 0
    for who, user_id in viewers.items():
        client = await site.client_as(user_id)
        for path in await every_page(site):
            page = await client.get(path, allow_redirects=False)
            if web_page == "members" and who in ("visitor", "outsider"):
                assert page.status in (302, 403), (who, path)
                continue
            assert page.status == 200, (who, path, page.status)
            text = await page.text()
            if not path.startswith("/hands/"):
                assert not re.search("[♠♥♦♣]", text), (who, path)  # no cards at all
                continue
            record, played = hands[int(path.rsplit("/", 1)[1])]
            for seat in range(len(record.participants)):
                mine = user_id is not None and record.seat_of(user_id) == seat
                found = leaked(text, played.hole_cards[seat])
                if mine:
                    assert len(found) == 2, (who, path)  # the player's own, always
                    own_cards_seen += 1
                elif seat not in played.shown_seats():
                    assert not found, (who, path, seat)
    assert own_cards_seen >= 2 * len(site.hand_ids)
    assert any(played.shown_seats() for _, played in hands.values())
    assert any(len(played.shown_seats()) < 3 for _, played in hands.values())


@pytest.mark.parametrize("path", [
    "/servers/abc", "/servers/0", "/servers/99999999999999999999999", "/servers/1%2F2",
    "/hands/-1", "/hands/999999", "/hands/1e3", "/tournaments/424242",
    "/servers/{guild}/leaderboards/nonsense", "/servers/{guild}/leaderboards/net?page=0",
    "/servers/{guild}/leaderboards/net?page=99999999999999999999",
    "/servers/{guild}/leaderboards/net?page=x", "/servers/{guild}/players/1",
    "/servers/{guild}/players/{guild}/chart.png", "/no/such/page", "/login/callback",
    "/login/callback?state=x&code=y",
])
async def test_bad_input_is_a_plain_refusal_in_the_readers_language(site: Site,
                                                                   path: str) -> None:
    client = await site.client_as(site.carol)
    page = await client.get(path.format(guild=site.guild_id),
                            headers={"Accept-Language": "zh-CN"})
    assert 400 <= page.status < 500, (path, page.status)
    text = await page.text()
    assert "Traceback" not in text and "<html" in text
    assert re.search(r"[\u4e00-\u9fff]", text), text


async def test_an_off_server_answers_as_if_it_had_no_pages(site: Site) -> None:
    await site.set_web_page("off")
    client = await site.client_as(site.alice)
    for path in await every_page(site):
        assert (await client.get(path)).status == 404, path


async def test_charts_are_pictures_for_members(site: Site) -> None:
    client = await site.client_as(site.carol)
    for path in (f"/servers/{site.guild_id}/leaderboards/balance/chart.png",
                 f"/servers/{site.guild_id}/players/{site.alice}/chart.png"):
        picture = await client.get(path)
        assert picture.status == 200 and picture.content_type == "image/png"
        assert (await picture.read()).startswith(b"\x89PNG")


async def test_the_language_switch_is_kept(site: Site) -> None:
    client = await site.client_as(site.carol)
    page = await client.get(f"/servers/{site.guild_id}?lang=zh_Hant")
    assert "排行榜" in await page.text() and 'lang="zh-Hant"' in await page.text()
    again = await client.get(f"/servers/{site.guild_id}")
    assert 'lang="zh-Hant"' in await again.text()


async def test_health_and_metrics(site: Site) -> None:
    client = await site.client_as(None)
    health = await client.get("/healthz")
    assert health.status == 200
    metrics = await client.get("/metrics")
    text = await metrics.text()
    assert metrics.status == 200 and "holdem_ledger_up 1.0" in text
    assert "holdem_web_requests_total" in text


async def test_health_is_503_when_the_ledger_does_not_answer(tmp_path, aiohttp_client) -> None:
    ledger = await Ledger.open(tmp_path / "gone.sqlite3")
    await ledger.close()
    client = await aiohttp_client(create_app(ledger, Settings()))
    answer = await client.get("/healthz")
    assert answer.status == 503
    assert "holdem_ledger_up 0.0" in await (await client.get("/metrics")).text()


async def test_the_server_page_lists_its_recent_tournaments(site: Site) -> None:
    ledger = site.ledger
    ended = []
    for _ in range(2):
        tournament_id = await ledger.create_tournament(site.guild_id, 5, site.alice, 0, {})
        await ledger.cancel_tournament(tournament_id)
        ended.append(tournament_id)
    running = await ledger.create_tournament(site.guild_id, 5, site.alice, 0, {})
    alice = await site.client_as(site.alice)
    page = await (await alice.get(f"/servers/{site.guild_id}")).text()
    recent = page.split("Recent tournaments", 1)[1]
    links = re.findall(r'href="/tournaments/(\d+)"', recent)
    assert links == [str(ended[1]), str(ended[0])]  # newest first, the running one above
    assert f'href="/tournaments/{running}"' in page.split("Recent tournaments", 1)[0]

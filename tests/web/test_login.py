"""Logging in with Discord through the fake Discord's OAuth2, sessions, and who sees what."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from tests.web.conftest import Site, log_in


async def test_a_member_logs_in_and_reads_the_server_page(site: Site) -> None:
    client = await site.client_as(None)
    page = await client.get(f"/servers/{site.guild_id}", allow_redirects=False)
    assert page.status == 302
    location = urlsplit(page.headers["Location"])
    assert location.path == "/login"
    assert parse_qs(location.query) == {"next": [f"/servers/{site.guild_id}"]}
    await log_in(client, site.fake, site.carol, next_page=f"/servers/{site.guild_id}")
    page = await client.get(f"/servers/{site.guild_id}")
    assert page.status == 200
    text = await page.text()
    assert "Carol" in text and "Alice" in text  # who is logged in; the leaderboard


async def test_logging_out_forgets_the_session(site: Site) -> None:
    client = await site.client_as(site.alice)
    assert (await client.get(f"/servers/{site.guild_id}")).status == 200
    out = await client.post("/logout", allow_redirects=False)
    assert out.status == 303
    page = await client.get(f"/servers/{site.guild_id}", allow_redirects=False)
    assert page.status == 302 and page.headers["Location"].startswith("/login")


async def test_a_person_in_another_server_only_is_refused_in_their_language(site: Site) -> None:
    client = await site.client_as(site.dave)
    page = await client.get(f"/servers/{site.guild_id}", headers={"Accept-Language": "zh-TW"})
    assert page.status == 403
    text = await page.text()
    assert "成員" in text and "Traceback" not in text


async def test_a_forged_state_or_a_login_from_another_browser_is_refused(site: Site) -> None:
    victim, attacker = await site.client_as(None), await site.client_as(None)
    site.fake.oauth.sign_in(site.dave)
    start = await attacker.get("/login", allow_redirects=False)
    async with aiohttp.ClientSession() as browser, browser.get(
            start.headers["Location"], allow_redirects=False) as authorize:
        back = urlsplit(authorize.headers["Location"])
    query = {key: value[0] for key, value in parse_qs(back.query).items()}
    planted = await victim.get(back.path, params=query, allow_redirects=False)
    assert planted.status == 400  # the victim's browser never started this login
    assert "holdem_session" not in planted.cookies
    forged = await attacker.get(back.path, params={**query, "state": "forged"})
    assert forged.status == 400 and "expired" in await forged.text()
    assert (await attacker.get(f"/servers/{site.guild_id}", allow_redirects=False)).status == 302


async def test_a_forged_session_cookie_is_no_session(site: Site) -> None:
    client = await site.client_as(None)
    client.session.cookie_jar.update_cookies({"holdem_session": "gAAAAAforged"})
    page = await client.get(f"/servers/{site.guild_id}", allow_redirects=False)
    assert page.status == 302 and page.headers["Location"].startswith("/login")


@pytest.mark.parametrize("guilds_fresh_seconds", [0.0])
async def test_someone_who_left_the_server_loses_its_pages(site: Site) -> None:
    client = await site.client_as(site.carol)
    assert (await client.get(f"/servers/{site.guild_id}")).status == 200
    del site.fake.world.guilds[site.guild_id].members[site.carol]
    page = await client.get(f"/servers/{site.guild_id}")
    assert page.status == 403


@pytest.mark.parametrize("guilds_fresh_seconds", [0.0])
async def test_a_revoked_application_ends_the_session(site: Site) -> None:
    client = await site.client_as(site.carol)
    site.fake.oauth.revoke(site.carol)
    page = await client.get(f"/servers/{site.guild_id}", allow_redirects=False)
    assert page.status == 302 and page.headers["Location"].startswith("/login")


async def test_a_login_goes_only_back_to_this_site(site: Site) -> None:
    client = await site.client_as(None)
    site.fake.oauth.sign_in(site.carol)
    start = await client.get("/login", params={"next": "https://evil.example/"},
                             allow_redirects=False)
    async with aiohttp.ClientSession() as browser, browser.get(
            start.headers["Location"], allow_redirects=False) as authorize:
        back = urlsplit(authorize.headers["Location"])
    done = await client.get(back.path, params={k: v[0] for k, v in parse_qs(back.query).items()},
                            allow_redirects=False)
    assert done.headers["Location"] == "/"


async def test_cancelling_at_discord_is_a_plain_refusal(site: Site) -> None:
    client = await site.client_as(None)
    site.fake.oauth.denied = True
    start = await client.get("/login", allow_redirects=False)
    async with aiohttp.ClientSession() as browser, browser.get(
            start.headers["Location"], allow_redirects=False) as authorize:
        back = urlsplit(authorize.headers["Location"])
    done = await client.get(back.path, params={k: v[0] for k, v in parse_qs(back.query).items()})
    assert done.status == 400

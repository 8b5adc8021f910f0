"""Rebuys, add-ons, re-entries and schedules of tournaments in the ledger, on both backends:
every purchase is one transaction into the tournament's escrow, counted by the audit, paid
back by a cancellation and counted in a person's net; refusals change nothing."""

from __future__ import annotations

import pytest

from bot.ledger import (
    InsufficientChips,
    InvalidRequest,
    Ledger,
    NotRegistered,
    PlayerKey,
    Purchases,
    TournamentNotOpen,
    UnbalancedPrizes,
)
from tests.ledger.test_tournaments import ALICE, BOB, CAROL, CHANNEL, CREATOR, GUILD, START, people

SETTINGS = {"starting_stack": 1_500, "seats": 6, "rebuys": 2, "addon": True, "reentry": True}
BUY_IN, ADDON = 100, 60


async def running(ledger: Ledger, *entrants: PlayerKey, settings: dict[str, object] | None = None
                  ) -> int:
    """A running tournament of ``entrants`` with rebuys, an add-on of ``ADDON`` and
    re-entry."""
    tournament_id = await ledger.create_tournament(
        GUILD, CHANNEL, CREATOR, BUY_IN, SETTINGS if settings is None else settings,
        addon_price=ADDON)
    for player in entrants:
        if isinstance(player, int):
            await people(ledger, player)
        await ledger.register_tournament(tournament_id, player)
    await ledger.start_tournament(tournament_id)
    return tournament_id


async def audited(ledger: Ledger) -> int:
    """The chips in tournament escrow, once the audit found nothing wrong."""
    report = await ledger.audit()
    assert report.ok, report.problems
    return report.totals.tournaments


async def test_rebuy_moves_the_buy_in_into_the_escrow(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, BOB)
    assert await audited(ledger) == 2 * BUY_IN
    assert await ledger.tournament_rebuy(tournament_id, ALICE) == 1
    assert await ledger.tournament_rebuy(tournament_id, ALICE) == 2
    assert (await ledger.stats(GUILD, ALICE)).balance == START - 3 * BUY_IN
    assert await audited(ledger) == 4 * BUY_IN
    info = await ledger.tournament_info(tournament_id)
    assert info is not None and info.pool == 4 * BUY_IN
    assert info.purchases == {ALICE: Purchases(rebuys=2)}


async def test_bot_rebuys_from_the_house(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, "Ada")
    house = (await ledger.audit()).totals.house
    await ledger.tournament_rebuy(tournament_id, "Ada")
    assert (await ledger.audit()).totals.house == house - BUY_IN
    assert await audited(ledger) == 3 * BUY_IN


async def test_addon_once_at_its_price(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, BOB)
    assert await ledger.tournament_addon(tournament_id, BOB) == 1
    assert (await ledger.stats(GUILD, BOB)).balance == START - BUY_IN - ADDON
    assert await audited(ledger) == 2 * BUY_IN + ADDON
    before = await ledger.audit()
    with pytest.raises(InvalidRequest):
        await ledger.tournament_addon(tournament_id, BOB)
    assert await ledger.audit() == before


async def test_reentry_is_a_new_entry_in_the_pool(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, BOB)
    assert await ledger.tournament_reentry(tournament_id, BOB) == 1
    info = await ledger.tournament_info(tournament_id)
    assert info is not None and info.pool == 3 * BUY_IN
    assert info.purchases[BOB] == Purchases(reentries=1)
    assert await audited(ledger) == 3 * BUY_IN


async def test_purchases_the_settings_do_not_offer_are_refused(ledger: Ledger) -> None:
    plain = await running(ledger, ALICE, BOB, settings={"rebuys": 1})
    await ledger.tournament_rebuy(plain, ALICE)
    before = await ledger.audit()
    for buy in (ledger.tournament_rebuy, ledger.tournament_addon, ledger.tournament_reentry):
        with pytest.raises(InvalidRequest):
            await buy(plain, ALICE)
    with pytest.raises(NotRegistered):
        await ledger.tournament_rebuy(plain, CAROL)
    assert await ledger.audit() == before


async def test_purchases_only_while_running(ledger: Ledger) -> None:
    await people(ledger, ALICE)
    tournament_id = await ledger.create_tournament(GUILD, CHANNEL, CREATOR, BUY_IN, SETTINGS)
    await ledger.register_tournament(tournament_id, ALICE)
    before = await ledger.audit()
    with pytest.raises(TournamentNotOpen):
        await ledger.tournament_rebuy(tournament_id, ALICE)
    assert await ledger.audit() == before


async def test_rebuy_needs_the_chips(ledger: Ledger) -> None:
    await people(ledger, ALICE, BOB)
    tournament_id = await ledger.create_tournament(GUILD, CHANNEL, CREATOR, 6_000, SETTINGS)
    for person in (ALICE, BOB):
        await ledger.register_tournament(tournament_id, person)
    await ledger.start_tournament(tournament_id)
    before = await ledger.audit()
    with pytest.raises(InsufficientChips):
        await ledger.tournament_rebuy(tournament_id, ALICE)
    assert await ledger.audit() == before


async def test_cancel_refunds_everything_paid(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, BOB, "Ada")
    await ledger.tournament_rebuy(tournament_id, ALICE)
    await ledger.tournament_addon(tournament_id, ALICE)
    await ledger.tournament_reentry(tournament_id, BOB)
    await ledger.tournament_rebuy(tournament_id, "Ada")
    await ledger.cancel_tournament(tournament_id)
    assert await audited(ledger) == 0
    for person in (ALICE, BOB):
        assert (await ledger.stats(GUILD, person)).balance == START


async def test_prizes_pay_the_pool_with_rebuys_and_net_counts_them(ledger: Ledger) -> None:
    tournament_id = await running(ledger, ALICE, BOB)
    await ledger.tournament_rebuy(tournament_id, ALICE)
    await ledger.tournament_addon(tournament_id, BOB)
    pool = 3 * BUY_IN + ADDON
    before = await ledger.audit()
    with pytest.raises(UnbalancedPrizes):
        await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2}, {ALICE: 2 * BUY_IN})
    assert await ledger.audit() == before
    await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2}, {ALICE: pool})
    assert await audited(ledger) == 0
    assert (await ledger.stats(GUILD, ALICE)).balance == START - 2 * BUY_IN + pool
    assert (await ledger.tournament_stats(GUILD, ALICE)).net == pool - 2 * BUY_IN
    assert (await ledger.tournament_stats(GUILD, BOB)).net == -BUY_IN - ADDON


async def test_schedule_is_kept_and_players_reminded_once(ledger: Ledger) -> None:
    tournament_id = await ledger.create_tournament(
        GUILD, CHANNEL, CREATOR, BUY_IN, SETTINGS, starts_at=2_000_000.0)
    await ledger.set_tournament_event(tournament_id, 9_876)
    assert await ledger.mark_tournament_reminded(tournament_id)
    assert not await ledger.mark_tournament_reminded(tournament_id)
    (saved,) = await ledger.saved_tournaments()
    assert (saved.info.starts_at, saved.info.event_id, saved.info.reminded) == (
        2_000_000.0, 9_876, True)
    with pytest.raises(InvalidRequest):
        await ledger.create_tournament(GUILD, CHANNEL, CREATOR, BUY_IN, SETTINGS,
                                       starts_at=float("nan"))

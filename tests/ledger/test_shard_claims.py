"""Shard claims: one owner per shard, taken all-or-nothing, renewed by a heartbeat, taken over
once lapsed; and recovery that touches only the guilds on a process's own shards."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ledger import InvalidRequest, Ledger, ShardClaimLost, ShardsTaken
from bot.ledger.statements import rows
from bot.shards import ShardSet, shard_of
from tests.ledger.conftest import FakeClock

LEASE = 6.0
BOTH = ShardSet(2, (0, 1))
FIRST, SECOND = ShardSet(2, (0,)), ShardSet(2, (1,))
GUILD_ON_0, GUILD_ON_1 = 6 << 22, 7 << 22


def test_the_guilds_used_here_are_on_the_shards_named():
    assert (shard_of(GUILD_ON_0, 2), shard_of(GUILD_ON_1, 2)) == (0, 1)


async def second_ledger(ledger_location: str | Path, clock: FakeClock) -> Ledger:
    """Another process's ledger on the same database."""
    return await Ledger.open(ledger_location, clock=clock)


async def claims(ledger: Ledger) -> list[tuple[int, int, str, float]]:
    """The claim rows, read straight from the database."""
    found = await ledger._db.read(lambda: rows(
        "SELECT shard_count, shard_id, owner, expires_at FROM shard_claims"
        " ORDER BY shard_count, shard_id"))
    return [(int(count), int(shard), owner, float(at)) for count, shard, owner, at in found]


async def test_a_claim_is_one_row_per_shard_until_the_lease_ends(ledger: Ledger, clock: FakeClock):
    await ledger.claim_shards("a", BOTH, LEASE)
    assert await claims(ledger) == [(2, 0, "a", clock.now + LEASE), (2, 1, "a", clock.now + LEASE)]


async def test_a_second_owner_is_refused_naming_the_shard_and_the_time_left(
        ledger: Ledger, clock: FakeClock, ledger_location: str | Path):
    await ledger.claim_shards("a", BOTH, LEASE)
    clock.now += 2.5
    async with await second_ledger(ledger_location, clock) as other:
        with pytest.raises(ShardsTaken) as refused:
            await other.claim_shards("b", SECOND, LEASE)
    assert (refused.value.shard_id, refused.value.holder) == (1, "a")
    assert refused.value.seconds_left == pytest.approx(3.5)
    assert str(refused.value) == (
        "shard 1 of 2 is claimed by another process (a); its claim lapses in 3.5 s unless "
        "that process renews it, and a shard runs in one process at a time")


async def test_claims_are_all_or_nothing(ledger: Ledger):
    await ledger.claim_shards("a", SECOND, LEASE)
    with pytest.raises(ShardsTaken):
        await ledger.claim_shards("b", BOTH, LEASE)
    assert [row[:3] for row in await claims(ledger)] == [(2, 1, "a")]


async def test_different_shards_are_claimed_by_different_owners(ledger: Ledger):
    await ledger.claim_shards("a", FIRST, LEASE)
    await ledger.claim_shards("b", SECOND, LEASE)
    assert [row[:3] for row in await claims(ledger)] == [(2, 0, "a"), (2, 1, "b")]


async def test_another_shard_count_overlaps_every_shard(ledger: Ledger):
    await ledger.claim_shards("a", ShardSet(), LEASE)  # shard 0 of 1: every guild
    with pytest.raises(ShardsTaken, match="same SHARD_COUNT, not 1 and 2"):
        await ledger.claim_shards("b", SECOND, LEASE)


async def test_a_lapsed_claim_is_taken_over_and_its_owner_learns_it_lost(
        ledger: Ledger, clock: FakeClock):
    await ledger.claim_shards("a", BOTH, LEASE)
    clock.now += LEASE
    await ledger.claim_shards("b", SECOND, LEASE)
    with pytest.raises(ShardClaimLost, match="claim on shards 0, 1 of 2 was taken over"):
        await ledger.renew_shards("a", BOTH, LEASE)
    await ledger.renew_shards("b", SECOND, LEASE)


async def test_renewing_extends_the_claim_even_after_it_lapsed_unclaimed(
        ledger: Ledger, clock: FakeClock):
    await ledger.claim_shards("a", FIRST, LEASE)
    clock.now += LEASE + 1
    await ledger.renew_shards("a", FIRST, LEASE)
    with pytest.raises(ShardsTaken):
        await ledger.claim_shards("b", FIRST, LEASE)


async def test_claiming_again_what_one_holds_renews_it(ledger: Ledger,
                                                       clock: FakeClock):
    await ledger.claim_shards("a", FIRST, LEASE)
    clock.now += 1
    await ledger.claim_shards("a", FIRST, LEASE)
    assert await claims(ledger) == [(2, 0, "a", clock.now + LEASE)]


async def test_release_frees_the_shards_at_once(ledger: Ledger):
    await ledger.claim_shards("a", BOTH, LEASE)
    await ledger.release_shards("a")
    await ledger.claim_shards("b", BOTH, LEASE)


@pytest.mark.parametrize(("owner", "lease"), [("", LEASE), ("a", 0.0), ("a", float("nan"))])
async def test_a_malformed_claim_is_refused(ledger: Ledger, owner: str,
                                            lease: float):
    with pytest.raises(InvalidRequest):
        await ledger.claim_shards(owner, FIRST, lease)
    assert await claims(ledger) == []


async def test_recovery_refunds_only_the_hands_and_tables_of_owned_guilds(ledger: Ledger):
    hands = {}
    for guild, table in ((GUILD_ON_0, 10), (GUILD_ON_1, 11)):
        await ledger.ensure_player(guild, 1, "alice")
        await ledger.ensure_player(guild, 2, "bob")
        await ledger.buy_in(guild, table, 1, 1_000)
        await ledger.buy_in(guild, table, 2, 1_000)
        hands[guild] = await ledger.begin_hand(guild, table, 1, {1: 1_000, 2: 1_000})

    report = await ledger.recover(shards=SECOND)

    assert report.hands_refunded == (hands[GUILD_ON_1],)
    assert report.tables_closed == (11,)
    assert await ledger.table_stacks(10) == {1: 1_000, 2: 1_000}
    assert await ledger.balance(GUILD_ON_1, 1) == 10_000
    audit = await ledger.audit()
    assert audit.ok, audit.problems
    # The other shard's process recovers its own guild later.
    report = await ledger.recover(shards=FIRST)
    assert (report.hands_refunded, report.tables_closed) == ((hands[GUILD_ON_0],), (10,))

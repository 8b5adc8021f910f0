"""The live tables' feed on a real runtime and ledger: ``LiveTables`` watches the tables
beside a front end (``FanOutNotifier``), shows every change, holds back what a table's
``spectator_delay`` hides, and never holds a card that was not shown."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.i18n import ENGLISH
from bot.ledger import Ledger
from bot.tables.fan_out import FanOutNotifier
from bot.tables.manager import TableManager
from bot.tables.notifier import HandOutcome, TableState
from bot.tables.settings import TableSettings
from bot.web.live import LiveTables
from engine.actions import Street
from engine.cards import card_str
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, eventually, passive
from tests.tables.recording_notifier import RecordingNotifier


class Watched:
    """What spectators saw: every view the live table showed, in order."""

    def __init__(self, live: LiveTables) -> None:
        self.live = live
        self.views: list[dict[str, object]] = []

    async def table_changed(self, state: TableState) -> None:
        self._take()

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        self._take()

    async def table_closed(self, channel_id: int) -> None:
        """Nothing to take: the table is gone."""

    async def table_paused(self, channel_id: int) -> None:
        """Nothing to take: the table is gone."""

    def _take(self) -> None:
        table = self.live.table(CHANNEL)
        if table is not None and (not self.views or self.views[-1]["version"] != table.version):
            self.views.append(table.view(ENGLISH))


@asynccontextmanager
async def watched_manager(path: Path, delay: str = "none", *, seed: int = 5
                          ) -> AsyncIterator[tuple[TableManager, RecordingNotifier, Watched]]:
    """A running manager on a real ledger, its tables watched by ``LiveTables`` (and, after
    it, a recorder of what spectators saw) beside the recording front end."""
    ledger = await Ledger.open(path / "ledger.sqlite3")
    notifier, live = RecordingNotifier(), LiveTables()
    watched = Watched(live)
    manager = TableManager(ledger, FanOutNotifier(notifier, live, watched),
                           rng=random.Random(seed),
                           default_settings=TableSettings.instant(spectator_delay=delay))
    notifier.manager = manager
    live.watch(manager)
    await manager.start()
    try:
        yield manager, notifier, watched
    finally:
        await manager.shutdown()
        await ledger.close()


async def play_hands(manager: TableManager, notifier: RecordingNotifier, hands: int) -> None:
    notifier.auto_actions.update({ALICE: passive, BOB: passive})
    await manager.join(GUILD, CHANNEL, ALICE, "Alice")
    await manager.join(GUILD, CHANNEL, BOB, "Bob")
    await eventually(lambda: len(notifier.outcomes) >= hands, timeout=20)
    await manager.sit_out(CHANNEL, ALICE)
    await eventually(lambda: not manager.state(CHANNEL).is_hand_running, timeout=20)


def dealt_cards(notifier: RecordingNotifier) -> set[str]:
    return {card_str(card) for _, _, cards in notifier.hole_cards_sent for card in cards}


def shown_cards(notifier: RecordingNotifier) -> set[str]:
    return {card_str(card) for outcome in notifier.outcomes for shown in outcome.shown
            for card in shown.cards}


async def test_with_no_delay_spectators_see_every_public_change_and_the_log(tmp_path):
    async with watched_manager(tmp_path) as (manager, notifier, watched):
        await play_hands(manager, notifier, 3)
        live = watched.live.table(CHANNEL)
        assert live is not None and live.shown is not None
        public = [state for state in notifier.states if state.channel_id == CHANNEL]
        # each public state the front end got, the spectators got too (same board and pot)
        seen = {(tuple(view["boards"][0]), view["pot"]) for view in watched.views}
        assert {(tuple(map(card_str, state.board)), state.pot_total) for state in public} <= seen
        finished = [view for view in watched.views if not view["running"] and view["log"]]
        assert any("Alice" in line for view in finished for line in view["log"])
        assert any(" wins " in line for view in finished for line in view["log"])
        assert any(view["deadline"] for view in watched.views)  # a person's countdown


async def test_no_unshown_hole_card_is_ever_in_what_spectators_see(tmp_path):
    async with watched_manager(tmp_path, seed=11) as (manager, notifier, watched):
        await play_hands(manager, notifier, 6)
        assert shown_cards(notifier), "no showdown in these hands: pick another seed"
        on_board = {code for view in watched.views for board in view["boards"]
                    for code in board}
        hidden = dealt_cards(notifier) - shown_cards(notifier) - on_board
        assert hidden
        seen = str(watched.views)
        assert not [card for card in hidden if f"'{card}'" in seen]
        seat_cards = {code for view in watched.views for seat in view["seats"]
                      for code in seat["cards"]}
        assert seat_cards == shown_cards(notifier)


async def test_a_street_delay_shows_a_street_only_once_the_next_one_starts(tmp_path):
    async with watched_manager(tmp_path, "street") as (manager, notifier, watched):
        await play_hands(manager, notifier, 3)
        assert watched.views
        for view in watched.views:
            if view["running"]:
                # the street in play is never shown: its board, turn and countdown are hidden
                assert view["to_act"] is None and view["deadline"] is None
                assert all(len(board) in (0, 3, 4) for board in view["boards"])
                assert view["delay"] == "street"
        streets = [state for state in notifier.states if state.is_hand_running]
        flops = [state for state in streets if state.street is Street.TURN]
        assert flops, "no hand reached the turn: pick another seed"
        # while the turn is played, spectators see the flop with everything bet on it
        shown_flops = {tuple(view["boards"][0]) for view in watched.views
                       if view["running"] and len(view["boards"][0]) == 3}
        assert {tuple(map(card_str, state.board[:3])) for state in flops} <= shown_flops
        # a finished hand is shown whole, its log to the end
        assert any(not view["running"] and any(" wins " in line for line in view["log"])
                   for view in watched.views)


async def test_a_hand_delay_shows_only_hands_that_are_over(tmp_path):
    async with watched_manager(tmp_path, "hand") as (manager, notifier, watched):
        await play_hands(manager, notifier, 3)
        running = [view for view in watched.views if view["running"]]
        assert not running
        ended = {view["hand"] for view in watched.views if view.get("log")}
        assert {outcome.hand_id for outcome in notifier.outcomes} <= ended

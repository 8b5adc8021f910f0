"""Live tables for the web: what spectators of a table see, fed by the table runtime.

Served from the bot process. With ``WEB_PORT`` set, ``python -m bot`` runs the web app on its
own event loop and ``LiveTables`` hears every table through the runtime's notifier (a
``TableWatcher`` beside Discord's front end, ``bot.tables.fan_out``), keeping in memory what
each table's spectators may see; the pages over the ledger stay the same in a web process of
their own, which lists no live tables.

Why here and not in a web process fed through PostgreSQL LISTEN/NOTIFY: measured with
``python -m benchmarks.web --feeds`` (2-core machine, 1,640 table changes of real hands, the
public state 1.8 KB as JSON), keeping a change for spectators in memory and encoding it once
costs the bot's event loop 33 µs (134 µs with the language caches cold), while encoding it
and sending it with ``pg_notify`` costs 158 µs there plus 61 µs of the database's CPU, a round
trip on the table's path, and the web process's own copy of this work; the delay to a
LISTENing process was small either way (0.5 ms at p99). NOTIFY would also make live pages
PostgreSQL-only (SQLite has no LISTEN) and one more process to run. What serving the streams
in the bot costs on top is ``python -m benchmarks.web``'s figure.

What is shown is public (``TableState``: hole cards only once shown at showdown), and a
table's ``spectator_delay`` holds it back further: with ``street`` spectators see a street
only once the next one starts (the board of the street in play, its bets, its turn and its
log stay hidden), with ``hand`` only the hands that are over. Everyone gets the same view,
so a table keeps one ``Frame`` to show, encoded once per language for every stream.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n import Language, Text, tr
from bot.i18n.poker import hand_name, street_name
from bot.tables.errors import TableError
from bot.tables.manager import TableManager
from bot.tables.notifier import HandOutcome, SeatState, TableState
from bot.tables.settings import SPECTATOR_DELAYS
from bot.web.live_port import OpenTable
from engine.actions import Street
from engine.cards import card_str, cards_str
from engine.evaluator import evaluate

BOARD_BEFORE = {Street.PREFLOP: 0, Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4,
                Street.SHOWDOWN: 5}
"""Board cards dealt before each street: what a ``street`` delay shows while it is played."""


def live_path(channel_id: int) -> str:
    """Where a table's live page is."""
    return f"/tables/{channel_id}"


@dataclass(frozen=True, slots=True)
class Frame:
    """A table as spectators may see it: its public state, the hand's log up to it, and when
    the runtime published it (``time.time()``)."""

    state: TableState
    log: tuple[Text, ...]
    published: float
    delay: str = "none"
    """The delay it was chosen under, said on the page."""


class LiveTable:
    """One channel's table as its spectators see it, and the streams waiting for a change.

    ``version`` grows whenever what spectators see changes; ``changed()`` is an event set at
    the next change (or when the table closes or pauses)."""

    def __init__(self, guild_id: int, channel_id: int) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.version = 0
        self.shown: Frame | None = None
        """What spectators see; ``None`` while a ``hand`` delay has no finished hand to show."""
        self.latest: TableState | None = None
        self.closed = False
        self.paused = False
        self._changed = asyncio.Event()
        self._hand_id: int | None = None
        self._street: Street | None = None
        self._last_action: Text | None = None
        self._log: list[Text] = []
        self._between_hands: Frame | None = None
        self._street_start: Frame | None = None
        self._encoded: dict[str, bytes] = {}

    def changed(self) -> asyncio.Event:
        """An event set at the next change."""
        return self._changed

    def publish(self, state: TableState, delay: str, published: float,
                outcome: HandOutcome | None = None) -> None:
        """Take the runtime's latest public state (with the outcome when a hand ended)."""
        self.latest, self.paused = state, False
        if state.is_hand_running and state.hand_id != self._hand_id:
            self._hand_id, self._street, self._log = state.hand_id, None, []
        action = state.last_action
        if action is not None and action is not self._last_action:  # a new Text per action
            self._log.append(action)
        self._last_action = action
        if outcome is not None:
            self._log.extend(_outcome_log(state, outcome))
        frame = Frame(state, tuple(self._log), published, delay)
        if not state.is_hand_running:
            self._between_hands = frame
        elif state.street is not self._street:
            self._street, self._street_start = state.street, frame
        self._show(self._view(frame, delay))

    def _view(self, latest: Frame, delay: str) -> Frame | None:
        if delay == "none" or not latest.state.is_hand_running:
            return latest
        if delay == "hand":
            return self._between_hands
        start = self._street_start
        return None if start is None else _street_behind(start)

    def _show(self, frame: Frame | None) -> None:
        if frame is self.shown:
            return
        self.shown = frame
        self._bump()

    def end(self, *, closed: bool) -> None:
        """The table closed, or the process keeps it paused for its next start."""
        self.closed, self.paused = closed, not closed
        self._bump()

    def _bump(self) -> None:
        self.version += 1
        self._encoded = {}
        self._changed.set()
        self._changed = asyncio.Event()

    def encoded(self, language: Language) -> bytes:
        """What spectators see now as JSON in ``language``, encoded once per version."""
        found = self._encoded.get(language.code)
        if found is None:
            found = self._encoded[language.code] = json.dumps(
                self.view(language), ensure_ascii=False, separators=(",", ":")).encode()
        return found

    def view(self, language: Language) -> dict[str, object]:
        """What spectators see now, with its words in ``language``: the JSON the page draws."""
        frame = self.shown
        view: dict[str, object] = {"version": self.version, "closed": self.closed,
                                   "paused": self.paused}
        if frame is None:
            view["notice"] = language.render(tr("The hand in play is shown once it is over."))
            return view
        state = frame.state
        say = language.render
        if state.ante:
            blinds = tr("Blinds {small}/{big} ante {ante}", small=state.small_blind,
                        big=state.big_blind, ante=state.ante)
        else:
            blinds = tr("Blinds {small}/{big}", small=state.small_blind, big=state.big_blind)
        running = state.is_hand_running
        street = street_name(state.street) if state.street is not None and running \
            else tr("Waiting for the next hand")
        view.update({
            "published": frame.published,
            "delay": frame.delay,
            "delay_notice": _delay_notice(frame.delay, language),
            "hand": state.hand_number,
            "title": say(tr("Hand #{number}", number=str(state.hand_number))),
            "blinds": say(blinds),
            "street": say(street),
            "running": running,
            "boards": [[card_str(card) for card in board] for board in state.boards],
            "pot": state.pot_total,
            "pot_text": say(tr("Pot {amount}", amount=state.pot_total)) if state.pot_total
            else "",
            "pots": [say(tr("Main {amount}", amount=pot.amount)) if index == 0 else
                     say(tr("Side pot {number}: {amount}", number=index, amount=pot.amount))
                     for index, pot in enumerate(state.pots)] if len(state.pots) > 1 else [],
            "max_seats": state.max_seats,
            "seats": [_seat(seat, state, language) for seat in state.seats],
            "to_act": state.to_act_seat if running else None,
            "deadline": state.time_bank_deadline or state.to_act_deadline if running else None,
            "offline": state.offline,
            "log": [say(line) for line in frame.log],
        })
        return view


def _seat(seat: SeatState, state: TableState, language: Language) -> dict[str, object]:
    boards = [board for board in state.boards if len(board) >= 3]
    shown_as = " / ".join(language.render(hand_name(evaluate((*seat.shown_cards, *board))))
                          for board in boards) if seat.shown_cards else ""
    if seat.sitting_out:
        status = language.render(tr("sitting out"))
    elif seat.folded:
        status = language.render(tr("{chips} · folded", chips=seat.stack))
    elif seat.all_in:
        status = language.render(tr("ALL-IN"))
    else:
        status = language.number(seat.stack)
    return {"seat": seat.seat, "name": seat.name, "bot": seat.is_bot, "stack": seat.stack,
            "bet": seat.bet, "status": status, "in_hand": seat.in_hand, "folded": seat.folded,
            "all_in": seat.all_in, "button": seat.is_button,
            "cards": [card_str(card) for card in seat.shown_cards], "shown_as": shown_as}


def _delay_notice(delay: str, language: Language) -> str:
    if delay == "street":
        return language.render(tr("Spectators see each street once the next one starts."))
    if delay == "hand":
        return language.render(tr("Spectators see each hand once it is over."))
    return ""


def _outcome_log(state: TableState, outcome: HandOutcome) -> list[Text]:
    """The end of a hand's log: the hands shown, then who won what."""
    lines: list[Text] = [
        tr("{name} shows {cards} ({hands})", name=shown.name,
           cards=cards_str(shown.cards, pretty=True),
           hands=shown.hand_names[0] if len(shown.hand_names) == 1 else shown.hand_names)
        for shown in outcome.shown]
    lines += [tr("{name} wins {amount}", name=award.name, amount=award.amount)
              for award in outcome.awards]
    return lines


def _street_behind(start: Frame) -> Frame:
    """The first state of a street, as the end of the one before it: its board cards, its
    turn and shown cards taken away."""
    state = start.state
    dealt = BOARD_BEFORE[state.street] if state.street is not None else 0
    boards = tuple(board[:dealt] for board in state.boards)
    seats = tuple(dataclasses.replace(seat, shown_cards=()) if seat.shown_cards else seat
                  for seat in state.seats)
    hidden = dataclasses.replace(
        state, board=state.board[:dealt], boards=boards, seats=seats, to_act_seat=None,
        to_act_deadline=None, time_bank_deadline=None)
    return Frame(hidden, start.log, start.published, "street")


class LiveTables:
    """Every live table of the process, as spectators see them: a ``TableWatcher`` of the
    runtime (``bot.tables.fan_out``) and the ``LivePort`` of the pages.

    A table's ``spectator_delay`` is read from its settings in ``tables`` (``watch``); a
    table whose settings cannot be read is shown a hand behind, the strictest."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._tables: dict[int, LiveTable] = {}
        self._manager: TableManager | None = None
        self._clock = clock

    def watch(self, manager: TableManager) -> None:
        """Read the tables' settings from ``manager``, the runtime this object watches."""
        self._manager = manager

    def table(self, channel_id: int) -> LiveTable | None:
        """The channel's live table, or ``None`` when it has none."""
        return self._tables.get(channel_id)

    async def open_tables(self, guild_id: int) -> Sequence[OpenTable]:
        """The guild's open tables, by channel."""
        found = []
        for channel_id, table in sorted(self._tables.items()):
            state = table.latest
            if table.guild_id != guild_id or state is None:
                continue
            found.append(OpenTable(
                channel_id=channel_id,
                blinds=tr("{small}/{big} ante {ante}", small=state.small_blind,
                          big=state.big_blind, ante=state.ante) if state.ante
                else tr("{small}/{big}", small=state.small_blind, big=state.big_blind),
                seated=len(state.seats), max_seats=state.max_seats,
                hand_number=state.hand_number, path=live_path(channel_id)))
        return found

    def _delay(self, channel_id: int) -> str:
        if self._manager is None:
            return "none"
        try:
            delay = self._manager.table_settings(channel_id).spectator_delay
        except TableError:
            return "hand"
        return delay if delay in SPECTATOR_DELAYS else "hand"

    def _live(self, state: TableState) -> LiveTable:
        table = self._tables.get(state.channel_id)
        if table is None:
            table = self._tables[state.channel_id] = LiveTable(state.guild_id, state.channel_id)
        return table

    def close(self) -> None:
        """The process stops serving: every stream ends, as for a paused table (a stop without
        a pause, as after a lost shard claim, tells the watchers nothing)."""
        tables, self._tables = self._tables, {}
        for table in tables.values():
            table.end(closed=False)

    # -- TableWatcher ------------------------------------------------------------------------

    async def table_changed(self, state: TableState) -> None:
        self._live(state).publish(state, self._delay(state.channel_id), self._clock())

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        self._live(state).publish(state, self._delay(state.channel_id), self._clock(), outcome)

    async def table_closed(self, channel_id: int) -> None:
        table = self._tables.pop(channel_id, None)
        if table is not None:
            table.end(closed=True)

    async def table_paused(self, channel_id: int) -> None:
        table = self._tables.pop(channel_id, None)
        if table is not None:
            table.end(closed=False)

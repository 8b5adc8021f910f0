"""The table runtime's ``Notifier`` for Discord: live table messages, DMs, turn options.

Public state goes to one live message per channel (``LiveTableMessage``). Hole cards go by
DM, never to the channel. DMs are sent in the background with a deadline, so the table's turn
clock never waits on Discord: when a DM fails (the person closed their DMs, error 50007, or
Discord does not answer in time) they are told once, ephemerally, on their next interaction,
and use the My cards button instead. A person's DM channel is opened once and kept in a
``DmChannelBook`` (the ledger), so that a restart does not open it again: each opening is a
request against the bot token's global rate limit. Private notes for one person that cannot
go by DM wait for that person's next interaction the same way (``take_notices``). People who
asked for them get a ping when their turn waits for them (``turn_pings``).

Languages: the table message, the run-it-twice question and the restart notice are in the
channel's language (the table's language setting, else the server's Discord language); DMs
and waiting notes in the person's own language, as their last interaction showed it
(``remember_language``), else the channel's.

Tournaments: each has one status message in the channel where it was created, posted when it
is created and edited (coalesced, like a table message) as it changes; its final standings
are a message of their own. A multi-table tournament's tables play in public threads under
that channel, opened here (``open_tournament_table``) and archived when their table closes.
These are in the server's language (its table language setting, else its Discord language).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

import discord

from bot.discord_ui.edit_coalescer import EditCoalescer
from bot.discord_ui.embeds import TABLE_COLOUR, channel_link, countdown, hole_cards_text
from bot.discord_ui.live_table import LiveTableMessage, TableSnapshot
from bot.discord_ui.tournament_embeds import (
    board_title,
    cancelled_by_restart_embed,
    results_embed,
    status_embed,
)
from bot.discord_ui.tournament_events import follow_event, remind
from bot.discord_ui.turn_pings import TurnPings
from bot.discord_ui.views.pre_actions import back_view
from bot.discord_ui.views.run_it_twice import RunItTwiceQuestion
from bot.discord_ui.views.show_cards import ShowOfferButtons
from bot.discord_ui.views.tournament_buttons import offer_view
from bot.i18n import ENGLISH, Language, Message, language_for, languages, tr
from bot.render.pictures import Pictures
from bot.tables.hand_runner import SAT_OUT_NOTICE
from bot.tables.notifier import HandOutcome, ShowOffer, TableState, TurnPrompt
from bot.tables.settings import TableSettings
from bot.tables.tournament_status import (
    PlayerMoved,
    TournamentPhase,
    TournamentResults,
    TournamentStatus,
)
from engine.cards import Card

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007
CARDS_IMAGE_NAME = "cards.png"
DMS_CLOSED_NOTICE = tr(
    "I could not send you your cards by direct message (your DMs are closed). Use the "
    "**My cards** button under the table, or allow direct messages from server members."
)
DM_FAILED_NOTICE = tr(
    "I could not send you your cards by direct message just now. Use the **My cards** "
    "button under the table to see them."
)
RESTART_TITLE = tr("This table closed when the bot restarted")
RESTART_NOTICE = tr(
    "Any hand in progress was cancelled and every stack went back to its owner's balance, as "
    "it was when that hand started. Use /join to sit down again."
)
TOURNAMENT_RESTART_NOTICE = tr(
    "The tournament was cancelled: every buy-in went back to its owner's balance.")
PAUSED_TITLE = tr("Table paused while the bot restarts")
PAUSED_NOTICE = tr(
    "Everyone keeps their seat and chips. Any hand that could not finish was cancelled and "
    "its chips went back to the stacks it started with. The table comes back here and deals "
    "on by itself as soon as the bot is up again.")
FLUSH_TIMEOUT_SECONDS = 5.0
DM_DEADLINE_SECONDS = 5.0
"""How long one DM may take before the person is sent to My cards instead. A DM normally
answers well within a second; on server errors discord.py retries for about 25 s, which is
what used to hold up a whole table."""
MAX_NOTICES_PER_PERSON = 5
"""Notes kept for someone who has not interacted since (the newest ones)."""
MAX_PEOPLE_REMEMBERED = 10_000
"""People with waiting notes, told once about closed DMs, whose DM channel or language is
known, that are remembered (the most recent); someone forgotten is at worst told a second time,
has their DM channel looked up again, or gets a DM in the channel's language. Bounds the
notifier's memory."""

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
"""A tournament table's thread archives itself after a day without messages (it is archived
as soon as its table closes anyway)."""
BOARD_SEARCH_LIMIT = 100
"""Newest messages of its channel searched for a tournament's board after a crash (the board
is not remembered across restarts; one beyond them keeps its last state)."""
MAX_TOURNAMENT_BOARDS = 1_000
"""Status messages of tournaments kept (a finished or cancelled one is forgotten once shown;
beyond this many, the oldest boards are dropped and a new message would be posted)."""

TakeTableMessages = Callable[[Collection[int]], Awaitable[dict[int, int]]]
"""The remembered table messages of some channels, forgotten as handed out (the ledger's
``take_table_messages``)."""
GuildSettings = Callable[[int], Awaitable[TableSettings]]
V = TypeVar("V")


@dataclass(slots=True)
class _Board:
    """A tournament's status message: where it is, and the edits waiting for it."""

    channel_id: int
    coalescer: EditCoalescer[TournamentStatus]
    message_id: int | None = None
    find: bool = False
    """Look for the message an earlier process showed it in before posting one (resumed)."""


class DmChannelBook(Protocol):
    """Where people's DM channels are kept across restarts. Neither method raises: a book
    that cannot be read answers ``None`` and the channel is opened again."""

    async def dm_channel(self, user_id: int) -> int | None:
        """The channel kept for the person, if any."""

    async def save_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Keep the person's channel (replacing an older one)."""


class DiscordNotifier:
    """Shows tables in their channels and talks privately to players.

    ``edit_interval`` is the minimum time between two edits of one table message (Discord
    allows about five edits per five seconds per channel). ``pictures`` draws the table and
    card images; without it the messages are text only.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        edit_interval: float = 1.2,
        pictures: Pictures | None = None,
        dm_deadline: float = DM_DEADLINE_SECONDS,
        remember_message: Callable[[int, int], Awaitable[None]] | None = None,
        dm_channel_book: DmChannelBook | None = None,
    ) -> None:
        self._client = client
        self._dm_channel_book = dm_channel_book
        self._remember_message = remember_message
        self._dm_deadline = dm_deadline
        self._edit_interval = edit_interval
        self._pictures = pictures
        self._live: dict[int, LiveTableMessage] = {}
        self._states: dict[int, TableState] = {}
        self._turns: dict[int, tuple[int, TurnPrompt]] = {}
        self._outcomes: dict[int, HandOutcome] = {}
        self._run_twice_questions: dict[int, list[discord.Message]] = {}
        self._show_offers: dict[int, list[discord.Message]] = {}
        self._notices: OrderedDict[int, list[Message]] = OrderedDict()
        self._languages: OrderedDict[int, Language] = OrderedDict()
        self._noticed_once: OrderedDict[int, None] = OrderedDict()
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._deliveries: set[asyncio.Task[None]] = set()
        self._boards: OrderedDict[int, _Board] = OrderedDict()
        self._threads: set[int] = set()
        self._tournament_tables: set[int] = set()
        self._paused: set[int] = set()
        """Tables kept for the next start: at shutdown their messages say they are paused."""
        self._standings_posts: set[asyncio.Task[None]] = set()
        self._guild_settings: GuildSettings | None = None
        self._event_phases: dict[int, TournamentPhase] = {}
        """The phase each tournament's Discord event was last moved for."""
        self.turn_pings = TurnPings(client, send_dm=self._send_ping,
                                    dms_closed=self._noticed_once.__contains__,
                                    language=self.person_language)
        """The turn pings of people who asked for them (``/notify``)."""

    def use_guild_settings(self, guild_settings: GuildSettings) -> None:
        """Where the server's table settings come from (``TableManager.guild_settings``):
        their language setting is what tournament messages are written in."""
        self._guild_settings = guild_settings

    # -- the Notifier protocol -----------------------------------------------------------------

    async def table_changed(self, state: TableState) -> None:
        channel_id = state.channel_id
        self._states[channel_id] = state
        turn = self._turns.get(channel_id)
        if turn is not None and not _prompt_fits(turn[1], state):
            del self._turns[channel_id]
            self.turn_pings.turn_closed(channel_id)
        self._show(channel_id)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        self._states[state.channel_id] = state
        self._turns[state.channel_id] = (user_id, prompt)
        self.turn_pings.turn_opened(state.channel_id, user_id, prompt)
        self._show(state.channel_id)

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        channel_id = state.channel_id
        self._states[channel_id] = state
        self._outcomes[channel_id] = outcome
        self._turns.pop(channel_id, None)
        self.turn_pings.turn_closed(channel_id)
        self._show(channel_id, keep=True)
        for question in self._run_twice_questions.pop(channel_id, []):
            try:
                await question.delete()
            except discord.HTTPException:
                log.info("could not delete a run-it-twice question in %s", channel_id)
        for offer in self._show_offers.pop(channel_id, []):  # closed: its buttons go
            try:
                await offer.edit(view=None)
            except discord.HTTPException:
                log.info("could not close an offer to show in %s", channel_id)

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        self._deliver(self._send_hole_cards(state, user_id, cards))

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        """DM a note to one person; the note that they were sat out carries **I'm back**."""
        language = self.person_language(user_id, channel_id)
        view = back_view(channel_id, language) if message == SAT_OUT_NOTICE \
            else offer_view(message, language)
        self._deliver(self._direct_message(
            user_id, f"{channel_link(channel_id)}: {language.render(message)}", notice=message,
            view=view))

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        # The table shows the all-in first: the click that made it is answered with it.
        self._states[state.channel_id] = state
        self._show(state.channel_id)
        mentions = " ".join(f"<@{user_id}>" for user_id in user_ids)
        language = self.table_language(state)
        channel = self._client.get_partial_messageable(state.channel_id)
        question = await channel.send(
            language.render(tr(
                "{players}: you are all-in. Run the rest of the board twice? Everyone must "
                "agree; the question closes {countdown}.", players=mentions,
                countdown=countdown(deadline))),
            view=RunItTwiceQuestion(state.hand_id or 0, language),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        self._run_twice_questions.setdefault(state.channel_id, []).append(question)

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        """DM the person their offer to show (the table shows the hand's end meanwhile); the
        offer's buttons go once the hand is settled."""
        self._states[state.channel_id] = state
        self._show(state.channel_id)
        self._deliver(self._send_show_offer(state.channel_id, user_id, offer))

    async def _send_show_offer(self, channel_id: int, user_id: int, offer: ShowOffer) -> None:
        language = self.person_language(user_id, channel_id)
        text = tr("Your hand in hand #{hand} wins nothing: show it or muck it? The offer "
                  "closes {countdown}.", hand=str(offer.hand_id),
                  countdown=countdown(offer.deadline)) if offer.at_showdown else tr(
            "You won hand #{hand} without a showdown: show your cards? The offer closes "
            "{countdown}.", hand=str(offer.hand_id), countdown=countdown(offer.deadline))
        buttons = ShowOfferButtons(channel_id, offer.hand_id, offer.cards,
                                   at_showdown=offer.at_showdown, language=language)
        try:
            message = await asyncio.wait_for(self._send_dm(
                user_id, f"{channel_link(channel_id)}: {language.render(text)}", None, buttons),
                self._dm_deadline)
        except (TimeoutError, discord.HTTPException) as error:
            log.info("offer to show to user %s not sent: %r", user_id, error)
            return
        self._show_offers.setdefault(channel_id, []).append(message)

    # -- tournaments ---------------------------------------------------------------------------

    async def tournament_changed(self, status: TournamentStatus) -> None:
        """Show the tournament's latest status in its channel (one message, edited)."""
        if status.phase is TournamentPhase.RUNNING:
            self._tournament_tables.update(status.table_channel_ids)
        board = self._boards.get(status.tournament_id)
        if board is None:
            board = _Board(status.channel_id, EditCoalescer(self._publish_board,
                                                            self._edit_interval),
                           find=status.resumed)
            _remember(self._boards, status.tournament_id, board, MAX_TOURNAMENT_BOARDS)
            if status.resumed:  # its threads, opened by an earlier process, archive at the end
                self._threads.update(channel for channel in status.table_channel_ids
                                     if channel != status.channel_id)
        board.coalescer.submit(status, keep=status.phase in (TournamentPhase.FINISHED,
                                                             TournamentPhase.CANCELLED))
        if status.remind or (status.event_id is not None
                             and self._event_phases.get(status.tournament_id) != status.phase):
            self._event_phases[status.tournament_id] = status.phase
            self._deliver(self._announce(status))

    async def _announce(self, status: TournamentStatus) -> None:
        """A scheduled tournament's reminder (once), or its event following its phase."""
        if not status.remind:
            await follow_event(self._client, status)
            return
        role = None
        if self._guild_settings is not None:
            with contextlib.suppress(Exception):  # the reminder goes out without the role
                role = (await self._guild_settings(status.guild_id)).tournament_role
        await remind(self._client, status, role, await self.server_language(status.guild_id))

    async def tournament_finished(self, results: TournamentResults) -> None:
        """Post the final standings, with the prizes paid, where the tournament was created."""
        post = asyncio.get_running_loop().create_task(self._post_results(results))
        self._standings_posts.add(post)
        post.add_done_callback(self._standings_posts.discard)

    async def player_moved(self, move: PlayerMoved) -> None:
        """Nothing to show: the runtime tells the moved person where to play now, and both
        tables' messages show the seats as they are."""

    async def open_tournament_table(self, tournament_id: int, channel_id: int,
                                    number: int) -> int:
        """Open a public thread "Tournament 12 · Table 2" under the creation channel for a
        table of the tournament, and return its id (Discord errors abort the start)."""
        guild = self._guild_of(channel_id)
        language = await self.server_language(guild.id if guild is not None else 0)
        name = language.render(tr("Tournament {number} · Table {table}",
                                  number=str(tournament_id), table=number))[:100]
        data = await self._client.http.start_thread_without_message(
            channel_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value,
            reason=f"tournament {tournament_id}, table {number}")
        thread_id = int(data["id"])
        self._threads.add(thread_id)
        return thread_id

    async def server_language(self, guild_id: int) -> Language:
        """What everyone in a server reads: its table language setting, else its Discord
        language."""
        setting = ""
        if self._guild_settings is not None and guild_id:
            try:
                setting = (await self._guild_settings(guild_id)).language
            except Exception:
                log.info("the settings of server %s are unavailable; using its locale",
                         guild_id)
        return language_for(setting or self._guild_locale(guild_id))

    async def _publish_board(self, status: TournamentStatus) -> None:
        board = self._boards.get(status.tournament_id)
        if board is None:
            return
        language = await self.server_language(status.guild_id)
        embed = status_embed(status, language)
        channel = self._client.get_partial_messageable(board.channel_id)
        try:
            if board.find:
                board.find = False
                board.message_id = await self._find_board(status.tournament_id,
                                                          board.channel_id)
            if board.message_id is not None:
                try:
                    await channel.get_partial_message(board.message_id).edit(embed=embed)
                except discord.NotFound:
                    board.message_id = None
            if board.message_id is None:
                board.message_id = (await channel.send(embed=embed)).id
        except discord.HTTPException as error:
            log.info("could not show tournament %s in channel %s: %r", status.tournament_id,
                     board.channel_id, error)
        if status.phase in (TournamentPhase.FINISHED, TournamentPhase.CANCELLED):
            self._boards.pop(status.tournament_id, None)

    async def _post_results(self, results: TournamentResults) -> None:
        language = await self.server_language(results.guild_id)
        channel = self._client.get_partial_messageable(results.channel_id)
        try:
            await channel.send(embed=results_embed(results, language),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.info("could not post the standings of tournament %s: %r",
                     results.tournament_id, error)

    def _guild_of(self, channel_id: int) -> discord.Guild | None:
        known = self._client.get_channel(channel_id)
        return known.guild if isinstance(known, discord.abc.GuildChannel | discord.Thread) \
            else None

    async def _archive_thread(self, channel_id: int) -> None:
        """Archive a tournament table's thread once its table closed."""
        if channel_id not in self._threads:
            return
        self._threads.discard(channel_id)
        try:
            await self._client.http.edit_channel(channel_id, archived=True)
        except discord.HTTPException as error:
            log.info("could not archive the thread of table %s: %r", channel_id, error)

    # -- for the commands and buttons ---------------------------------------------------------

    def turn(self, channel_id: int) -> tuple[int, TurnPrompt] | None:
        """Who is to act at the channel's table (a person's user id) and their options."""
        return self._turns.get(channel_id)

    def clicked_table(self, interaction: discord.Interaction[discord.Client]
                      ) -> LiveTableMessage | None:
        """The live table message ``interaction`` is a click on (not an older copy), whose
        next edit can answer it."""
        live = self._live.get(interaction.channel_id or 0)
        return live if live is not None and live.shows(interaction) else None

    def take_notices(self, user_id: int, language: Language | None = None) -> list[str]:
        """The private notes waiting for a person, in ``language`` (by default the person's
        remembered language); they are handed out once."""
        reader = language or self._languages.get(user_id, ENGLISH)
        return [reader.render(notice) for notice in self._notices.pop(user_id, [])]

    def remember_language(self, user_id: int, language: Language) -> None:
        """Note the language of a person's Discord client (from their latest interaction):
        their DMs are written in it."""
        if self._languages.get(user_id) is not language:
            _remember(self._languages, user_id, language)
        else:
            self._languages.move_to_end(user_id)

    def person_language(self, user_id: int, channel_id: int) -> Language:
        """The language to write to a person in private: their own, as remembered, else that
        of the channel they play in."""
        known = self._languages.get(user_id)
        return known if known is not None else self.channel_language(channel_id)

    def table_language(self, state: TableState) -> Language:
        """The language of a table's channel: the table's language setting, else the
        server's Discord language."""
        if state.language:
            return language_for(state.language)
        return language_for(self._guild_locale(state.guild_id))

    def channel_language(self, channel_id: int) -> Language:
        """The language of a channel's table (English when nothing is known of it)."""
        state = self._states.get(channel_id)
        if state is not None:
            return self.table_language(state)
        live = self._live.get(channel_id)
        return live.language if live is not None else ENGLISH

    def has_notices(self, user_id: int) -> bool:
        """True when private notes wait for the person's next interaction."""
        return user_id in self._notices

    def repost_table(self, state: TableState) -> None:
        """Post the table message again at the bottom of its channel (the old one goes)."""
        self._states[state.channel_id] = state
        self._live_table(state.channel_id).repost(self._snapshot(state))

    async def table_closed(self, channel_id: int) -> None:
        """Show a closed table's last state (where the channel still exists), then forget the
        channel: nothing of a closed table stays in memory."""
        live = self._live.pop(channel_id, None)
        for store in (self._states, self._turns, self._outcomes, self._run_twice_questions,
                      self._show_offers):
            store.pop(channel_id, None)
        self.turn_pings.turn_closed(channel_id)
        self._tournament_tables.discard(channel_id)
        if live is not None:
            try:
                await asyncio.wait_for(live.flush(), timeout=FLUSH_TIMEOUT_SECONDS)
            except TimeoutError:
                log.info("the last state of table %s was not shown in time", channel_id)
            finally:
                live.cancel()
        await self._archive_thread(channel_id)

    async def table_paused(self, channel_id: int) -> None:
        """At shutdown the table's message says it is paused (see ``close``)."""
        self._paused.add(channel_id)

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        """Show the table in the message that showed it before the restart, edited in place;
        if that message is gone the first edit finds out and posts a new one."""
        if message_id is not None:
            channel = self._client.get_partial_messageable(channel_id)
            self._live_table(channel_id).message = channel.get_partial_message(message_id)

    def channels(self) -> frozenset[int]:
        """The channels whose table the notifier keeps anything of (open tables only)."""
        return frozenset(self._live) | frozenset(self._states) | frozenset(self._turns)

    def closed_by_restart(self, channel_id: int, message_id: int | None) -> None:
        """Say in the channel, soon, that its table closed when the bot restarted: the table
        message (if known) loses its buttons and tells what happened to the chips, in the
        language of the channel's server (known once the bot is connected)."""
        self._deliver(self._announce_restart(channel_id, message_id,
                                             words=(RESTART_TITLE, RESTART_NOTICE)))

    def tournaments_closed_by_restart(self, tournaments: Mapping[int, int],
                                      take_messages: TakeTableMessages) -> None:
        """The ``tournaments`` (id -> the channel it was created in) were cut short by a crash
        (the ledger's recovery refunded them). Once connected, their boards say so, and the
        table messages in those channels and in the bot's active threads under them that
        still offer a button (a table's closed state offers none) say so and lose their
        buttons; the threads are archived. The threads are known only then; a tournament's
        table played in its channel or one of them."""
        for tournament_id, channel_id in tournaments.items():
            self._deliver(self._close_board_by_restart(tournament_id, channel_id))
        self._deliver(self._announce_tournament_restart(set(tournaments.values()),
                                                        take_messages))

    async def cards_image(self, cards: Sequence[Card]) -> discord.File | None:
        """A small picture of ``cards`` as an attachment, or ``None`` without a renderer."""
        png = await self._cards_png(cards)
        return None if png is None else _attachment(png)

    async def _cards_png(self, cards: Sequence[Card]) -> bytes | None:
        if self._pictures is None:
            return None
        return await self._pictures.cards(cards)

    async def flush(self) -> None:
        """Wait until every table message and tournament board shows its latest state, and
        the messages sent in the background are out (bounded by a timeout)."""
        waits: list[Awaitable[None]] = [live.flush() for live in self._live.values()]
        waits += [board.coalescer.flush() for board in self._boards.values()]
        waits += [asyncio.shield(post) for post in self._standings_posts]
        if waits:
            await asyncio.wait_for(asyncio.gather(*waits), timeout=FLUSH_TIMEOUT_SECONDS)

    async def close(self) -> None:
        """At shutdown, after the tables closed: show their last states, then turn each table
        message into the notice that the table closed (no buttons left to click), then stop
        editing and sending DMs."""
        try:
            await self.flush()
        except TimeoutError:
            log.warning("table messages were still being edited at shutdown")
        for live in self._live.values():
            live.cancel()
        for board in self._boards.values():
            board.coalescer.cancel()
        for post in list(self._standings_posts):
            post.cancel()
        self.turn_pings.close()
        notices = [self._announce_restart(channel_id, live.message.id, live.language,
                                          words=self._restart_words(channel_id))
                   for channel_id, live in self._live.items() if live.message is not None]
        try:
            await asyncio.wait_for(asyncio.gather(*notices), timeout=FLUSH_TIMEOUT_SECONDS)
        except TimeoutError:
            log.warning("not every table message could say that its table closed")
        for delivery in list(self._deliveries):
            delivery.cancel()

    # -- internals ----------------------------------------------------------------------------

    def _live_table(self, channel_id: int) -> LiveTableMessage:
        live = self._live.get(channel_id)
        if live is None:
            live = LiveTableMessage(self._client, channel_id, min_interval=self._edit_interval,
                                    pictures=self._pictures,
                                    on_posted=self._remember_message)
            self._live[channel_id] = live
        return live

    def _snapshot(self, state: TableState) -> TableSnapshot:
        turn = self._turns.get(state.channel_id)
        return TableSnapshot(state, turn[1] if turn else None,
                             self._outcomes.get(state.channel_id), self.table_language(state))

    def _guild_locale(self, guild_id: int) -> str:
        """The Discord language of a server (``""`` when it is not known here)."""
        guild = self._client.get_guild(guild_id) if guild_id else None
        return guild.preferred_locale.value if guild is not None else ""

    def _show(self, channel_id: int, *, keep: bool = False) -> None:
        state = self._states[channel_id]
        self._live_table(channel_id).show(self._snapshot(state), keep=keep)

    def _deliver(self, message: Coroutine[None, None, None]) -> None:
        """Send a message in the background: the table (or start-up) goes on at once."""
        delivery = asyncio.get_running_loop().create_task(message)
        self._deliveries.add(delivery)
        delivery.add_done_callback(self._deliveries.discard)

    async def _close_board_by_restart(self, tournament_id: int, channel_id: int) -> None:
        """Find the board and show the cancellation."""
        await self._client.wait_until_ready()
        guild = self._guild_of(channel_id)
        embed = cancelled_by_restart_embed(
            tournament_id, await self.server_language(guild.id if guild is not None else 0))
        message_id = await self._find_board(tournament_id, channel_id)
        if message_id is None:
            return
        try:
            await self._client.get_partial_messageable(channel_id).get_partial_message(
                message_id).edit(embed=embed)
        except discord.HTTPException as error:
            log.info("could not close the board of tournament %s: %r", tournament_id, error)

    async def _find_board(self, tournament_id: int, channel_id: int) -> int | None:
        """The board an earlier process posted, among the channel's newest messages, by its
        title (in any language: the server's may have changed); ``None`` if not found."""
        me = self._client.user
        titles = {language.render(board_title(tournament_id))
                  for language in languages().values()}
        channel = self._client.get_partial_messageable(channel_id)
        try:
            async for message in channel.history(limit=BOARD_SEARCH_LIMIT):
                if me is not None and message.author.id == me.id and any(
                        shown.title in titles for shown in message.embeds):
                    return message.id
        except discord.HTTPException as error:
            log.info("could not look for the board of tournament %s: %r", tournament_id, error)
        return None

    async def _announce_tournament_restart(self, channel_ids: Collection[int],
                                           take_messages: TakeTableMessages) -> None:
        await self._client.wait_until_ready()
        me = self._client.user
        threads = [thread.id for guild in self._client.guilds for thread in guild.threads
                   if thread.parent_id in channel_ids and me is not None
                   and thread.owner_id == me.id]
        self._threads.update(threads)
        try:
            messages = await take_messages([*channel_ids, *threads])
        except Exception:
            log.exception("the table messages of tournaments cut short are unknown")
            messages = {}
        for channel_id, message_id in messages.items():
            channel = self._client.get_partial_messageable(channel_id)
            try:
                message = await channel.fetch_message(message_id)
            except discord.HTTPException:
                continue  # deleted meanwhile: nothing offers a button
            if _offers_a_button(message):
                await self._announce_restart(channel_id, message_id,
                                             words=(RESTART_TITLE, TOURNAMENT_RESTART_NOTICE))
        for thread_id in threads:
            await self._archive_thread(thread_id)

    def _restart_words(self, channel_id: int) -> tuple[Message, Message]:
        """The title and notice a table message shows at shutdown: paused when the table is
        kept for the next start, else what became of its chips."""
        if channel_id in self._paused:
            return PAUSED_TITLE, PAUSED_NOTICE
        if channel_id in self._tournament_tables:
            return RESTART_TITLE, TOURNAMENT_RESTART_NOTICE
        return RESTART_TITLE, RESTART_NOTICE

    async def _announce_restart(self, channel_id: int, message_id: int | None,
                                language: Language | None = None, *,
                                words: tuple[Message, Message]) -> None:
        """Tell the channel what the restart did to its table (``words``: a title and a notice
        saying what became of the chips), in ``language`` (at shutdown, the table's), else in
        the language of its server, once the bot is connected and knows it."""
        if language is None:
            await self._client.wait_until_ready()
            guild = self._guild_of(channel_id)
            language = language_for(guild.preferred_locale.value if guild is not None else None)
        title, notice = words
        embed = discord.Embed(title=language.render(title),
                              description=language.render(notice), colour=TABLE_COLOUR)
        channel = self._client.get_partial_messageable(channel_id)
        try:
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(
                        embed=embed, attachments=[], view=None)
                    return
                except discord.NotFound:
                    pass  # deleted meanwhile: say it in a new message
            await channel.send(embed=embed)
        except discord.HTTPException as error:
            log.info("could not tell channel %s that its table closed: %r", channel_id, error)

    async def _send_hole_cards(
        self, state: TableState, user_id: int, cards: tuple[Card, ...]
    ) -> None:
        image = await self._cards_png(cards)
        language = self._languages.get(user_id) or self.table_language(state)
        await self._direct_message(user_id, hole_cards_text(state, cards, language),
                                   notice=DM_FAILED_NOTICE,
                                   closed_notice=DMS_CLOSED_NOTICE, image=image)

    async def _direct_message(
        self, user_id: int, text: str, *, notice: Message, closed_notice: Message | None = None,
        image: bytes | None = None, view: discord.ui.View | None = None,
    ) -> None:
        """DM ``text`` (with the PNG ``image`` and the buttons of ``view``) within the
        deadline; if that fails, leave ``notice`` for the person's next interaction instead.
        When their DMs are closed, ``closed_notice`` (if given) is left in its place, only the
        first time."""
        try:
            await asyncio.wait_for(self._send_dm(user_id, text, image, view),
                                   self._dm_deadline)
            return
        except discord.Forbidden as error:
            log.info("DM to user %s refused (error %s)", user_id, error.code)
            if error.code == CANNOT_SEND_TO_USER and closed_notice is not None:
                if user_id in self._noticed_once:
                    return
                _remember(self._noticed_once, user_id, None)
                notice = closed_notice
        except (TimeoutError, discord.HTTPException) as error:
            log.info("DM to user %s failed: %r", user_id, error)
        waiting = self._notices.pop(user_id, [])
        _remember(self._notices, user_id, [*waiting, notice][-MAX_NOTICES_PER_PERSON:])

    async def _send_ping(self, user_id: int, text: str) -> None:
        """A turn ping by DM, within the DMs' deadline (``TimeoutError`` past it)."""
        await asyncio.wait_for(self._send_dm(user_id, text, None, None), self._dm_deadline)

    async def _send_dm(self, user_id: int, text: str, image: bytes | None,
                       view: discord.ui.View | None) -> discord.Message:
        """Send a DM; the DM channel is opened once per person (discord.py remembers only
        128 of them, so a busy bot would otherwise open one per hand and person, a call
        against the global rate limit) and kept in the book. A kept channel Discord no longer
        knows is opened again."""
        buttons = discord.utils.MISSING if view is None else view
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None and self._dm_channel_book is not None:
            channel_id = await self._dm_channel_book.dm_channel(user_id)
        if channel_id is None:
            channel_id = await self._open_dm_channel(user_id)
        _remember(self._dm_channels, user_id, channel_id)
        try:
            return await self._dm_channel(channel_id).send(text, files=_attachments(image),
                                                           view=buttons)
        except discord.NotFound:
            channel_id = await self._open_dm_channel(user_id)
            _remember(self._dm_channels, user_id, channel_id)
            return await self._dm_channel(channel_id).send(text, files=_attachments(image),
                                                           view=buttons)

    async def _open_dm_channel(self, user_id: int) -> int:
        channel_id = (await self._client.create_dm(discord.Object(user_id))).id
        if self._dm_channel_book is not None:
            await self._dm_channel_book.save_dm_channel(user_id, channel_id)
        return channel_id

    def _dm_channel(self, channel_id: int) -> discord.PartialMessageable:
        return self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)


def _attachment(png: bytes) -> discord.File:
    """The cards picture as an attachment; one per message sent (discord.py reads it)."""
    return discord.File(io.BytesIO(png), filename=CARDS_IMAGE_NAME)


def _attachments(png: bytes | None) -> list[discord.File]:
    return [] if png is None else [_attachment(png)]


def _remember(store: OrderedDict[int, V], user_id: int, value: V,
              bound: int | None = None) -> None:
    """Store ``value`` as the newest entry, forgetting the oldest beyond the bound (by
    default ``MAX_PEOPLE_REMEMBERED``)."""
    store[user_id] = value
    store.move_to_end(user_id)
    while len(store) > (MAX_PEOPLE_REMEMBERED if bound is None else bound):
        store.popitem(last=False)


def _offers_a_button(message: discord.Message) -> bool:
    """True when ``message`` has a button that can be pressed (a table's closed state has
    none)."""
    return any(isinstance(item, discord.Button) and not item.disabled
               for row in message.components if isinstance(row, discord.ActionRow)
               for item in row.children)


def _prompt_fits(prompt: TurnPrompt, state: TableState) -> bool:
    """True when ``prompt`` is for the turn ``state`` shows (same seat, same clock)."""
    if not state.is_hand_running or prompt.seat != state.to_act_seat:
        return False
    return state.to_act_deadline is None or abs(prompt.deadline - state.to_act_deadline) < 0.5

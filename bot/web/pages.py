"""The pages over the ledger: home, a server, a leaderboard, a player, a hand, a tournament,
and their charts (PNG, drawn by ``bot.render`` off the event loop).

Each route of a server's things calls ``require_guild`` before reading anything else of the
server, and a hand's cards reach the page only through ``visible_to`` (the history) and
``replay_frames`` (the replay) for the viewer's own seat: the replay's record, which holds
every hole card, never leaves the server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from aiohttp import web

from bot.i18n import Language, Text, tr
from bot.ledger import (
    LEADERBOARD_MIN_HANDS,
    RANKED_HABITS,
    Habits,
    HandRecord,
    LeaderboardOrder,
    Ledger,
    PlayerStats,
    TournamentInfo,
    server_habits,
)
from bot.render.leaderboard_chart import (
    LEADERBOARD_VALUES,
    leaderboard_value,
    render_leaderboard_chart,
)
from bot.render.replay_frames import Frame, replay_frames
from bot.render.stats_chart import (
    HABIT_LABELS,
    habit_line,
    record_figures,
    render_stats_chart,
    signed,
    tournament_line,
)
from bot.tables.errors import InvalidSettings
from bot.tables.tournament_settings import TournamentSettings
from bot.web.keys import LEDGER, LIVE
from bot.web.language import page_language
from bot.web.live_port import OpenTable
from bot.web.pages_common import render_page
from bot.web.refusals import NO_SUCH_PAGE, PageRefused, check_id
from bot.web.viewer import require_guild
from engine.cards import Card, pretty_card, suit_of
from engine.hand_record import RecordedHand
from engine.history import visible_to

routes = web.RouteTableDef()
BOARD_ROWS = 10
"""Rows of each leaderboard on the server's page, and per page of a leaderboard."""
MAX_PAGE = 10_000
"""The last leaderboard page, as ``/leaderboard``'s."""
RECENT_HANDS = 20
RECENT_TOURNAMENTS = 10
"""Finished or cancelled tournaments listed on the server's page, newest first."""
RED_SUITS = frozenset({1, 2})
"""``engine.cards`` suits drawn red (diamonds and hearts)."""
PNG = "image/png"


@routes.get("/")
async def home(request: web.Request) -> web.Response:
    return await render_page(request, "home.html", {})


@routes.get(r"/servers/{guild_id}")
async def server(request: web.Request) -> web.Response:
    guild_id = check_id(request.match_info["guild_id"])
    await require_guild(request, guild_id)
    ledger, language = request.app[LEDGER], page_language(request)
    boards = []
    for order, title in LEADERBOARD_VALUES.items():
        rows = await ledger.leaderboard(guild_id, by=order, page=1, page_size=BOARD_ROWS)
        boards.append({"order": order, "title": _board_title(title),
                       "rows": [(row, leaderboard_value(language, order, row.value))
                                for row in rows]})
    return await render_page(request, "server.html", {
        "guild_id": guild_id, "boards": boards, "tables": await _open_tables(request, guild_id),
        "tournaments": [(info, _tournament_line(info)) for info in
                        await ledger.open_tournaments(guild_id)],
        "recent": [(info, _tournament_line(info)) for info in
                   await ledger.recent_tournaments(guild_id, RECENT_TOURNAMENTS)]})


@routes.get(r"/servers/{guild_id}/leaderboards/{order}")
async def leaderboard(request: web.Request) -> web.Response:
    guild_id, order, page = await _board_request(request)
    language = page_language(request)
    rows = await request.app[LEDGER].leaderboard(guild_id, by=order, page=page,
                                                 page_size=BOARD_ROWS)
    footer = (tr("Page {page}", page=page) if order not in RANKED_HABITS else
              tr("Page {page} · players with {count} hands or more", page=page,
                 count=LEADERBOARD_MIN_HANDS))
    return await render_page(request, "leaderboard.html", {
        "guild_id": guild_id, "order": order, "page": page, "footer": footer,
        "title": _board_title(LEADERBOARD_VALUES[order]),
        "rows": [(row, leaderboard_value(language, order, row.value)) for row in rows],
        "previous": page - 1 if page > 1 else None,
        "next": page + 1 if len(rows) == BOARD_ROWS and page < MAX_PAGE else None})


@routes.get(r"/servers/{guild_id}/leaderboards/{order}/chart.png")
async def leaderboard_chart(request: web.Request) -> web.Response:
    guild_id, order, page = await _board_request(request)
    language = page_language(request)
    rows = await request.app[LEDGER].leaderboard(guild_id, by=order, page=page,
                                                 page_size=BOARD_ROWS)
    image = await asyncio.to_thread(
        render_leaderboard_chart, rows, _board_title(LEADERBOARD_VALUES[order]),
        language=language, value_text=lambda value: leaderboard_value(language, order, value))
    return _png(image)


@routes.get(r"/servers/{guild_id}/players/{user_id}")
async def player(request: web.Request) -> web.Response:
    guild_id, user_id, record, everyone = await _player_request(request)
    ledger, language = request.app[LEDGER], page_language(request)
    mine, server_figures = everyone.get(user_id), server_habits(everyone.values())
    figures = record_figures(record, language)
    habits = [(HABIT_LABELS[figure], habit_line(figure, mine.figure(figure) if mine else None,
                                                 server_figures[figure]))
              for figure in HABIT_LABELS]
    tournaments = await ledger.tournament_stats(guild_id, user_id)
    hands = await ledger.recent_hands(guild_id, user_id, limit=RECENT_HANDS)
    return await render_page(request, "player.html", {
        "guild_id": guild_id, "record": record, "figures": figures, "habits": habits,
        "title": tr("{name}'s record", name=record.name),
        "tournaments": tournament_line(tournaments, language),
        "hands": [(hand, signed(language, hand.net)) for hand in hands]})


@routes.get(r"/servers/{guild_id}/players/{user_id}/chart.png")
async def player_chart(request: web.Request) -> web.Response:
    guild_id, user_id, record, everyone = await _player_request(request)
    ledger, language = request.app[LEDGER], page_language(request)
    points = await ledger.results_over_time(guild_id, user_id)
    averages = await ledger.server_averages(guild_id)
    image = await asyncio.to_thread(
        render_stats_chart, points, record, averages, habits=everyone.get(user_id),
        server_habits=server_habits(everyone.values()), language=language)
    return _png(image)


@routes.get(r"/hands/{hand_id}")
async def hand(request: web.Request) -> web.Response:
    record = await _hand(request.app[LEDGER], check_id(request.match_info["hand_id"]))
    viewer = await require_guild(request, record.guild_id)
    seat = record.seat_of(viewer.user_id) if viewer is not None else None
    frames = None
    if record.replay is not None:
        names = [participant.name for participant in record.participants]
        frames = await asyncio.to_thread(replay_frames, RecordedHand.from_json(record.replay),
                                         names, seat, title=record.hand_id)
    history = (visible_to(record.history_text, len(record.participants), seat)
               if record.history_text else None)
    heading = tr("Hand #{hand}", hand=str(record.hand_id)) if record.tournament_id is None \
        else tr("Hand #{hand} (tournament #{tournament}, in its play chips)",
                hand=str(record.hand_id), tournament=str(record.tournament_id))
    return await render_page(request, "hand.html", {
        "record": record, "heading": heading, "history": history,
        "frames": None if frames is None else [
            _frame_view(frame, page_language(request)) for frame in frames],
        "results": [(participant, signed(page_language(request), participant.net))
                    for participant in record.participants]})


@routes.get(r"/tournaments/{tournament_id}")
async def tournament(request: web.Request) -> web.Response:
    ledger = request.app[LEDGER]
    info = await ledger.tournament_info(check_id(request.match_info["tournament_id"]))
    if info is None:
        raise PageRefused(404, NO_SUCH_PAGE)
    await require_guild(request, info.guild_id)
    names = {}
    for entrant in info.entrants:
        if isinstance(entrant, int):
            found = await ledger.stats(info.guild_id, entrant)
            names[entrant] = found.name if found is not None else str(entrant)
    try:
        settings: TournamentSettings | None = TournamentSettings.from_mapping(info.settings)
    except (InvalidSettings, TypeError, ValueError):
        settings = None  # written by another version: the page goes without its structure
    tables = [table for table in await _open_tables(request, info.guild_id)
              if table.tournament_id == info.id]
    return await render_page(request, "tournament.html", {
        "info": info, "line": _tournament_line(info), "settings": settings,
        "levels": settings.schedule().levels if settings is not None else (),
        "entrants": [names.get(entrant, str(entrant)) if isinstance(entrant, int)
                     else entrant for entrant in info.entrants],
        "places": await ledger.tournament_results(info.id), "tables": tables})


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as the page draws it: its text, and whether it is red."""

    text: str
    red: bool


def _cards(cards: Sequence[Card]) -> list[CardView]:
    return [CardView(pretty_card(card), suit_of(card) in RED_SUITS) for card in cards]


def _frame_view(frame: Frame, language: Language) -> dict[str, object]:
    """One replay frame as the page shows it: only the cards ``replay_frames`` left face up
    for this viewer; a face-down hand is two backs, never its cards."""
    state = frame.state
    return {
        "line": language.render(state.last_action) if state.last_action else "",
        "boards": [_cards(board) for board in state.boards if board],
        "pot": state.pot_total,
        "seats": [{"name": seat.name, "stack": seat.stack, "bet": seat.bet,
                   "folded": seat.folded, "button": seat.is_button,
                   "active": state.to_act_seat == seat.seat,
                   "cards": _cards(seat.shown_cards),
                   "down": seat.seat in frame.face_down} for seat in state.seats]}


async def _hand(ledger: Ledger, hand_id: int) -> HandRecord:
    record = await ledger.hand_history(hand_id)
    if record is None:
        raise PageRefused(404, NO_SUCH_PAGE)
    return record


async def _open_tables(request: web.Request, guild_id: int) -> Sequence[OpenTable]:
    live = request.app[LIVE]
    return () if live is None else await live.open_tables(guild_id)


async def _board_request(request: web.Request) -> tuple[int, LeaderboardOrder, int]:
    """The server, order and page of a leaderboard address; 404 for an unknown order or a
    page outside 1..``MAX_PAGE``."""
    guild_id = check_id(request.match_info["guild_id"])
    order = next((key for key in LEADERBOARD_VALUES if key == request.match_info["order"]), None)
    page_text = request.query.get("page", "1")
    if order is None or not (page_text.isdecimal() and page_text.isascii()
                             and len(page_text) <= 5 and 1 <= int(page_text) <= MAX_PAGE):
        raise PageRefused(404, NO_SUCH_PAGE)
    await require_guild(request, guild_id)
    return guild_id, order, int(page_text)


async def _player_request(
    request: web.Request,
) -> tuple[int, int, PlayerStats, Mapping[int, Habits]]:
    """The server and person a player's page is about, their record and the server's habits
    (both the page and its chart compare the person with everyone); 404 for nobody."""
    guild_id = check_id(request.match_info["guild_id"])
    user_id = check_id(request.match_info["user_id"])
    await require_guild(request, guild_id)
    ledger = request.app[LEDGER]
    record = await ledger.stats(guild_id, user_id)
    if record is None:
        raise PageRefused(404, NO_SUCH_PAGE)
    return guild_id, user_id, record, await ledger.habits(guild_id)


def _board_title(values: Text) -> Text:
    return tr("Leaderboard: {values} in this server", values=values)


def _tournament_line(info: TournamentInfo) -> Text:
    return tr("Tournament #{tournament}: buy-in {buy_in}, {count} entrants, pool {pool}",
              tournament=str(info.id), buy_in=info.buy_in, count=len(info.entrants),
              pool=info.pool)


def _png(image: bytes) -> web.Response:
    return web.Response(body=image, headers={"Content-Type": PNG,
                                             "Cache-Control": "private, max-age=60"})

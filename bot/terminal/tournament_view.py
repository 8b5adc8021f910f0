"""What the terminal writes about a tournament: the line under the table's header (level,
blinds and ante, the next level, players left, average stack), the news between hands (the
start, level changes, busts) and the final standings.

>>> place_text((3, 3)), place_text((3, 4))
('3', '3–4')
"""

from __future__ import annotations

from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_n
from bot.tables.notifier import TableState
from bot.tables.tournament_status import (
    EntrantStatus,
    TournamentPhase,
    TournamentResults,
    TournamentStatus,
)
from bot.terminal.language import pad
from bot.terminal.render import NAME_WIDTH, YOU, Style
from engine.blinds import LevelUnit


def place_text(place: tuple[int, int]) -> str:
    """A place, or the places a tie shares: ``3``, ``3–4``."""
    best, worst = place
    return str(best) if best == worst else f"{best}–{worst}"


def blinds_text(small_blind: int, big_blind: int, ante: int,
                language: Language = ENGLISH) -> str:
    """``15/30`` or ``15/30 ante 5``, digits grouped the reader's way."""
    text = f"{language.number(small_blind)}/{language.number(big_blind)}"
    if ante:
        return language.render(tr("{blinds} ante {ante}", blinds=text, ante=ante))
    return text


def hands_to_next_level(status: TournamentStatus, state: TableState | None) -> int | None:
    """Hands left at this level counting the one being played (levels by hands), or
    ``None`` at the last level or for levels by minutes.

    Between hands the status counts the hands dealt; during hand ``n`` (``state``, the
    table's ``hands_dealt``), the level is the one for ``n - 1`` hands played, so it lasts
    until hand ``next - 1``."""
    if status.unit is not LevelUnit.HANDS:
        return None
    upcoming = status.settings.schedule().next_level_after(status.level - 1)
    if upcoming is None:
        return None
    dealt = state.hands_dealt if state is not None and state.is_hand_running else (
        status.hands_played + 1)
    return max(1, int(upcoming) - dealt + 1)


def tournament_line(status: TournamentStatus, state: TableState | None, style: Style) -> str:
    """``Level 2 | blinds 15/30 | next level in 4 hands | 5 players left | average stack
    1,800`` (separated by ``·`` with colour)."""
    say = style.say
    language = style.language
    hands = hands_to_next_level(status, state)
    parts: list[Message] = [
        tr("Level {level}", level=status.level),
        tr("blinds {blinds}", blinds=blinds_text(status.small_blind, status.big_blind,
                                                 status.ante, language)),
        (tr("last hand of this level") if hands == 1
         else tr_n("next level in {count} hand", "next level in {count} hands", hands)
         if hands is not None else tr("last level") if status.unit is LevelUnit.HANDS
         else ""),
        tr_n("{count} player left", "{count} players left", status.players_left),
        tr("average stack {chips}", chips=status.average_stack),
    ]
    separator = " · " if style.colour else " | "
    return style.faint(separator.join(say(part) for part in parts if part))


class TournamentNews:
    """Turns successive statuses of one tournament into announcements: its start, each new
    level, each player out (the local player hears their own place from the runtime), a
    cancellation."""

    def __init__(self, user_id: int) -> None:
        self._user_id = user_id
        self._phase: TournamentPhase | None = None
        self._level = 1
        self._placed: set[object] = set()

    def lines(self, status: TournamentStatus) -> list[Text]:
        """What changed since the last status."""
        news: list[Text] = []
        phase, previous = status.phase, self._phase
        self._phase = phase
        if phase is TournamentPhase.RUNNING and previous is not TournamentPhase.RUNNING:
            news.append(tr(
                "The tournament starts: {players} players with {stack} chips each; prize pool "
                "{pool}, paid to the top {places}: {prizes}.",
                players=status.entrant_count, stack=status.settings.starting_stack,
                pool=status.pool, places=len(status.prizes), prizes=list(status.prizes)))
        if phase is TournamentPhase.RUNNING and status.level > self._level:
            news.append(tr("Level {level}: blinds {blinds}.", level=status.level,
                           blinds=blinds_text(status.small_blind, status.big_blind,
                                              status.ante)))
        self._level = max(self._level, status.level)
        for entrant in status.entrants:
            if entrant.place is None or entrant.player in self._placed:
                continue
            self._placed.add(entrant.player)
            if entrant.user_id != self._user_id and phase is TournamentPhase.RUNNING:
                news.append(_bust(entrant, status.entrant_count))
        if phase is TournamentPhase.CANCELLED and previous is not TournamentPhase.CANCELLED:
            # Nobody registered (the player's buy-in was refused): no buy-in to refund.
            news.append(tr("The tournament is cancelled; every buy-in is refunded.")
                        if status.entrants else tr("The tournament is cancelled."))
        return news


def _bust(entrant: EntrantStatus, entrants: int) -> Text:
    assert entrant.place is not None
    return tr("{name} is out in place {place} of {entrants}.", name=entrant.name,
              place=place_text(entrant.place), entrants=entrants)


def render_standings(results: TournamentResults, style: Style, you: int) -> str:
    """The final standings: place, name (``You`` for the local player) and prize."""
    say = style.say
    lines = [style.rule(say(tr("Tournament standings (prize pool {pool})", pool=results.pool)))]
    for entrant in results.places:
        place = place_text(entrant.place) if entrant.place is not None else "-"
        name = say(YOU) if entrant.user_id == you else entrant.name
        prize = say(tr("wins {chips}", chips=entrant.prize)) if entrant.prize else ""
        line = f"  {place + '.':>6} {pad(name, NAME_WIDTH)} {prize}".rstrip()
        lines.append(style.strong(line) if entrant.user_id == you else line)
    return "\n".join(lines)


def your_result(status: TournamentStatus | None, results: TournamentResults | None,
                you: int) -> Text | None:
    """The local player's place and prize, or ``None`` when they have none."""
    entrants = results.places if results is not None else (
        status.entrants if status is not None else ())
    mine = next((entrant for entrant in entrants if entrant.user_id == you), None)
    if mine is None or mine.place is None:
        return None
    place, count = place_text(mine.place), len(entrants)
    if mine.prize:
        return tr("You finish in place {place} of {entrants} and win {prize} chips.",
                  place=place, entrants=count, prize=mine.prize)
    return tr("You finish in place {place} of {entrants}.", place=place, entrants=count)


__all__ = ["TournamentNews", "blinds_text", "hands_to_next_level", "place_text",
           "render_standings", "tournament_line", "your_result"]

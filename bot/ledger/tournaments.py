"""Tournament chips: buy-ins held in one escrow per tournament, refunded or paid out exactly.

A tournament's chips live in ONE account, its escrow: an ``escrow`` account whose
``table_id`` is minus the tournament's id (table ids are Discord channel ids, positive, so no
table's escrow is ever one of these). Registering moves the buy-in from the player's balance
into it (a bot's buy-in from the guild's house, as at cash tables); leaving before the start,
a cancellation or a crash moves every buy-in back; finishing moves the whole pool out as the
prizes, which must add up to it exactly. Each of these is one transaction, and every chip
movement is a pair of entries that sum to zero (``accounts``), noted with the tournament.
The chips played at tournament tables are not in the ledger: they are the tournament's play
chips, and a crash refunds the buy-ins whatever the stacks were.

A running tournament also takes rebuys, add-ons and re-entries (``buy_more``): each moves its
price into the same escrow with a ``buy-in`` entry noted with what it bought, and is counted
on the entrant's row. So while a tournament is open (registering or running) its escrow holds
``buy_in`` times its entrants, rebuys and re-entries plus ``addon_price`` times its add-ons;
once it is finished or cancelled it holds nothing: ``escrow_problems`` checks both for
``audit()``. A refund gives each entrant all they paid, and a person's tournament net counts
all of it.

These are scripts (``statements``) run inside the ``Ledger``'s transactions. Each write locks
the tournament's row first, then its escrow, then the balances or house it pays from or into
(the order cash tables use: escrow before balance), so two registrations racing for one
balance take turns and the second sees what the first spent.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import cast

from bot.errors import InvalidAmount
from bot.i18n import tr
from bot.ledger.accounts import account, owner_account, person_account
from bot.ledger.errors import (
    AlreadyRegistered,
    InsufficientChips,
    InvalidRequest,
    NotRegistered,
    TournamentNotOpen,
    UnbalancedPrizes,
)
from bot.ledger.records import (
    PlayerKey,
    Purchases,
    SavedTournament,
    TournamentInfo,
    TournamentPlace,
    TournamentStats,
    TournamentStatus,
)
from bot.ledger.statements import Script, command, command_many, first_row, rows
from bot.ledger.validation import (
    MAX_CHIPS,
    Holder,
    check_amount,
    check_chips,
    check_id,
    holder_of,
    player_key,
)

OPEN_STATUSES = ("registering", "running")
"""A tournament in one of these holds its buy-ins; ``recover()`` refunds them (or, resuming,
those it cannot resume)."""

PURCHASES = {"rebuy": "rebuys", "add-on": "addons", "re-entry": "reentries"}
"""What ``buy_more`` sells, and the column of ``tournament_entries`` that counts each."""

PAID = "t.buy_in * (1 + e.rebuys + e.reentries) + t.addon_price * e.addons"
"""What one entrant (``e``) paid into a tournament (``t``): SQL."""

LEADERBOARD_VALUE = "p.tournament_net"
"""What ``leaderboard(by="tournaments")`` ranks people by: their net in finished
tournaments (prizes won minus buy-ins paid), a column of ``players``."""


# ----------------------------------------------------------------- checks before writing


def check_buy_in(buy_in: object) -> int:
    """A buy-in: 0 (a freeroll) or a whole number of chips up to ``MAX_CHIPS``;
    ``InvalidAmount`` otherwise."""
    if type(buy_in) is int and buy_in == 0:
        return 0
    return check_amount(buy_in)


def check_start(starts_at: float | None) -> float | None:
    """A scheduled start: a finite unix time, or ``None``; ``InvalidRequest`` otherwise."""
    if starts_at is not None and (isinstance(starts_at, bool)
                                  or not isinstance(starts_at, int | float)
                                  or not math.isfinite(starts_at)):
        raise InvalidRequest(f"A tournament cannot start at {starts_at!r}.")
    return starts_at


def settings_text(settings: Mapping[str, object]) -> str:
    """The settings as a JSON object; ``InvalidRequest`` unless they are plain values."""
    try:
        return json.dumps(dict(settings), sort_keys=True)
    except (TypeError, ValueError) as error:
        raise InvalidRequest(f"Tournament settings must be plain values: {error}") from None


def check_places(places: Mapping[PlayerKey, int]) -> dict[Holder, int]:
    """Places keyed by holder columns, each a whole number from 1; ``InvalidRequest``
    otherwise."""
    checked: dict[Holder, int] = {}
    for player, place in places.items():
        if check_id(place, "place") < 1:
            raise InvalidRequest(f"Places count from 1, not {place}.")
        checked[holder_of(player)] = place
    return checked


def check_prizes(prizes: Mapping[PlayerKey, int]) -> dict[Holder, int]:
    """Prizes keyed by holder columns, each 0 to ``MAX_CHIPS``; ``InvalidAmount`` or
    ``InvalidRequest`` otherwise."""
    return {holder_of(player): check_chips(prize, "A prize") for player, prize in prizes.items()}


# ----------------------------------------------------------------- writes


def create(
    guild_id: int, channel_id: int, creator_id: int, buy_in: int, settings: str, now: float,
    addon_price: int = 0, starts_at: float | None = None,
) -> Script[int]:
    """Open a tournament for registration with its (empty) escrow; its id."""
    ((tournament_id,),) = yield from rows(
        "INSERT INTO tournaments (guild_id, channel_id, creator_id, buy_in, settings,"
        " created_at, addon_price, starts_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        guild_id, channel_id, creator_id, buy_in, settings, now, addon_price, starts_at,
    )  # fmt: skip
    escrow_id, _ = yield from account("escrow", guild_id, table_id=-int(tournament_id))
    yield from command(
        "UPDATE tournaments SET account_id = ? WHERE id = ?", escrow_id, tournament_id
    )
    return int(tournament_id)


def register(tournament_id: int, holder: Holder, now: float) -> Script[int]:
    """Enter a player and move the buy-in into the escrow; the number of entrants.
    ``TournamentNotOpen`` unless registering (or running with late registration in its
    settings: the runtime closes it at the end of the level the settings name),
    ``AlreadyRegistered``, ``InsufficientChips``, ``UnknownPlayer`` for a person without an
    account, ``InvalidAmount`` for a pool that would pass ``MAX_CHIPS``."""
    guild_id, buy_in, status, escrow_id = yield from _locked(tournament_id)
    if status != "registering":
        late = status == "running" and (yield from _late_registration(tournament_id))
        if not late:
            raise TournamentNotOpen(status)
    user_id, bot_name = holder
    entered = yield from first_row(
        "SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND user_id = ?"
        " AND bot_name = ?",
        tournament_id, user_id, bot_name,
    )  # fmt: skip
    if entered is not None:
        raise AlreadyRegistered()
    if buy_in:
        pool = yield from _escrow_chips(escrow_id)
        if pool + buy_in > MAX_CHIPS:
            raise InvalidAmount(tr("A prize pool can hold at most {most} chips.", most=MAX_CHIPS))
        source_id = yield from _payer(guild_id, holder, buy_in)
        yield from _move({source_id: -buy_in, escrow_id: buy_in}, "buy-in", now, tournament_id)
    elif not bot_name:
        yield from person_account(guild_id, user_id, lock=False)  # UnknownPlayer if none
    yield from command(
        "INSERT INTO tournament_entries (tournament_id, user_id, bot_name, registered_at)"
        " VALUES (?, ?, ?, ?)",
        tournament_id, user_id, bot_name, now,
    )  # fmt: skip
    ((entrants,),) = yield from rows(
        "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?", tournament_id
    )
    return int(entrants)


def unregister(tournament_id: int, holder: Holder, now: float) -> Script[None]:
    """Take a player out before the start and refund the buy-in. ``TournamentNotOpen``
    unless registering, ``NotRegistered`` if the player is not entered."""
    guild_id, buy_in, status, escrow_id = yield from _locked(tournament_id)
    if status != "registering":
        raise TournamentNotOpen(status)
    user_id, bot_name = holder
    left = yield from command(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?"
        " AND bot_name = ?",
        tournament_id, user_id, bot_name,
    )  # fmt: skip
    if not left:
        raise NotRegistered()
    if buy_in:
        yield from _escrow_chips(escrow_id)
        owner_id = yield from owner_account(guild_id, user_id, bot_name)
        yield from _move({escrow_id: -buy_in, owner_id: buy_in}, "refund", now, tournament_id)


def buy_more(tournament_id: int, holder: Holder, what: str, now: float) -> Script[int]:
    """A running tournament's entrant buys a ``what`` (a key of ``PURCHASES``): its price
    (the buy-in; an add-on's ``addon_price``) moves from their balance (a bot's from the
    house) into the escrow; how many of it they have bought now. The runtime decides when
    one may be bought; this refuses what the settings never allow, as a last guard:
    ``TournamentNotOpen`` unless running, ``NotRegistered``, ``InvalidRequest`` past the
    settings' rebuys, for a second add-on or one the settings do not offer, or a re-entry
    they do not offer; ``InsufficientChips``; ``InvalidAmount`` past ``MAX_CHIPS``."""
    guild_id, buy_in, status, escrow_id = yield from _locked(tournament_id)
    if status != "running":
        raise TournamentNotOpen(status)
    column = PURCHASES[what]
    user_id, bot_name = holder
    row = yield from first_row(
        f"SELECT e.{column}, t.addon_price, t.settings FROM tournament_entries e"
        " JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.tournament_id = ? AND e.user_id = ? AND e.bot_name = ?",
        tournament_id, user_id, bot_name,
    )  # fmt: skip
    if row is None:
        raise NotRegistered()
    bought, addon_price, settings = int(row[0]), int(row[1]), _settings(row[2])
    allowed = {"rebuy": _setting_int(settings, "rebuys"),
               "add-on": 1 if settings.get("addon") is True else 0,
               "re-entry": MAX_CHIPS if settings.get("reentry") is True else 0}[what]
    if bought >= allowed:
        raise InvalidRequest(f"The tournament's settings allow no more {what}s.")
    price = addon_price if what == "add-on" else buy_in
    if price:
        pool = yield from _escrow_chips(escrow_id)
        if pool + price > MAX_CHIPS:
            raise InvalidAmount(tr("A prize pool can hold at most {most} chips.", most=MAX_CHIPS))
        source_id = yield from _payer(guild_id, holder, price)
        yield from _move({source_id: -price, escrow_id: price}, "buy-in", now, tournament_id,
                         what)
    yield from command(
        f"UPDATE tournament_entries SET {column} = {column} + 1"
        " WHERE tournament_id = ? AND user_id = ? AND bot_name = ?",
        tournament_id, user_id, bot_name,
    )  # fmt: skip
    return bought + 1


def set_schedule(
    tournament_id: int, event_id: int | None = None, *, reminded_at: float | None = None
) -> Script[bool]:
    """Note a scheduled tournament's Discord event, or that its players were reminded (only
    once: False when they were already, or it is not open)."""
    if reminded_at is not None:
        changed = yield from command(
            "UPDATE tournaments SET reminded_at = ? WHERE id = ? AND reminded_at IS NULL"
            " AND status IN ('registering', 'running')",
            reminded_at, tournament_id,
        )  # fmt: skip
    else:
        changed = yield from command(
            "UPDATE tournaments SET event_id = ? WHERE id = ?", event_id, tournament_id)
    return bool(changed)


def start(tournament_id: int, now: float) -> Script[tuple[PlayerKey, ...]]:
    """Close registration: the tournament is running; its entrants in registration order.
    ``TournamentNotOpen`` unless registering."""
    _, _, status, _ = yield from _locked(tournament_id)
    if status != "registering":
        raise TournamentNotOpen(status)
    yield from command(
        "UPDATE tournaments SET status = 'running', started_at = ? WHERE id = ?",
        now, tournament_id,
    )  # fmt: skip
    entrants = yield from _entrants(tournament_id)
    return tuple(player_key(*holder) for holder in entrants)


def cancel(tournament_id: int, now: float) -> Script[None]:
    """Refund every buy-in of a registering or running tournament and mark it cancelled;
    ``TournamentNotOpen`` otherwise."""
    guild_id, _, status, escrow_id = yield from _locked(tournament_id)
    if status not in OPEN_STATUSES:
        raise TournamentNotOpen(status)
    yield from _refund_all(tournament_id, guild_id, escrow_id, now)


def finish(
    tournament_id: int, places: Mapping[Holder, int], prizes: Mapping[Holder, int], now: float
) -> Script[None]:
    """Pay the prizes out of the escrow, record every entrant's place and prize and people's
    tournament records, and mark the tournament finished.

    ``TournamentNotOpen`` unless running; ``InvalidRequest`` unless ``places`` names exactly
    the entrants, each place at most their number; ``UnbalancedPrizes`` if a prize goes to a
    player who did not enter, or the prizes do not add up to the pool. A refusal writes
    nothing.
    """
    guild_id, _, status, escrow_id = yield from _locked(tournament_id)
    if status != "running":
        raise TournamentNotOpen(status)
    entrants = yield from _entrants(tournament_id)
    if set(places) != set(entrants) or len(places) != len(entrants):
        raise InvalidRequest("Every entrant of the tournament needs a place, and only they.")
    if max(places.values(), default=1) > len(entrants):
        raise InvalidRequest("A place cannot be lower than the number of entrants.")
    pool = yield from _escrow_chips(escrow_id)
    total = sum(prizes.values())
    if total != pool or not set(prizes) <= set(entrants):
        raise UnbalancedPrizes(total, pool)
    moves: dict[int, int] = {escrow_id: -pool}
    for (user_id, bot_name), prize in sorted(prizes.items()):
        if prize:
            owner_id = yield from owner_account(guild_id, user_id, bot_name)
            moves[owner_id] = moves.get(owner_id, 0) + prize
    yield from _move(moves, "cash-out", now, tournament_id)
    yield from command_many(
        "UPDATE tournament_entries SET place = ?, prize = ?"
        " WHERE tournament_id = ? AND user_id = ? AND bot_name = ?",
        [(place, prizes.get(holder, 0), tournament_id, *holder)
         for holder, place in places.items()],
        unnest="UPDATE tournament_entries SET place = m.place, prize = m.prize"
        " FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[])"
        " AS m(place, prize, tournament_id, user_id, bot_name)"
        " WHERE tournament_entries.tournament_id = m.tournament_id"
        " AND tournament_entries.user_id = m.user_id"
        " AND tournament_entries.bot_name = m.bot_name",
    )  # fmt: skip
    yield from command(
        "UPDATE players SET tournaments_played = tournaments_played + 1,"
        " tournaments_cashed = tournaments_cashed + CASE WHEN e.prize > 0 THEN 1 ELSE 0 END,"
        " tournaments_won = tournaments_won + CASE WHEN e.place = 1 THEN 1 ELSE 0 END,"
        f" tournament_net = tournament_net + e.prize - ({PAID})"
        " FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.tournament_id = ? AND e.bot_name = ''"
        " AND players.guild_id = ? AND players.user_id = e.user_id",
        tournament_id, guild_id,
    )  # fmt: skip
    yield from command(
        "UPDATE tournaments SET status = 'finished', finished_at = ? WHERE id = ?",
        now, tournament_id,
    )  # fmt: skip


def refund_open(
    owned: str, owned_params: Sequence[object], now: float, *, keep_resumable: bool = False
) -> Script[tuple[int, ...]]:
    """``recover()``: cancel every registering or running tournament of the guilds that
    ``owned`` (a condition on ``guild_id``, ``shard_claims.owned_guilds``) selects, refunding
    every buy-in; their ids. With ``keep_resumable`` only the running ones without a saved
    state: the others resume (``saved``)."""
    which = "status = 'running' AND state IS NULL" if keep_resumable \
        else "status IN ('registering', 'running')"
    found = yield from rows(
        "SELECT id, guild_id, account_id FROM tournaments"
        f" WHERE {which} AND {owned} ORDER BY id",
        *owned_params, lock=True,
    )  # fmt: skip
    for tournament_id, guild_id, escrow_id in found:
        yield from _refund_all(int(tournament_id), guild_id, int(escrow_id), now)
    return tuple(int(row[0]) for row in found)


def save_state(tournament_id: int, state: str) -> Script[None]:
    """Keep a running tournament's state (replacing the last one); one statement, and none
    once it is over."""
    yield from command(
        "UPDATE tournaments SET state = ? WHERE id = ? AND status = 'running'",
        state, tournament_id,
    )  # fmt: skip


# ----------------------------------------------------------------- reads


def info(tournament_id: int) -> Script[TournamentInfo | None]:
    """The tournament with its entrants, pool, purchases and schedule, or ``None`` if there
    is no such one."""
    row = yield from first_row(
        "SELECT t.id, t.guild_id, t.channel_id, t.creator_id, t.buy_in, t.status, t.settings,"
        " a.chips, t.starts_at, t.event_id, t.reminded_at"
        " FROM tournaments t JOIN accounts a ON a.id = t.account_id WHERE t.id = ?",
        tournament_id,
    )
    if row is None:
        return None
    found, guild_id, channel_id, creator_id, buy_in, status, settings, pool, starts_at, \
        event_id, reminded_at = row
    bought = yield from rows(
        "SELECT user_id, bot_name, rebuys, addons, reentries FROM tournament_entries"
        " WHERE tournament_id = ? ORDER BY rowid",
        tournament_id,
    )
    return TournamentInfo(
        id=int(found),
        guild_id=int(guild_id),
        channel_id=int(channel_id),
        creator_id=int(creator_id),
        buy_in=int(buy_in),
        status=cast(TournamentStatus, status),
        settings=MappingProxyType(json.loads(settings)),
        entrants=tuple(player_key(user_id, bot_name) for user_id, bot_name, *_ in bought),
        pool=int(pool),
        purchases=MappingProxyType({
            player_key(user_id, bot_name): Purchases(int(rebuys), int(addons), int(reentries))
            for user_id, bot_name, rebuys, addons, reentries in bought
            if rebuys or addons or reentries}),
        starts_at=None if starts_at is None else float(starts_at),
        event_id=None if event_id is None else int(event_id),
        reminded=reminded_at is not None,
    )


def open_in_guild(guild_id: int) -> Script[list[TournamentInfo]]:
    """The guild's registering or running tournaments, oldest first."""
    return (yield from _in_guild(
        "SELECT id FROM tournaments WHERE guild_id = ?"
        " AND status IN ('registering', 'running') ORDER BY id", guild_id))


def recent_in_guild(guild_id: int, limit: int) -> Script[list[TournamentInfo]]:
    """The guild's last ``limit`` finished or cancelled tournaments, newest first."""
    return (yield from _in_guild(
        "SELECT id FROM tournaments WHERE guild_id = ?"
        " AND status IN ('finished', 'cancelled') ORDER BY id DESC LIMIT ?", guild_id, limit))


def _in_guild(query: str, *params: object) -> Script[list[TournamentInfo]]:
    """The tournaments whose ids ``query`` selects, in its order."""
    found = yield from rows(query, *params)
    tournaments = []
    for (tournament_id,) in found:
        tournament = yield from info(int(tournament_id))
        if tournament is not None:
            tournaments.append(tournament)
    return tournaments


def saved(owned: str, owned_params: Sequence[object]) -> Script[list[SavedTournament]]:
    """The registering or running tournaments of the guilds ``owned`` selects, oldest first,
    with their entrants' names and saved state, to resume after ``refund_open``."""
    found = yield from rows(
        f"SELECT id, state FROM tournaments WHERE status IN ('registering', 'running')"
        f" AND {owned} ORDER BY id",
        *owned_params,
    )  # fmt: skip
    kept = []
    for tournament_id, state in found:
        tournament = yield from info(int(tournament_id))
        if tournament is None:
            continue
        named = yield from rows(
            "SELECT e.user_id, e.bot_name, p.name FROM tournament_entries e"
            " JOIN tournaments t ON t.id = e.tournament_id"
            " LEFT JOIN players p ON e.bot_name = '' AND p.guild_id = t.guild_id"
            " AND p.user_id = e.user_id WHERE e.tournament_id = ?",
            tournament_id,
        )  # fmt: skip
        names = {player_key(user_id, bot_name): bot_name or name or str(user_id)
                 for user_id, bot_name, name in named}
        kept.append(SavedTournament(tournament, MappingProxyType(names),
                                    None if state is None else str(state)))
    return kept


def results(tournament_id: int) -> Script[list[TournamentPlace]]:
    """The places of a finished tournament, best first (ties in registration order); empty
    while it has none."""
    found = yield from rows(
        "SELECT e.user_id, e.bot_name, p.name, e.place, e.prize FROM tournament_entries e"
        " JOIN tournaments t ON t.id = e.tournament_id"
        " LEFT JOIN players p ON e.bot_name = '' AND p.guild_id = t.guild_id"
        " AND p.user_id = e.user_id"
        " WHERE e.tournament_id = ? AND e.place IS NOT NULL ORDER BY e.place, e.rowid",
        tournament_id,
    )
    return [
        TournamentPlace(
            player=player_key(user_id, bot_name),
            name=bot_name or name or str(user_id),
            place=int(place),
            prize=int(prize),
        )
        for user_id, bot_name, name, place, prize in found
    ]


def stats(guild_id: int, user_id: int) -> Script[TournamentStats]:
    """A person's record in the guild's finished tournaments (zeros if none)."""
    row = yield from first_row(
        "SELECT tournaments_played, tournaments_cashed, tournaments_won, tournament_net"
        " FROM players WHERE guild_id = ? AND user_id = ?",
        guild_id, user_id,
    )  # fmt: skip
    if row is None:
        return TournamentStats()
    played, cashed, won, net = (int(value) for value in row)
    return TournamentStats(played=played, in_the_money=cashed, wins=won, net=net)


def escrow_problems() -> Script[tuple[list[str], int]]:
    """``audit()``: every tournament whose escrow does not hold what its entrants paid (the
    buy-in for each entry, rebuy and re-entry, ``addon_price`` for each add-on) while open, or
    is not empty once closed; and the chips all tournament escrow holds."""
    found = yield from rows(
        f"SELECT t.id, t.status, (SELECT CAST(COALESCE(SUM({PAID}), 0) AS BIGINT)"
        " FROM tournament_entries e WHERE e.tournament_id = t.id), a.chips"
        " FROM tournaments t JOIN accounts a ON a.id = t.account_id ORDER BY t.id"
    )
    problems = []
    for tournament_id, status, buy_ins, chips in found:
        expected = buy_ins if status in OPEN_STATUSES else 0
        if chips != expected:
            problems.append(
                f"{status} tournament {tournament_id}: its escrow holds {chips}, not {expected}"
            )
    ((held,),) = yield from rows(
        "SELECT CAST(COALESCE(SUM(chips), 0) AS BIGINT) FROM accounts"
        " WHERE kind = 'escrow' AND table_id < 0"
    )
    return problems, int(held)


# ----------------------------------------------------------------- helpers


def _locked(tournament_id: int) -> Script[tuple[int, int, str, int]]:
    """The tournament's guild, buy-in, status and escrow account, its row locked;
    ``TournamentNotOpen`` if there is no such tournament."""
    row = yield from first_row(
        "SELECT guild_id, buy_in, status, account_id FROM tournaments WHERE id = ?",
        tournament_id, lock=True,
    )  # fmt: skip
    if row is None:
        raise TournamentNotOpen(None)
    guild_id, buy_in, status, escrow_id = row
    return int(guild_id), int(buy_in), str(status), int(escrow_id)


def _late_registration(tournament_id: int) -> Script[bool]:
    """Whether the tournament's settings offer late registration (``late_registration``, a
    number of levels, above 0)."""
    ((settings,),) = yield from rows(
        "SELECT settings FROM tournaments WHERE id = ?", tournament_id)
    return _setting_int(_settings(settings), "late_registration") > 0


def _settings(text: object) -> dict[str, object]:
    """The runtime's settings stored with a tournament (empty if they do not read)."""
    try:
        values = json.loads(str(text))
    except ValueError:
        return {}
    return values if isinstance(values, dict) else {}


def _setting_int(settings: Mapping[str, object], name: str) -> int:
    """A whole-number setting, 0 when missing or not a whole number."""
    value = settings.get(name, 0)
    return value if type(value) is int else 0


def _payer(guild_id: int, holder: Holder, price: int) -> Script[int]:
    """The account a purchase of ``price`` is paid from, locked: a person's balance
    (``InsufficientChips`` when short, ``UnknownPlayer`` without an account), a bot's
    house."""
    user_id, bot_name = holder
    if bot_name:
        house_id, _ = yield from account("house", guild_id)
        return house_id
    balance_id, balance = yield from person_account(guild_id, user_id)
    if balance < price:
        raise InsufficientChips(price, balance)
    return balance_id


def _escrow_chips(escrow_id: int) -> Script[int]:
    """The chips in a tournament's escrow, its row locked."""
    ((chips,),) = yield from rows("SELECT chips FROM accounts WHERE id = ?", escrow_id, lock=True)
    return int(chips)


def _entrants(tournament_id: int) -> Script[list[Holder]]:
    """The tournament's entrants in registration order."""
    found = yield from rows(
        "SELECT user_id, bot_name FROM tournament_entries WHERE tournament_id = ? ORDER BY rowid",
        tournament_id,
    )
    return [(int(user_id), str(bot_name)) for user_id, bot_name in found]


def _refund_all(tournament_id: int, guild_id: int, escrow_id: int, now: float) -> Script[None]:
    """Give every entrant of a locked open tournament all they paid back (a bot's to the
    house) and mark it cancelled."""
    paid = yield from rows(
        f"SELECT e.user_id, e.bot_name, {PAID} FROM tournament_entries e"
        " JOIN tournaments t ON t.id = e.tournament_id WHERE e.tournament_id = ?",
        tournament_id,
    )  # fmt: skip
    if any(amount for *_, amount in paid):
        yield from _escrow_chips(escrow_id)  # locked before the balances it pays into
        moves: dict[int, int] = {escrow_id: 0}
        for user_id, bot_name, amount in sorted(paid):
            owner_id = yield from owner_account(guild_id, int(user_id), str(bot_name))
            moves[owner_id] = moves.get(owner_id, 0) + int(amount)
            moves[escrow_id] -= int(amount)
        yield from _move(moves, "refund", now, tournament_id)
    yield from command(
        "UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ?",
        now, tournament_id,
    )  # fmt: skip


def _move(
    moves: Mapping[int, int], reason: str, now: float, tournament_id: int, what: str = ""
) -> Script[None]:
    """Add each account's delta (``account_id -> delta``, summing to zero) with its entry,
    noted with the tournament (and ``what`` was bought: "tournament 7 rebuy"); zero deltas
    are left out."""
    changes = sorted((account_id, delta) for account_id, delta in moves.items() if delta)
    if sum(delta for _, delta in changes) != 0:
        raise AssertionError("a tournament's chip movement must sum to zero")
    note = f"tournament {tournament_id} {what}".rstrip()
    yield from command_many(
        "UPDATE accounts SET chips = chips + ? WHERE id = ?",
        [(delta, account_id) for account_id, delta in changes],
        unnest="UPDATE accounts SET chips = chips + m.delta"
        " FROM unnest(?::bigint[], ?::bigint[]) AS m(delta, id) WHERE accounts.id = m.id",
    )
    yield from command_many(
        "INSERT INTO entries (account_id, delta, reason, note, created_at) VALUES (?, ?, ?, ?, ?)",
        [(account_id, delta, reason, note, now) for account_id, delta in changes],
        unnest="INSERT INTO entries (account_id, delta, reason, note, created_at)"
        " SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::float8[])",
    )

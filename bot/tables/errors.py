"""Mistakes a player can make at a table, each with a short sentence to show them.

Every ``TableError`` (a ``HoldemError``) is an expected user error: the front end shows
``error.message`` to that person only, in their language, and nothing at the table has changed.
"""

from __future__ import annotations

from bot.errors import HoldemError, NotSeated
from bot.i18n import tr


class TableError(HoldemError):
    """A request the table refused; ``message`` is a short sentence for the player."""


class InvalidSettings(TableError, ValueError):
    """A table or server setting has a value that cannot be used."""


class NoTableHere(TableError):
    """The channel has no table."""

    def __init__(self) -> None:
        super().__init__(tr("There is no table in this channel. Use /join to open one."))


class TableClosed(TableError):
    """The table is shutting down and takes no more requests."""

    def __init__(self) -> None:
        super().__init__(tr("This table is closing; try again in a moment."))


class NotOurServer(TableError):
    """The server is on a shard another process of the bot runs (its events should not
    reach this one)."""

    def __init__(self) -> None:
        super().__init__(tr("Another instance of the bot runs this server's tables, so this "
                            "one can do nothing here; please try again in a minute."))


class AlreadySeated(TableError):
    """The person already has a seat at this table."""

    def __init__(self) -> None:
        super().__init__(tr("You are already seated at this table."))


class TableFull(TableError):
    """Every seat is taken."""

    def __init__(self, max_seats: int) -> None:
        super().__init__(tr("The table is full ({seats} seats).", seats=max_seats))
        self.max_seats = max_seats


class TooManyBots(TableError):
    """Seating the bots asked for would take seats the table keeps for people."""

    def __init__(self, limit: int, seated: int) -> None:
        super().__init__(tr(
            "This table seats at most {limit} bots ({seated} seated now); a server manager "
            "can change that with /settings max_bots.", limit=limit, seated=seated))
        self.limit = limit
        self.seated = seated


class TableMovedOn(TableError):
    """An answer for a turn (or hand) that is over: a double click, or an old button or form."""

    def __init__(self) -> None:
        super().__init__(tr("The table has moved on since that was shown; use the buttons on "
                            "the latest table message."))


class NotYourTurn(TableError):
    """Someone else is to act, or no action is awaited (also what a second click gets)."""

    def __init__(self) -> None:
        super().__init__(tr("It is not your turn."))


class NoPreActionNow(TableError):
    """A pre-action asked for by someone who has no turn coming in the running hand, or whose
    turn it is already."""

    def __init__(self, your_turn: bool) -> None:
        super().__init__(
            tr("It is your turn now: act with the buttons under the table.") if your_turn
            else tr("You can choose ahead only while you are in a hand and not yet to act."))


class PreActionOutdated(TableError):
    """A pre-action button shown before the street, the hand or the amount owed changed."""

    def __init__(self) -> None:
        super().__init__(tr("The hand has moved on since those choices were shown; press "
                            "**My cards** again for the current ones."))


class IllegalAction(TableError):
    """The engine refused the action; the message says what is allowed."""


class NotEnoughPlayers(TableError):
    """A hand cannot start: fewer than two seated players have chips."""

    def __init__(self) -> None:
        super().__init__(tr("A hand needs at least two seated players with chips."))


class UnknownBot(TableError):
    """No bot of that name (or no bot at all) sits at the table."""

    def __init__(self, name: str | None) -> None:
        super().__init__(tr("There is no bot called “{name}” here.", name=name) if name
                         else tr("There is no bot at this table."))


class UnknownBotLevel(TableError, ValueError):
    """A bot level that does not exist."""

    def __init__(self, level: str, levels: tuple[str, ...]) -> None:
        super().__init__(tr("Unknown bot level “{level}”; choose one of {levels}.",
                            level=level, levels=levels))


class NoQuestionPending(TableError):
    """A run-it-twice answer arrived when nobody asked this person."""

    def __init__(self) -> None:
        super().__init__(tr("There is no run-it-twice question for you right now."))


# -- tournaments -----------------------------------------------------------------------------


class InvalidTournamentSettings(InvalidSettings):
    """A tournament setting (stack, buy-in, seats, structure, payouts …) that cannot be
    used; nothing was created or changed."""


class NoSuchTournament(TableError):
    """No tournament has that number (here, or any more)."""

    def __init__(self) -> None:
        super().__init__(tr("There is no such tournament."))



class TournamentFull(TableError):
    """Every place of the tournament is taken."""

    def __init__(self, places: int) -> None:
        super().__init__(tr("This tournament is full ({places} players).", places=places))
        self.places = places




class LateRegistrationClosed(TableError):
    """The tournament is running and late registration has closed (or every table is
    full)."""

    def __init__(self, level: int, tables_full: bool = False) -> None:
        if tables_full:
            message = tr("Every table of this tournament is full right now; try again after "
                         "the next player is knocked out.")
        else:
            message = tr("Late registration for this tournament closed at the end of level "
                         "{level}.", level=level)
        super().__init__(message)
        self.level = level


class NotTournamentCreator(TableError):
    """Only the tournament's creator (or a server manager) may start it."""

    def __init__(self) -> None:
        super().__init__(tr("Only the player who created this tournament can start it."))


class NotEnoughEntrants(TableError):
    """A tournament cannot start with fewer than two players."""

    def __init__(self, entrants: int) -> None:
        super().__init__(tr(
            "A tournament needs at least 2 players to start; {entrants} registered.",
            entrants=entrants))
        self.entrants = entrants


class NoLeavingTournament(TableError):
    """Leaving a running tournament with chips is not allowed."""

    def __init__(self) -> None:
        super().__init__(tr(
            "You cannot leave a tournament once it has started: your chips stay in play. "
            "Sit out if you must go; you will be blinded and folded until you return."))


class NoStraddleHere(TableError):
    """A person asked to straddle at a table whose straddle is off, or posted by everyone."""

    def __init__(self, mandatory: bool) -> None:
        super().__init__(tr(
            "The straddle is posted every hand at this table: there is nothing to choose.")
            if mandatory else tr("This table has no straddle: a server admin turns it on with "
                                 "/settings straddle."))


class TournamentTableRefusal(TableError):
    """A cash-table request (join, top up, bots, settings, deal now) at a tournament table."""

    def __init__(self) -> None:
        super().__init__(tr(
            "This is a tournament table: seats, stacks, bots and blinds are run by the "
            "tournament. Use the /tournament commands."))


class MovedToAnotherTable(NotSeated):
    """The person was moved to another table of the tournament."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(tr("You were moved to another table of the tournament: <#{channel}>.",
                            channel=channel_id))
        self.channel_id = channel_id


class TournamentTablesUnavailable(TableError):
    """The front end could not open a channel for one of the tournament's tables."""

    def __init__(self) -> None:
        super().__init__(tr("The tournament's tables could not be opened, so it has not "
                            "started; please try again."))

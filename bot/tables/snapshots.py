"""The public state of a table (``TableState``), built from its lobby and its current hand.

A table builds its state before every turn prompt and notification, and between two of them
most seats and often the pots have not changed; frozen snapshots can be shared, so an
unchanged part is handed out again instead of being built again (``SeatStates``,
``PotStates``). Hole cards appear only as shown at showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tables.current_hand import CurrentHand
from bot.tables.lobby import Lobby
from bot.tables.notifier import PotState, SeatState, TableState
from bot.tables.outages import GuildLink
from bot.tables.seats import Seat
from engine.cards import Card
from engine.hand import Hand


class PublicState:
    """Everything about one table that everyone in the channel may see; ``gateway`` says
    whether clicks can reach it now."""

    __slots__ = ("_current", "_gateway", "_lobby", "_pots", "_seat_states")

    def __init__(self, lobby: Lobby, current: CurrentHand, gateway: GuildLink) -> None:
        self._lobby = lobby
        self._current = current
        self._gateway = gateway
        self._seat_states = SeatStates()
        self._pots = PotStates()

    def state(self) -> TableState:
        """The table now: seats, stacks and bets, pots, board(s), whose turn."""
        current, settings = self._current, self._lobby.settings
        hand, running = current.hand, current.running
        live = hand if running else None
        to_act = live.to_act if live is not None else None
        offline = self._gateway.down  # the clocks are stopped: no deadline holds
        return TableState(
            guild_id=self._lobby.guild_id,
            channel_id=self._lobby.channel_id,
            hand_number=current.last_id,
            hand_id=current.hand_id if current.running else None,
            is_hand_running=running,
            street=hand.street if hand is not None else None,
            board=hand.board if hand is not None else (),
            boards=hand.boards if hand is not None else ((),),
            pots=self._pots.pots(live, current.seats) if live is not None else (),
            pot_total=live.pot_total if live is not None else 0,
            seats=self._seats(hand, running),
            button_seat=current.button,
            to_act_seat=current.seats[to_act].index if to_act is not None else None,
            to_act_deadline=None if offline else current.deadline,
            last_action=current.last_action,
            small_blind=settings.small_blind,
            big_blind=settings.big_blind,
            ante=settings.ante,
            max_seats=settings.max_seats,
            language=settings.language,
            hands_dealt=current.number,
            time_bank_deadline=None if offline else current.time_bank_until,
            offline=offline,
        )

    def _seats(self, hand: Hand | None, running: bool) -> tuple[SeatState, ...]:
        """Every seat as everyone sees it, from the hand's public facts read once: stacks and
        bets from the running hand, folds, all-ins and shown cards from the current or last
        one (a seat that was not dealt in shows its stack between hands)."""
        seats, button, snapshots = self._lobby.seats, self._current.button, self._seat_states
        positions = self._current.positions if hand is not None else {}
        dealt = self._current.seats
        if hand is not None:
            stacks, bets, folded = hand.stacks, hand.bets, hand.folded
            result = hand.result
            # (a winner without a showdown who showed one card: only in the outcome's text)
            shown = {seat: cards for seat, cards in hand.shown.items() if len(cards) == 2} \
                if result is not None else {}
        states = []
        for index in sorted(seats):
            seat = seats[index]
            position = positions.get(index)
            if position is None or dealt[position] is not seat:  # not dealt in (or sat down since)
                state = snapshots.state(
                    seat, stack=seat.stack, bet=0, in_hand=False, folded=False, all_in=False,
                    is_button=index == button, shown_cards=())
            else:
                out, behind = folded[position], stacks[position]
                state = snapshots.state(
                    seat, stack=behind if running else seat.stack,
                    bet=bets[position] if running else 0, in_hand=True, folded=out,
                    all_in=not out and behind == 0, is_button=index == button,
                    shown_cards=shown.get(position, ()))
            states.append(state)
        return tuple(states)


class SeatStates:
    """Each seat's last ``SeatState``, handed out again while its facts stay the same.

    >>> states = SeatStates()
    >>> ann = Seat(2, "Ann", 7, None, 100)
    >>> facts = dict(stack=100, bet=0, in_hand=False, folded=False, all_in=False,
    ...              is_button=True, shown_cards=())
    >>> states.state(ann, **facts) is states.state(ann, **facts)
    True
    >>> states.state(ann, **{**facts, "stack": 90}).stack
    90
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[int, tuple[tuple[object, ...], SeatState]] = {}

    def state(
        self,
        seat: Seat,
        *,
        stack: int,
        bet: int,
        in_hand: bool,
        folded: bool,
        all_in: bool,
        is_button: bool,
        shown_cards: tuple[Card, ...],
    ) -> SeatState:
        """``seat``'s state with these facts (its name, owner, bot level and lobby flags from
        the seat): the last one handed out for its index when nothing differs."""
        # Compared only for equality, never unpacked: the seat itself stands for its name,
        # owner and bot (fixed for as long as it is taken).
        key = (seat, stack, bet, in_hand, folded, all_in, seat.sitting_out, seat.leaving,
               is_button, shown_cards)
        last = self._last.get(seat.index)
        if last is not None and last[0] == key:
            return last[1]
        state = SeatState(
            seat=seat.index,
            name=seat.name,
            user_id=seat.user_id,
            bot_level=seat.bot.level if seat.bot is not None else None,
            stack=stack,
            bet=bet,
            in_hand=in_hand,
            folded=folded,
            all_in=all_in,
            sitting_out=seat.sitting_out,
            leaving=seat.leaving,
            is_button=is_button,
            shown_cards=shown_cards,
        )
        self._last[seat.index] = (key, state)
        return state


class PotStates:
    """The pots of the running hand by table seat, worked out again only when a seat's
    contribution, stack or fold changed since the last time."""

    __slots__ = ("_hand", "_key", "_pots")

    def __init__(self) -> None:
        self._hand: Hand | None = None
        self._key: tuple[tuple[int, ...], ...] = ()
        self._pots: tuple[PotState, ...] = ()

    def pots(self, hand: Hand, seats: Sequence[Seat]) -> tuple[PotState, ...]:
        """``hand``'s pots, the eligible hand seats named by ``seats[position].index``."""
        key = (hand.contributions, hand.stacks, hand.folded)
        if hand is not self._hand or key != self._key:
            self._hand, self._key = hand, key
            self._pots = tuple(
                PotState(amount=pot.amount,
                         eligible_seats=tuple(seats[position].index for position in pot.eligible))
                for pot in hand.pots()
            )
        return self._pots

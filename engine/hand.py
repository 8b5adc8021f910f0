"""One hand of No-Limit Texas Hold'em as a pure, synchronous state machine.

Players are seats ``0 .. n-1`` in clockwise order. The hand posts antes and blinds and deals
the hole cards when it is created; then the seat in ``to_act`` calls ``act`` until ``is_over``.
Every question a front end needs is answered here (``legal_actions``, ``pots``, ``view``), so
nobody has to re-derive the rules.

>>> from engine.cards import parse_cards
>>> deck = deck_for([parse_cards("Ah Kd"), parse_cards("7c 7d")], parse_cards("Qh Jc Ts 4d 4c"),
...                 button=0)
>>> hand = Hand([1000, 1000], button=0, small_blind=5, big_blind=10, deck=deck)
>>> hand.to_act  # heads-up: the button posts the small blind and acts first preflop
0
>>> hand.act(0, Action.parse("raise 30"))
>>> hand.act(1, Action.parse("call"))
>>> for _ in range(3):
...     hand.act(1, Action.parse("check"))
...     hand.act(0, Action.parse("check"))
>>> hand.result.final_stacks
(1030, 970)
>>> [(entry.seat, entry.hand_name) for entry in hand.result.showdown]
[(1, 'Two Pair, Sevens and Fours'), (0, 'Straight, Ace high')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Action, ActionKind, LegalActions, Street
from engine.cards import Card, Deck, check_distinct
from engine.evaluator import evaluate, hand_name
from engine.events import (
    Acted,
    Event,
    Forced,
    HoleCardsDealt,
    Mucked,
    Posted,
    RunItTwiceChosen,
    Showed,
    StreetDealt,
    UncalledBetReturned,
    Won,
)
from engine.pots import Pot, build_pots, split_pot
from engine.view import ActionRecord, PlayerView, ShownCards

MIN_SEATS = 2
MAX_SEATS = 10
_CARDS_DEALT_ON = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_BOARD_SIZE_AFTER = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}
STRADDLE_BIG_BLINDS = 2
"""A straddle is two big blinds: a blind raise, which doubles the price of playing preflop."""


class Straddle(StrEnum):
    """Who posts a live straddle of two big blinds after the blinds, before the cards.

    The straddle is *live*: its poster acts last preflop and may raise, and preflop the
    minimum raise is the straddle's size (a bet to four big blinds at least). Heads-up there is
    no straddle: the seat after the big blind is the button, who has posted the small blind.
    """

    UTG = "utg"
    """Under the gun, the seat after the big blind. Action starts on its left."""

    BUTTON = "button"
    """The button (a "Mississippi" straddle). Action starts with the small blind and goes
    round to the button, who acts last."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; the hand is left unchanged."""


@dataclass(frozen=True, slots=True)
class ShowdownEntry:
    """A hand shown at showdown, with its rank on each board (one board unless run twice)."""

    seat: int
    cards: tuple[Card, ...]
    ranks: tuple[int, ...]
    boards: tuple[tuple[Card, ...], ...]

    @property
    def rank(self) -> int:
        """The rank on the first board (1 is a royal flush, 7462 the worst high card)."""
        return self.ranks[0]

    @property
    def hand_names(self) -> tuple[str, ...]:
        """The hand's name on each board, read from its ranks (each rank is named only once)."""
        return tuple(hand_name(rank) for rank in self.ranks)

    @property
    def hand_name(self) -> str:
        """The hand's name on the first board, like ``"Two Pair, Jacks and Threes"``."""
        return self.hand_names[0]


@dataclass(frozen=True, slots=True)
class PotAward:
    """Pot ``pot`` (0 = main) on board ``run``: ``amount`` chips shared as ``shares``."""

    pot: int
    run: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand ended: stacks, each seat's net, who won what, and what was shown."""

    final_stacks: tuple[int, ...]
    net: tuple[int, ...]
    awards: tuple[PotAward, ...]
    showdown: tuple[ShowdownEntry, ...]
    mucked: tuple[int, ...]
    ended_by_folds: bool
    boards: tuple[tuple[Card, ...], ...]

    def won_by(self, seat: int) -> int:
        """All chips ``seat`` collected from the pots."""
        return sum(
            share
            for award in self.awards
            for winner, share in zip(award.winners, award.shares, strict=True)
            if winner == seat
        )


def dealing_order(num_seats: int, button: int) -> list[int]:
    """Seats in the order they receive cards: clockwise from the first seat left of the button.

    >>> dealing_order(4, button=2)
    [3, 0, 1, 2]
    """
    return [(button + 1 + i) % num_seats for i in range(num_seats)]


def straddle_seat(num_seats: int, button: int, straddle: Straddle | None) -> int | None:
    """The seat that posts ``straddle`` at a table of ``num_seats`` with this button, or
    ``None`` (no straddle, or heads-up). A table asks it before dealing, to ask its player.

    >>> straddle_seat(6, 2, Straddle.UTG), straddle_seat(6, 2, Straddle.BUTTON)
    (5, 2)
    >>> straddle_seat(3, 0, Straddle.UTG), straddle_seat(2, 0, Straddle.UTG) is None
    (0, True)
    """
    if straddle is None or num_seats < 3:
        return None
    if straddle is Straddle.UTG:
        return (button + 3) % num_seats  # small blind, big blind, then under the gun
    return button


def deck_for(
    hole_cards: Sequence[Sequence[Card]], board: Sequence[Card], button: int
) -> Deck:
    """A deck that deals exactly these hole cards and this board (burning unused cards).

    Hole cards go one at a time, two rounds, from the first seat left of the button. The board
    may be partial (or empty): the cards after it come from a shuffled rest of the deck.
    Raises ``ValueError`` for a seat without two cards, a board over 5 cards or a repeat.
    """
    num_seats = len(hole_cards)
    if any(len(cards) != 2 for cards in hole_cards):
        raise ValueError("every seat needs exactly two hole cards")
    if len(board) > 5:
        raise ValueError(f"a board has at most 5 cards, not {len(board)}")
    order = dealing_order(num_seats, button)
    top = [hole_cards[seat][round_] for round_ in range(2) for seat in order]
    known = set(top) | set(board)
    check_distinct(top + list(board))
    burns = iter(card for card in range(52) if card not in known)
    for position, card in enumerate(board):
        if position in (0, 3, 4):
            top.append(next(burns))
        top.append(card)
    return Deck.stacked(top)


class Hand:
    """One hand of No-Limit Hold'em from the blinds to the awarding of the pots.

    ``stacks`` are the seats' chips (all > 0), clockwise; ``button`` is the dealer seat.
    ``straddle`` has a seat post a live straddle of two big blinds after the blinds (see
    :class:`Straddle`; ignored heads-up, where nobody straddles). A stack too short for it is
    all-in for what it has, as a short blind is: the others call what it posted, and the
    minimum raise preflop stays two big blinds. With ``auto_muck`` (for all, or per seat) a
    player who cannot win at showdown mucks instead of showing; without it the hand waits for
    ``show_or_muck`` from each such player. With ``offer_run_it_twice``,
    when the players left are all-in before the river the hand waits for
    ``choose_run_it_twice``.

    Raises ``ValueError`` for a bad setup: 2-10 stacks all above 0, the button a seat,
    ``0 <= small_blind <= big_blind``, ``big_blind > 0``, ``ante >= 0``.
    """

    def __init__(
        self,
        stacks: Sequence[int],
        button: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        deck: Deck | None = None,
        *,
        auto_muck: bool | Sequence[bool] = True,
        offer_run_it_twice: bool = False,
        straddle: Straddle | None = None,
    ) -> None:
        num_seats = len(stacks)
        _check_setup(stacks, button, small_blind, big_blind, ante)
        if straddle is not None:
            straddle = Straddle(straddle)
        if isinstance(auto_muck, bool):
            auto_muck = [auto_muck] * num_seats
        elif len(auto_muck) != num_seats:
            raise ValueError(f"auto_muck needs one setting per seat ({num_seats})")
        self.button = button
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.ante = ante
        self.straddle: Straddle | None = straddle if num_seats > 2 else None
        """Who straddles this hand; ``None`` when nobody does (always heads-up)."""
        self.auto_muck: tuple[bool, ...] = tuple(bool(flag) for flag in auto_muck)
        self.offer_run_it_twice = offer_run_it_twice
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self._seats = num_seats
        self._live = num_seats  # seats that have not folded
        self._legal: LegalActions | None = None  # worked out once per turn, when first asked
        self._deck = deck if deck is not None else Deck()
        self._stacks = list(stacks)
        self._bets = [0] * num_seats
        self._contributions = [0] * num_seats
        self._folded = [False] * num_seats
        self._acted = [False] * num_seats
        self._acted_at = [0] * num_seats
        self._hole: list[tuple[Card, ...]] = [()] * num_seats
        self._boards: list[list[Card]] = [[]]
        self._street = Street.PREFLOP
        self._to_act: int | None = None
        self._current_bet = 0
        self._last_raise = big_blind
        self._river_aggressor: int | None = None
        self._awaiting_run_it_twice = False
        self._events: list[Event] = []
        self._history: list[ActionRecord] = []
        self._shown: dict[int, tuple[Card, ...]] = {}
        self._asked: dict[int, bool | None] = {}  # show (True) or muck, asked at showdown
        self._result: HandResult | None = None
        self._preflop_first = self._post_forced_bets()
        self._deal_hole_cards()
        self._start_street(Street.PREFLOP)

    # --- seats -------------------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """How many players were dealt in."""
        return self._seats

    @property
    def small_blind_seat(self) -> int:
        """The small blind: left of the button, or the button itself heads-up."""
        return self.button if self.num_seats == 2 else (self.button + 1) % self.num_seats

    @property
    def big_blind_seat(self) -> int:
        """The big blind: the seat left of the small blind."""
        return (self.small_blind_seat + 1) % self.num_seats

    @property
    def straddle_seat(self) -> int | None:
        """The seat that straddles, or ``None`` when nobody does."""
        return straddle_seat(self.num_seats, self.button, self.straddle)

    @property
    def straddle_amount(self) -> int:
        """The straddle's full size (two big blinds), or 0 when nobody straddles; what the
        poster puts in may be less when it is all-in."""
        return STRADDLE_BIG_BLINDS * self.big_blind if self.straddle is not None else 0

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, per seat (not counting what is in front of them or in the pots)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each seat has put in on this street."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put in over the whole hand (antes and blinds included)."""
        return tuple(self._contributions)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat: has it folded?"""
        return tuple(self._folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Per seat: still in the hand with no chips behind?"""
        return tuple(self._is_all_in(seat) for seat in range(self.num_seats))

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The two cards dealt to ``seat`` (private: front ends show them to their owner only).

        Raises ``ValueError`` for a seat not at the table.
        """
        self._check_seat(seat)
        return self._hole[seat]

    # --- state -------------------------------------------------------------------------------

    @property
    def street(self) -> Street:
        """The current betting round; ``SHOWDOWN`` once the hand is over."""
        return self._street

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` (hand over, or waiting for run it twice)."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """True once the pots have been awarded."""
        return self._result is not None

    @property
    def awaiting_run_it_twice(self) -> bool:
        """True while the all-in players are being asked whether to run the board twice."""
        return self._awaiting_run_it_twice

    @property
    def awaiting_show_or_muck(self) -> tuple[int, ...]:
        """The seats asked at showdown whether to show or muck a hand that wins nothing
        (players without ``auto_muck``), that have not answered yet: the hand waits for them."""
        return tuple(seat for seat, answer in self._asked.items() if answer is None)

    @property
    def shown(self) -> ShownCards:
        """The hole cards turned face up so far, by seat: at showdown, or by a winner without
        one (one card or both)."""
        return ShownCards(self._shown)

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards (of the first run when the board was run twice)."""
        return tuple(self._boards[0])

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """Every board dealt: one, or two when run twice."""
        return tuple(tuple(board) for board in self._boards)

    @property
    def current_bet(self) -> int:
        """The street total a call must reach."""
        return self._current_bet

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order."""
        return list(self._events)

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        """The actions taken so far, as everyone saw them."""
        return tuple(self._history)

    @property
    def result(self) -> HandResult | None:
        """The outcome once the hand is over, else ``None``."""
        return self._result

    def pots(self) -> list[Pot]:
        """The main pot then side pots, from every seat's contributions so far."""
        return build_pots(self._contributions, self._folded, self.all_in)

    @property
    def pot_total(self) -> int:
        """All chips put in this hand, bets on the current street included."""
        return sum(self._contributions)

    def view(self, seat: int | None) -> PlayerView:
        """The hand as ``seat`` may see it: its own hole cards, never anyone else's until shown.

        ``None`` is a spectator, who sees no hole cards. Raises ``ValueError`` for a seat not
        at the table.
        """
        if seat is not None:
            self._check_seat(seat)
        return PlayerView(
            seat=seat,
            hole_cards=self._hole[seat] if seat is not None else (),
            board=self.board,
            street=self._street,
            button=self.button,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            straddle=self.straddle_amount,
            straddle_seat=self.straddle_seat,
            stacks=self.stacks,
            bets=self.bets,
            contributions=self.contributions,
            folded=self.folded,
            all_in=self.all_in,
            pot=self.pot_total,
            to_act=self._to_act,
            legal=self.legal_actions() if seat is not None and seat == self._to_act else None,
            history=self.history,
            shown=ShownCards(self._shown),
        )

    # --- acting ------------------------------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do, with amounts.

        A raise is *to* a street total: at least the current bet plus the largest full bet or
        raise of this street (never less than a big blind, or than the straddle preflop when
        there is one), at most all-in. A player who has
        acted and since faced only all-ins for less than a full raise may just call or fold.
        Nobody may bet or raise when no other player could put in more than the current bet.
        Raises ``IllegalActionError`` when nobody is to act.
        """
        if self._legal is not None:
            return self._legal
        seat = self._to_act
        if seat is None:
            raise IllegalActionError(self._why_nobody_acts())
        stack, bet, current = self._stacks[seat], self._bets[seat], self._current_bet
        to_call = current - bet
        all_in_to = bet + stack
        may_aggress = (
            all_in_to > current
            and (not self._acted[seat] or current - self._acted_at[seat] >= self._last_raise)
            and self._others_can_call_more(seat)
        )
        opening = current == 0
        if may_aggress:
            min_to, max_to = min(current + self._last_raise, all_in_to), all_in_to
        else:
            min_to = max_to = 0
        self._legal = LegalActions(
            seat=seat,
            can_fold=True,
            can_check=to_call == 0,
            can_call=to_call > 0,
            call_amount=min(to_call, stack),
            can_bet=may_aggress and opening,
            can_raise=may_aggress and not opening,
            min_to=min_to,
            max_to=max_to,
            stack=stack,
        )
        return self._legal

    def act(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action; raise ``IllegalActionError`` (changing nothing) if not allowed.

        ``allin`` is read as the call, bet or raise that puts the whole stack in.
        """
        if self._to_act is None or seat != self._to_act:
            if self._to_act is None:
                raise IllegalActionError(self._why_nobody_acts())
            raise IllegalActionError(f"it is seat {self._to_act}'s turn, not seat {seat}'s")
        legal = self.legal_actions()
        concrete = self._resolve_all_in(seat, action)
        if not legal.allows(concrete):
            raise IllegalActionError(_why_illegal(legal, action))
        self._legal = None
        self._apply(seat, concrete)
        if self._live == 1:
            self._return_uncalled_bet()
            self._award_to_last_player()
            return
        next_seat = self._next_to_act((seat + 1) % self._seats)
        if next_seat is None:
            self._close_street()
        else:
            self._to_act = next_seat

    def choose_run_it_twice(self, agree: bool) -> None:
        """Answer the run-it-twice question: ``agree`` means every all-in player agreed.

        Agreed: the rest of the board is dealt twice from the same deck and each pot is split
        in two (the odd chip to the first run). Otherwise the board is dealt once. Raises
        ``IllegalActionError`` when the question is not being asked.
        """
        if not self._awaiting_run_it_twice:
            raise IllegalActionError("nobody is being asked to run it twice now")
        self._awaiting_run_it_twice = False
        self._events.append(RunItTwiceChosen(agree))
        self._run_out(runs=2 if agree else 1)

    def show_or_muck(self, seat: int, show: bool) -> None:
        """Answer for ``seat``, asked at showdown (``awaiting_show_or_muck``): show its losing
        hand, or muck it unseen. The pots are the same either way; once every asked seat has
        answered, the showdown is told in order and the pots are awarded.

        Raises ``IllegalActionError`` when ``seat`` is not being asked.
        """
        if seat not in self.awaiting_show_or_muck:
            raise IllegalActionError(f"seat {seat} is not being asked to show or muck")
        self._asked[seat] = bool(show)
        if not self.awaiting_show_or_muck:
            self._showdown()

    def can_show(self, seat: int) -> bool:
        """Whether ``seat`` may still show its cards: it won the hand without a showdown (all
        the others folded) and has not shown yet."""
        result = self._result
        return (result is not None and result.ended_by_folds and 0 <= seat < self._seats
                and not self._folded[seat] and seat not in self._shown)

    def show(self, seat: int, cards: Sequence[Card]) -> None:
        """The winner without a showdown shows one or both of its hole cards, once: they
        become public (``shown``, a ``Showed`` event after the awards); the rest stay private.

        Raises ``IllegalActionError`` when ``seat`` may not show (``can_show``) or ``cards``
        are not one or two of its own hole cards.
        """
        if not self.can_show(seat):
            raise IllegalActionError("only the player who won without a showdown may show, "
                                     "once")
        hole = self._hole[seat]
        if not cards or len(set(cards)) != len(cards) or any(card not in hole for card in cards):
            raise IllegalActionError("show one or both of your own hole cards")
        shown = tuple(card for card in hole if card in cards)
        self._shown[seat] = shown
        self._events.append(Showed(seat, shown))

    # --- rules -------------------------------------------------------------------------------

    def _post_forced_bets(self) -> int:
        """Post the antes, blinds and straddle; return the seat that opens the preflop."""
        if self.ante:
            for seat in dealing_order(self.num_seats, self.button):
                paid = self._put_in(seat, self.ante, into_bet=False)
                self._events.append(Posted(seat, Forced.ANTE, paid, self._stacks[seat] == 0))
        blinds = [
            (self.small_blind_seat, Forced.SMALL_BLIND, self.small_blind),
            (self.big_blind_seat, Forced.BIG_BLIND, self.big_blind),
        ]
        straddle_seat = self.straddle_seat
        if straddle_seat is not None:
            blinds.append((straddle_seat, Forced.STRADDLE, self.straddle_amount))
        for seat, forced, blind in blinds:
            if blind and self._stacks[seat]:
                paid = self._put_in(seat, blind, into_bet=True)
                self._events.append(Posted(seat, forced, paid, self._stacks[seat] == 0))
        # Preflop action starts left of the largest blind or straddle posted, the later one
        # on a tie: after the straddle, unless it was all-in for less than the big blind.
        largest = max(self._bets[seat] for seat, _, _ in blinds)
        last = [seat for seat, _, _ in blinds if self._bets[seat] == largest][-1]
        return (last + 1) % self._seats

    def _deal_hole_cards(self) -> None:
        order = dealing_order(self.num_seats, self.button)
        cards = self._deck.deal(2 * self.num_seats)
        for position, seat in enumerate(order):
            self._hole[seat] = (cards[position], cards[position + self.num_seats])
            self._events.append(HoleCardsDealt(seat, self._hole[seat]))

    def _put_in(self, seat: int, amount: int, *, into_bet: bool) -> int:
        paid = min(amount, self._stacks[seat])
        self._stacks[seat] -= paid
        self._contributions[seat] += paid
        if into_bet:
            self._bets[seat] += paid
        return paid

    def _start_street(self, street: Street) -> None:
        self._street = street
        if street is not Street.PREFLOP:
            self._bets = [0] * self._seats
        self._current_bet = max(self._bets)
        preflop = street is Street.PREFLOP
        self._last_raise = max(self.big_blind, self.straddle_amount) if preflop \
            else self.big_blind
        self._acted = [False] * self._seats
        first = self._preflop_first if preflop else (self.button + 1) % self._seats
        self._to_act = self._next_to_act(first)
        if self._to_act is None:
            self._close_street()

    def _can_act(self, seat: int) -> bool:
        return not self._folded[seat] and self._stacks[seat] > 0

    def _is_all_in(self, seat: int) -> bool:
        return not self._folded[seat] and self._stacks[seat] == 0

    def _others_can_call_more(self, seat: int) -> bool:
        """Could anyone else put in more than the current bet? If not, a raise is pointless."""
        folded, bets, stacks, current = self._folded, self._bets, self._stacks, self._current_bet
        for other in range(self._seats):
            if other != seat and not folded[other] and bets[other] + stacks[other] > current:
                return True
        return False

    def _next_to_act(self, start: int) -> int | None:
        """The first seat from ``start`` that needs to act: one that can act and owes chips,
        or that has not acted yet while someone else could answer it."""
        seats, folded, stacks = self._seats, self._folded, self._stacks
        bets, acted, current = self._bets, self._acted, self._current_bet
        for offset in range(seats):
            seat = (start + offset) % seats
            if folded[seat] or not stacks[seat]:
                continue
            if bets[seat] < current:
                return seat
            if not acted[seat] and any(
                not folded[other] and stacks[other] for other in range(seats) if other != seat
            ):
                return seat
        return None

    def _resolve_all_in(self, seat: int, action: Action) -> Action:
        if action.kind is not ActionKind.ALL_IN:
            return action
        all_in_to = self._bets[seat] + self._stacks[seat]
        if all_in_to <= self._current_bet:
            return Action(ActionKind.CALL)
        kind = ActionKind.BET if self._current_bet == 0 else ActionKind.RAISE
        return Action(kind, all_in_to)

    def _apply(self, seat: int, action: Action) -> None:
        kind = action.kind
        added = 0
        if kind is ActionKind.FOLD:
            self._folded[seat] = True
            self._live -= 1
        elif kind is ActionKind.CALL:
            added = self._put_in(seat, self._current_bet - self._bets[seat], into_bet=True)
        elif kind in (ActionKind.BET, ActionKind.RAISE):
            added = self._put_in(seat, action.amount - self._bets[seat], into_bet=True)
            raised_by = action.amount - self._current_bet
            if raised_by >= self._last_raise:
                self._last_raise = raised_by
            self._current_bet = action.amount
            if self._street is Street.RIVER:
                self._river_aggressor = seat
        self._acted[seat] = True
        self._acted_at[seat] = self._current_bet
        record = ActionRecord(
            seat=seat,
            street=self._street,
            kind=kind,
            added=added,
            to=self._bets[seat],
            is_all_in=not self._stacks[seat] and not self._folded[seat],
        )
        self._history.append(record)
        self._events.append(Acted(record))

    def _close_street(self) -> None:
        self._to_act = None
        self._return_uncalled_bet()
        if self._street is Street.RIVER:
            self._showdown()
        elif sum(not out and stack > 0
                 for out, stack in zip(self._folded, self._stacks, strict=True)) <= 1:
            if self.offer_run_it_twice:
                self._awaiting_run_it_twice = True
            else:
                self._run_out(runs=1)
        else:
            next_street = Street(self._street + 1)
            self._deal_street(next_street, run=0)
            self._start_street(next_street)

    def _return_uncalled_bet(self) -> None:
        """The part of the top bet that nobody matched goes back to its owner."""
        bets = self._bets
        top = max(bets)
        top_seat = bets.index(top)
        excess = top - max(bets[:top_seat] + bets[top_seat + 1:])
        if excess > 0:
            self._bets[top_seat] -= excess
            self._contributions[top_seat] -= excess
            self._stacks[top_seat] += excess
            self._current_bet = top - excess
            self._events.append(UncalledBetReturned(top_seat, excess))

    def _deal_street(self, street: Street, run: int) -> None:
        self._deck.burn()
        cards = tuple(self._deck.deal(_CARDS_DEALT_ON[street]))
        self._boards[run].extend(cards)
        self._events.append(StreetDealt(street, cards, run))

    def _run_out(self, runs: int) -> None:
        """Deal the rest of the board with no more betting, once or twice, then show down."""
        shared = list(self._boards[0])
        for run in range(runs):
            if run:
                self._boards.append(list(shared))
            for street in (Street.FLOP, Street.TURN, Street.RIVER):
                if len(self._boards[run]) < _BOARD_SIZE_AFTER[street]:
                    self._deal_street(street, run)
        self._showdown()

    def _showdown_order(self, live: list[int]) -> list[int]:
        """The river's last bettor shows first; else the first live seat left of the button."""
        if self._river_aggressor is not None and not self._folded[self._river_aggressor]:
            first = self._river_aggressor
        else:
            first = (self.button + 1) % self.num_seats
        return sorted(live, key=lambda seat: (seat - first) % self.num_seats)

    def _showdown(self) -> None:
        """Show or muck in showdown order, then award each pot (on each board) to its best hands.

        A player shows if all-in, or if on some board they beat or tie the best hand shown so
        far in some pot they are eligible for. Otherwise they muck with ``auto_muck``, and
        without it they are asked (``show_or_muck``): the hand waits until every one asked has
        answered. A hand that wins nothing changes no best hand, so those answers are
        independent of each other and of the pots.
        """
        self._street = Street.SHOWDOWN
        live = [seat for seat in range(self._seats) if not self._folded[seat]]
        pots = self.pots()
        runs = len(self._boards)
        ranks = {
            seat: tuple(evaluate([*self._hole[seat], *board]) for board in self._boards)
            for seat in live
        }
        best_shown = [[_NO_HAND] * len(pots) for _ in range(runs)]
        shows: list[tuple[int, bool]] = []
        for seat in self._showdown_order(live):
            contested = [index for index, pot in enumerate(pots) if seat in pot.eligible]
            contends = any(
                ranks[seat][run] <= best_shown[run][index]
                for run in range(runs)
                for index in contested
            )
            if contends or self._is_all_in(seat):
                for run in range(runs):
                    for index in contested:
                        best_shown[run][index] = min(best_shown[run][index], ranks[seat][run])
                shows.append((seat, True))
            elif self.auto_muck[seat]:
                shows.append((seat, False))
            else:
                shows.append((seat, bool(self._asked.setdefault(seat, None))))
        if self.awaiting_show_or_muck:
            return
        self._reveal(shows, ranks, pots)

    def _reveal(self, shows: list[tuple[int, bool]], ranks: dict[int, tuple[int, ...]],
                pots: list[Pot]) -> None:
        """Tell the showdown (``shows``: each seat in order, showing or not) and award the
        pots to the best hands shown."""
        boards = self.boards
        entries: list[ShowdownEntry] = []
        mucked: list[int] = []
        for seat, show in shows:
            if not show:
                mucked.append(seat)
                self._events.append(Mucked(seat))
                continue
            cards = self._hole[seat]
            entries.append(ShowdownEntry(seat, cards, ranks[seat], boards))
            self._shown[seat] = cards
            self._events.append(Showed(seat, cards))
        awards = []
        for index, pot in enumerate(pots):
            contenders = [seat for seat in pot.eligible if seat in self._shown]
            for run, amount in enumerate(_split_between_runs(pot.amount, len(boards))):
                best = min(ranks[seat][run] for seat in contenders)
                winners = [seat for seat in contenders if ranks[seat][run] == best]
                awards.append(self._award(index, run, amount, winners))
        self._finish(awards, tuple(entries), tuple(mucked), ended_by_folds=False)

    def _award_to_last_player(self) -> None:
        self._to_act = None
        self._street = Street.SHOWDOWN
        (winner,) = (seat for seat in range(self.num_seats) if not self._folded[seat])
        awards = [self._award(index, 0, pot.amount, [winner]) for index, pot in
                  enumerate(self.pots())]
        self._finish(awards, (), (), ended_by_folds=True)

    def _award(self, pot: int, run: int, amount: int, winners: list[int]) -> PotAward:
        shares = split_pot(amount, winners, self.button, self.num_seats)
        for seat, share in zip(winners, shares, strict=True):
            self._stacks[seat] += share
            self._events.append(Won(seat, share, pot, run))
        return PotAward(pot=pot, run=run, amount=amount, winners=tuple(winners),
                        shares=tuple(shares))

    def _finish(
        self,
        awards: list[PotAward],
        showdown: tuple[ShowdownEntry, ...],
        mucked: tuple[int, ...],
        *,
        ended_by_folds: bool,
    ) -> None:
        self._result = HandResult(
            final_stacks=self.stacks,
            net=tuple(
                final - start for final, start in zip(self._stacks, self.starting_stacks,
                                                      strict=True)
            ),
            awards=tuple(awards),
            showdown=showdown,
            mucked=mucked,
            ended_by_folds=ended_by_folds,
            boards=self.boards,
        )

    # --- errors ------------------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.num_seats:
            raise ValueError(f"there is no seat {seat!r}: seats are 0 to {self.num_seats - 1}")

    def _why_nobody_acts(self) -> str:
        if self.is_over:
            return "the hand is over"
        if self.awaiting_show_or_muck:
            return "nobody acts now: waiting for players to show or muck at showdown"
        return "nobody acts now: waiting for the run-it-twice choice"


_NO_HAND = 10_000  # worse than any rank


def _split_between_runs(amount: int, runs: int) -> list[int]:
    """A pot's part for each board: halves when run twice, the odd chip to the first run."""
    if runs == 1:
        return [amount]
    return [amount - amount // 2, amount // 2]


def _why_illegal(legal: LegalActions, action: Action) -> str:
    kind = action.kind
    if kind is ActionKind.CHECK:
        return f"cannot check: there are {legal.call_amount} chips to call"
    if kind is ActionKind.CALL:
        return "cannot call: there is no bet to call (check instead)"
    if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN):
        if kind is ActionKind.BET and legal.can_raise:
            return "cannot bet: there is already a bet (raise instead)"
        if kind is ActionKind.RAISE and legal.can_bet:
            return "cannot raise: there is no bet yet (bet instead)"
        if not legal.can_bet_or_raise:
            verb = "go all-in" if kind is ActionKind.ALL_IN else kind
            return f"cannot {verb}: betting is not open to you now, only call or fold"
        return (
            f"cannot {kind} to {action.amount}: the amount must be "
            f"{legal.min_to} to {legal.max_to}"
        )
    return f"{action} is not allowed now"


def _check_setup(
    stacks: Sequence[int], button: int, small_blind: int, big_blind: int, ante: int
) -> None:
    if not MIN_SEATS <= len(stacks) <= MAX_SEATS:
        raise ValueError(f"a hand needs {MIN_SEATS} to {MAX_SEATS} players, not {len(stacks)}")
    if any(not isinstance(stack, int) or stack <= 0 for stack in stacks):
        raise ValueError(f"every stack must be a whole number of chips above 0: {list(stacks)}")
    if not isinstance(button, int) or not 0 <= button < len(stacks):
        raise ValueError(f"the button must be a seat from 0 to {len(stacks) - 1}, not {button!r}")
    if big_blind <= 0 or not 0 <= small_blind <= big_blind:
        raise ValueError(
            f"blinds must satisfy 0 <= small blind <= big blind, big blind > 0: "
            f"{small_blind}/{big_blind}"
        )
    if ante < 0:
        raise ValueError(f"the ante cannot be negative: {ante}")

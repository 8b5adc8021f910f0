"""Coaching: what a player's hand is worth right now, and how their decisions in a settled hand
priced out.

``hint`` reads one player's view of a running hand: the starting hand's class, the made hand,
draws and their outs, and the share of the pot the hand wins on average against random hands
and against the ranges the opponents' actions imply. ``review`` plays a recorded hand again and
prices each of one player's decisions: the pot odds offered, their equity at that moment, the
expected value of each legal alternative and a verdict.

Both use only what that player could know, so they never reveal anyone else's cards: their own
hole cards, the board, the public actions and the cards shown at showdown. An opponent's range
is the hard bot's reading of those actions (``engine.strategies.hard``), so every figure
against a range is an estimate, and says so (``Hint.equity_vs_range``,
``Decision.estimated``).

>>> from engine.cards import parse_cards
>>> from engine.hand import Hand, deck_for
>>> deck = deck_for([parse_cards("7h 7d"), parse_cards("Ks 5c")], parse_cards("Kd 5h 2c 9s 3d"),
...                 button=0)
>>> hand = Hand([1000, 1000], button=0, small_blind=5, big_blind=10, deck=deck)
>>> found = hint(hand.view(0))
>>> found.starting_hand.label, 0.6 < found.equity_vs_random < 0.75
('77', True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from engine.actions import Action, ActionKind, LegalActions, Street
from engine.cards import Card, rank_of
from engine.equity import equity, equity_vs_random, equity_vs_ranges
from engine.evaluator import HandCategory, category, evaluate
from engine.evaluator_tables import HAND_CLASSES
from engine.events import Showed
from engine.hand import Hand
from engine.hand_record import RecordedHand
from engine.strategies.hand_reading import draws
from engine.strategies.hard import HardStrategy
from engine.strategies.preflop import HandClass, hand_class
from engine.strategies.ranges import Range
from engine.view import PlayerView

HINT_SAMPLES = 1000
"""Runouts per equity in a hint: two standard errors are about 3 points of equity, close
enough for a guide during play, and a 6-way spot stays within a few milliseconds (at 2,000
the multiway range deals took over 30 ms: ``python -m benchmarks.coach``)."""
REVIEW_SAMPLES = 6000
"""Runouts per estimated equity in a review, which has seconds rather than milliseconds:
about 1.3 points at two standard errors."""
CLOSE_EXACT = 0.02
"""A fold or call is close when the equity is within this of the equity the call needed (the
expected values then differ by at most this share of the pot after the call): 2 points, where
the equity is exact, leaves out only the coin flips."""
CLOSE_ESTIMATED = 0.08
"""The same against ranges read from the actions: that reading is the hard bot's of a typical
player, and preflop it knows nothing of position or of what later streets are worth to a
hand, so an estimate 8 points off is no clear mistake."""
CLOSE_SHARE = 0.2
"""Against estimated ranges a fold or call is close only within this share of the equity the
call needed as well: 19 % where a call needed 25 % is short by a quarter of it, a clear
mistake however rough the reading (8 points are close at 40 %, not at 25 %)."""
MOST_READ = 4
"""The most opponents a hint reads ranges for. Narrowed ranges collide when dealt together
and are dealt again: against four they took 20-55 ms on the shared test machine, against six
65-90 ms and against eight up to 280 ms, past a hint's 30 ms; and in a pot that crowded the
reading of each player says little."""
STRONG = HandCategory.STRAIGHT
"""Outs are the cards that lift a hand to a straight or better: the draws a player counts."""


class StraightDraw(Enum):
    """How many ranks would complete a straight for the hand."""

    NONE = 0
    GUTSHOT = 1
    """One rank (four cards) fills the gap."""
    OPEN_ENDED = 2
    """Two ranks (eight cards), open-ended or a double gutshot."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What one player's hand is worth now, from what that player can see."""

    starting_hand: HandClass
    made_rank: int | None
    """The evaluator rank of the best hand with the board (``None`` before the flop)."""
    flush_draw: bool
    straight_draw: StraightDraw
    outs: int
    """Unseen cards that would make a straight or better (0 on the river or with one made)."""
    out_hands: frozenset[HandCategory]
    """The hands those outs make (``FLUSH`` for a flush draw's nine), so that the outs can
    be named by what they make."""
    on_the_board: bool
    """The made hand's name comes from the board alone (``Pair of Threes`` with both threes
    there, ``High Card, Ace`` with the ace there): every player still in has it."""
    opponents: int
    """Players still in the hand besides this one."""
    equity_vs_random: float
    """The share of the pot won on average against ``opponents`` random hands."""
    equity_vs_range: float | None
    """The same against the ranges the actions of the opponents in the pot (``in_the_pot``)
    imply, an estimate; ``None`` while none of them has called, bet or raised (their range is
    any two cards, as above), with more than ``MOST_READ`` of them, or when those ranges can
    hardly ever be dealt together (``equity_vs_ranges`` gives up)."""


def hint(view: PlayerView, *, samples: int = HINT_SAMPLES,
         rng: random.Random | None = None) -> Hint:
    """The hint for the player whose view this is (``view.seat`` with hole cards).

    ``rng`` defaults to one seeded from the cards and the actions so far, so that asking
    twice in the same spot gives the same figures. Raises ``ValueError`` for a spectator's
    view (no seat or no hole cards).
    """
    seat = view.seat
    if seat is None or len(view.hole_cards) != 2:
        raise ValueError("a hint is for a player who holds two hole cards")
    rng = rng or random.Random(hash((view.hole_cards, view.board, len(view.history))))
    hole, board = view.hole_cards, view.board
    opponents = [other for other in view.live_seats if other != seat]
    made = evaluate([*hole, *board]) if board else None
    found = draws(hole, board)
    made_by_outs = _out_categories(hole, board)
    versus_range = None
    in_pot = in_the_pot(view)
    if 0 < len(in_pot) <= MOST_READ and any(
            record.seat in in_pot and record.kind in _VOLUNTARY for record in view.history):
        versus_range = _versus_ranges(view, in_pot, {}, samples, rng)
    return Hint(
        starting_hand=hand_class(hole),
        made_rank=made,
        flush_draw=found.flush_draw,
        straight_draw=StraightDraw(min(found.straight_ranks, 2)),
        outs=len(made_by_outs),
        out_hands=frozenset(made_by_outs),
        on_the_board=made is not None and named_by_the_board(made, board),
        opponents=len(opponents),
        equity_vs_random=equity_vs_random(hole, board, len(opponents), samples=samples,
                                          rng=rng) if opponents else 1.0,
        equity_vs_range=versus_range,
    )


_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
"""Actions that narrow a range (a check or a fold leaves it as it was for the reading)."""


def outs(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The unseen cards that would give a straight or better when the hand has none, on the
    flop or the turn (0 otherwise). On the turn a card that makes that hand on the board
    alone, for everyone, is no out.

    >>> from engine.cards import parse_cards
    >>> outs(parse_cards("Ah 5h"), parse_cards("Kh 9h 2c"))   # nine hearts
    9
    >>> outs(parse_cards("9c 8d"), parse_cards("Ts 7h 2c"))   # four jacks, four sixes
    8
    """
    return len(_out_categories(hole, board))


def out_hands(hole: Sequence[Card], board: Sequence[Card]) -> set[HandCategory]:
    """The hands the ``outs`` make.

    >>> from engine.cards import parse_cards
    >>> sorted(out_hands(parse_cards("7h 7d"), parse_cards("7c Kd 2s")))  # trips to fill up
    [<HandCategory.FOUR_OF_A_KIND: 2>, <HandCategory.FULL_HOUSE: 3>]
    """
    return set(_out_categories(hole, board))


def _out_categories(hole: Sequence[Card], board: Sequence[Card]) -> list[HandCategory]:
    """The category each out makes (see ``outs``), one per out."""
    if len(board) not in (3, 4) or category(evaluate([*hole, *board])) <= STRONG:
        return []
    known = {*hole, *board}
    made = []
    for card in range(52):
        if card in known:
            continue
        kind = category(evaluate([*hole, *board, card]))
        if kind > STRONG or (len(board) == 4 and category(evaluate([*board, card])) <= STRONG):
            continue
        made.append(kind)
    return made


_NAMED_COPIES = {
    HandCategory.HIGH_CARD: (1,), HandCategory.ONE_PAIR: (2,), HandCategory.TWO_PAIR: (2, 2),
    HandCategory.THREE_OF_A_KIND: (3,), HandCategory.FULL_HOUSE: (3, 2),
    HandCategory.FOUR_OF_A_KIND: (4,),
}
"""How many cards of each rank a hand's name uses (``Two Pair, Kings and Threes``: two kings,
two threes); a straight's or a flush's name uses all five cards."""


def named_by_the_board(rank: int, board: Sequence[Card]) -> bool:
    """True when the cards that give the hand of evaluator ``rank`` its name are all on the
    ``board``, so that every player still in has that hand at least.

    >>> from engine.cards import parse_cards
    >>> board = parse_cards("3c 3d As 9s Qd")
    >>> named_by_the_board(evaluate([*parse_cards("7h 2d"), *board]), board)  # Pair of Threes
    True
    >>> named_by_the_board(evaluate([*parse_cards("Ah 2d"), *board]), board)  # Two Pair, Aces
    False
    """
    kind, ranks = HAND_CLASSES[rank - 1]
    copies = _NAMED_COPIES.get(HandCategory(kind))
    if copies is None:  # a straight or a flush: the board's own five, or not
        return len(board) == 5 and evaluate(board) == rank
    on_board = Counter(rank_of(card) for card in board)
    return all(on_board[named] >= count for named, count in zip(ranks, copies, strict=False))


def estimated_range(view: PlayerView, seat: int) -> Range:
    """The range ``seat``'s public actions in this hand imply, read as the hard bot reads a
    player it has no notes on yet (a typical player's tendencies)."""
    return HardStrategy().range_of(view, seat)


class Verdict(Enum):
    """What a decision amounted to, by expected value."""

    GOOD = "good"
    """A fold or call whose equity was clearly on its side of what the call needed."""
    MISTAKE = "mistake"
    """A fold or call whose equity was clearly on the other side (``call_verdict``)."""
    CLOSE = "close"
    """A fold or call with an equity close to what the call needed."""
    VALUE = "value"
    """A bet or raise that wins more than checking or calling even when called."""
    NEEDS_FOLDS = "needs folds"
    """A bet or raise that wins less than checking or calling when called: it pays only
    through the folds it gets, which a review cannot know."""
    FREE = "free"
    """A check: it cost nothing."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """A legal action at a decision and its expected value in chips, counted from the moment
    of the decision (folding is 0), as if the hand went to showdown with no more betting and
    every opponent in the pot (``in_the_pot``) called a bet or raise."""

    action: Action
    expected: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the reviewed player's decisions, priced."""

    street: Street
    action: Action
    """What they did; an all-in reads as the call, bet or raise it was."""
    pot: int
    """The chips in the pot that a call would play for (an opponent's bet beyond what the
    player can call is left out: it goes back)."""
    to_call: int
    equity: float
    """The player's share of the pot at this moment against the opponents in the pot
    (``in_the_pot``)."""
    estimated: bool
    """``False`` when every one of those opponents showed their cards at showdown (the
    equity is exact), ``True`` when some were read as a range."""
    alternatives: tuple[Alternative, ...]
    verdict: Verdict
    chips: float
    """How much better the best of fold and call was than the other (for ``GOOD``,
    ``MISTAKE`` and ``CLOSE``), or the bet or raise than checking or calling when called (for
    ``VALUE`` and ``NEEDS_FOLDS``, as a loss for the latter); 0 for a check."""

    @property
    def needed(self) -> float | None:
        """The equity a call needs to break even (the pot odds), ``None`` with nothing to call."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else None


@dataclass(frozen=True, slots=True)
class Review:
    """One player's decisions in a settled hand, in order."""

    seat: int
    decisions: tuple[Decision, ...]

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The folds and calls on the clearly wrong side of the pot odds."""
        return tuple(decision for decision in self.decisions
                     if decision.verdict is Verdict.MISTAKE)


def review(record: RecordedHand, seat: int, *, samples: int = REVIEW_SAMPLES,
           rng: random.Random | None = None) -> Review:
    """Price each decision ``seat`` made in the settled hand ``record``.

    The equity at each decision is against the opponents in the pot (``in_the_pot``): exact
    (``engine.equity.equity``) when every one of them showed their cards at showdown, else
    estimated against the shown cards and the ranges the others' actions had implied by
    then. Nobody's unshown cards are used.

    Raises ``ValueError`` for a seat not in the hand, and ``IllegalActionError`` (from
    ``RecordedHand.steps``) for a record that does not fit the rules.
    """
    if not 0 <= seat < len(record.stacks):
        raise ValueError(f"seat {seat} is not in a hand of {len(record.stacks)} seats")
    rng = rng or random.Random(0)
    spots: list[tuple[PlayerView, Action]] = []
    final: Hand | None = None
    for hand in record.steps():
        final = hand
        taken = len(hand.history)
        if (not hand.is_over and not hand.awaiting_run_it_twice and hand.to_act == seat
                and taken < len(record.actions)):
            spots.append((hand.view(seat), record.actions[taken]))
    assert final is not None  # steps yields the hand as dealt at least
    shown: dict[int, tuple[Card, ...]] = {  # an opponent who showed one card: a range
        event.seat: event.cards for event in final.events
        if isinstance(event, Showed) and len(event.cards) == 2}
    return Review(seat, tuple(_decision(view, action, shown, samples, rng)
                              for view, action in spots))


def _decision(view: PlayerView, action: Action, shown: dict[int, tuple[Card, ...]],
              samples: int, rng: random.Random) -> Decision:
    seat, legal = view.seat, view.legal
    assert seat is not None and legal is not None  # the view of the player to act
    opponents = in_the_pot(view)
    share, estimated = _equity_now(view, opponents, shown, samples, rng)
    to_call = legal.call_amount
    reach = view.bets[seat] + to_call
    pot = view.pot - sum(max(0, view.bets[other] - reach) for other in opponents)
    action = _plain(action, legal)
    passive = Alternative(Action(ActionKind.CALL if to_call else ActionKind.CHECK),
                          share * (pot + to_call) - to_call)
    alternatives = [Alternative(Action(ActionKind.FOLD), 0.0)] if to_call else []
    alternatives.append(passive)
    aggressive = None
    if legal.can_bet_or_raise:
        total = action.amount if action.kind in (ActionKind.BET, ActionKind.RAISE) \
            else _pot_sized(view, legal, pot)
        aggressive = Alternative(
            Action(ActionKind.RAISE if legal.can_raise else ActionKind.BET, total),
            _called_value(view, opponents, pot, total, share))
        alternatives.append(aggressive)
    if aggressive is not None and action.kind in (ActionKind.BET, ActionKind.RAISE):
        gain = aggressive.expected - passive.expected
        verdict, chips = (Verdict.VALUE, gain) if gain >= 0 else (Verdict.NEEDS_FOLDS, -gain)
    elif not to_call:
        verdict, chips = Verdict.FREE, 0.0
    else:
        called = action.kind is ActionKind.CALL
        gain = passive.expected if called else -passive.expected  # over folding, or calling
        verdict = call_verdict(gain, pot + to_call, needed=to_call / (pot + to_call),
                               estimated=estimated)
        chips = abs(gain)
    return Decision(view.street, action, pot, to_call, share, estimated, tuple(alternatives),
                    verdict, chips)


def call_verdict(gain: float, pot_after_call: int, *, needed: float,
                 estimated: bool) -> Verdict:
    """The verdict on a fold or a call that gained ``gain`` chips on average over the other
    (``pot_after_call`` chips at stake, ``needed`` the equity the call needed): ``CLOSE``
    within ``CLOSE_EXACT`` of the pot, or against estimated ranges within ``CLOSE_ESTIMATED``
    and ``CLOSE_SHARE`` of ``needed``; else ``GOOD`` or ``MISTAKE``."""
    margin = min(CLOSE_ESTIMATED, CLOSE_SHARE * needed) if estimated else CLOSE_EXACT
    if abs(gain) <= margin * pot_after_call:
        return Verdict.CLOSE
    return Verdict.GOOD if gain > 0 else Verdict.MISTAKE


def in_the_pot(view: PlayerView) -> list[int]:
    """The opponents a decision is priced against: those still in who have acted or posted a
    blind. A player yet to act with nothing in is taken to fold, as most do: counted in,
    every first-in decision would face all the table's random hands (pocket queens limping
    under the gun would have 31 % against five of them, below the 40 % a limp needs)."""
    seat = view.seat
    acted = {record.seat for record in view.history}
    return [other for other in view.live_seats if other != seat
            and (other in acted or view.contributions[other] > view.ante)]


def _equity_now(view: PlayerView, opponents: Sequence[int], shown: dict[int, tuple[Card, ...]],
                samples: int, rng: random.Random) -> tuple[float, bool]:
    """The player's equity against ``opponents``, and whether it is estimated."""
    if not opponents:
        return 1.0, False
    if all(other in shown for other in opponents):
        return _exact_share((view.hole_cards, *(shown[other] for other in opponents)),
                            view.board), False
    share = _versus_ranges(view, opponents, shown, samples, rng)
    if share is None:  # the ranges read cannot be dealt together: any two cards instead
        share = _versus_ranges(view, opponents, shown, samples, rng, read=False)
    assert share is not None  # any two cards can always be dealt around the shown ones
    return share, True


def _versus_ranges(view: PlayerView, opponents: Sequence[int],
                   shown: dict[int, tuple[Card, ...]], samples: int, rng: random.Random, *,
                   read: bool = True) -> float | None:
    """The player's equity against the cards each opponent showed, and for the others the
    range their actions imply (``read``) or any two cards; ``None`` when those ranges can
    hardly ever be dealt together (several opponents read to hold the same few cards)."""
    combos, weights = [], []
    for other in opponents:
        if other in shown:
            combos.append(np.array([shown[other]]))
            weights.append(np.ones(1))
        else:
            dead = (*view.hole_cards, *view.board)
            hand_range = estimated_range(view, other) if read else Range.any_two(dead)
            combos.append(hand_range.combos)
            weights.append(hand_range.weights)
    try:
        return equity_vs_ranges(view.hole_cards, view.board, combos, weights=weights,
                                samples=samples, rng=rng)
    except ValueError:
        return None


@lru_cache(maxsize=64)
def _exact_share(holes: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> float:
    """The first hand's exact equity, kept: the decisions of one street face the same hands
    on the same board, and preflop enumerating the boards takes about 0.25 s."""
    return equity(holes, board)[0]


def _plain(action: Action, legal: LegalActions) -> Action:
    """An all-in as the call, bet or raise it amounts to."""
    if action.kind is not ActionKind.ALL_IN:
        return action
    if legal.stack <= legal.call_amount or not legal.can_bet_or_raise:
        return Action(ActionKind.CALL)
    return Action(ActionKind.RAISE if legal.can_raise else ActionKind.BET, legal.max_to)


def _pot_sized(view: PlayerView, legal: LegalActions, pot: int) -> int:
    """A pot-sized bet, or a raise by the pot after calling, within the legal sizes."""
    return max(legal.min_to, min(legal.max_to, view.current_bet + pot + legal.call_amount))


def _called_value(view: PlayerView, opponents: Sequence[int], pot: int, total: int,
                  share: float) -> float:
    """The value of betting or raising to ``total`` when every one of ``opponents`` calls (as
    far as their chips go) and the hand goes to showdown."""
    seat = view.seat
    assert seat is not None
    added = total - view.bets[seat]
    called = sum(min(total - view.bets[other], view.stacks[other]) for other in opponents
                 if total > view.bets[other])
    return share * (pot + added + called) - added

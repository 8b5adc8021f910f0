"""Pot equity: each player's expected share of the pot if the hand is played to showdown.

A player's share of one runout is 1 for a win, 1/k for a k-way tie and 0 for a loss; equity
is the average over runouts. ``equity`` enumerates every remaining board when there are few
enough (any two or more known hands preflop, the flop, the turn) and samples them otherwise.
``equity_vs_random`` and ``equity_vs_ranges`` estimate a hand against unknown opponents, for
the bots; they sample, vectorised with numpy, so a few thousand runouts take a few ms, and
given the equities a decision turns on they stop as soon as the answer is clear.

>>> from engine.cards import parse_cards
>>> [round(share, 4) for share in equity([parse_cards("AhKh"), parse_cards("QsQd")])]
[0.4621, 0.5379]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from engine.cards import Card, check_distinct
from engine.evaluator import BATCH_BLOCK, CARD_BITS, all_distinct, rank_keys, suited_masks
from engine.evaluator_tables import CARD_KEYS, CARD_KEYS_ARRAY

# The most boards enumerated exactly: a heads-up hand preflop leaves C(48, 5) boards.
EXACT_BOARD_LIMIT = comb(48, 5)
DEFAULT_SAMPLES = 100_000
BOARD_SIZE = 5


def card_combinations(cards: Sequence[Card], size: int) -> npt.NDArray[np.uint8]:
    """Every ``size``-card subset of ``cards``, one row each, in lexicographic order.

    Raises ``ValueError`` when ``size`` is negative or more than there are cards.

    >>> card_combinations([3, 5, 7, 9], 3).tolist()
    [[3, 5, 7], [3, 5, 9], [3, 7, 9], [5, 7, 9]]
    """
    pool = np.asarray(cards, dtype=np.uint8)
    if not 0 <= size <= len(pool):
        raise ValueError(f"cannot choose {size} cards from {len(pool)}")
    # suffixes[s] holds the combinations of the current width drawn from pool[s:].
    suffixes = [np.empty((1, 0), dtype=np.uint8)] * (len(pool) + 1)
    for width in range(1, size + 1):
        longer = [np.empty((0, width), dtype=np.uint8)] * (len(pool) + 1)
        for start in range(len(pool) - width, -1, -1):
            tails = suffixes[start + 1]
            heads = np.full((len(tails), 1), pool[start], dtype=np.uint8)
            longer[start] = np.concatenate([np.hstack([heads, tails]), longer[start + 1]])
        suffixes = longer
    return suffixes[0]


def equity(
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    samples: int | None = None,
    time_budget: float | None = None,
    rng: random.Random | None = None,
) -> list[float]:
    """Each player's share of the pot, from their two hole cards, the board and dead cards.

    Exact when no ``samples`` or ``time_budget`` is asked for and at most
    ``EXACT_BOARD_LIMIT`` boards remain, or when ``samples`` is at least the number of
    boards left. Otherwise Monte Carlo: ``samples`` runouts (default ``DEFAULT_SAMPLES``),
    stopping early when ``time_budget`` seconds have passed; ``rng`` makes it reproducible.

    Raises ``ValueError`` for no players, a hand that is not two cards, a repeated card, a
    board of 1, 2 or more than 5 cards, or a ``samples``/``time_budget`` that is not positive.

    >>> from engine.cards import parse_cards
    >>> equity([parse_cards("AsAd"), parse_cards("KsKd")], parse_cards("2c 7h Kh Ac"))
    [0.9772727272727273, 0.022727272727272728]
    """
    hands = [tuple(hole) for hole in holes]
    if not hands:
        raise ValueError("equity needs at least one player's hole cards")
    for hand in hands:
        _check_hole(hand)
    deck = _remaining_deck([card for hand in hands for card in hand], board, dead)
    missing = BOARD_SIZE - len(board)
    boards_left = comb(len(deck), missing)
    sampling = samples is not None or time_budget is not None
    if (not sampling and boards_left <= EXACT_BOARD_LIMIT) or (
        samples is not None and samples >= boards_left
    ):
        return _exact_equity(hands, board, deck, missing)
    return _sampled_equity(
        hands, board, deck, missing, _sample_count(samples, time_budget), time_budget, rng
    )


def _sample_count(samples: int | None, time_budget: float | None) -> int:
    if samples is not None and samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if time_budget is not None and time_budget <= 0:
        raise ValueError(f"time_budget must be positive, not {time_budget}")
    if samples is not None:
        return samples
    return DEFAULT_SAMPLES if time_budget is None else 1 << 62


def _exact_equity(
    holes: list[tuple[Card, ...]], board: Sequence[Card], deck: list[Card], missing: int
) -> list[float]:
    runouts = card_combinations(deck, missing)
    totals = np.zeros(len(holes))
    for start in range(0, len(runouts), BATCH_BLOCK):
        totals += _showdown_shares(holes, board, runouts[start:start + BATCH_BLOCK].T).sum(axis=1)
    shares: list[float] = (totals / len(runouts)).tolist()
    return shares


def _sampled_equity(
    holes: list[tuple[Card, ...]],
    board: Sequence[Card],
    deck: list[Card],
    missing: int,
    samples: int,
    time_budget: float | None,
    rng: random.Random | None,
) -> list[float]:
    generator = _numpy_generator(rng)
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    totals = np.zeros(len(holes))
    done = 0
    while done < samples and (deadline is None or done == 0 or time.perf_counter() < deadline):
        size = min(BATCH_BLOCK, samples - done)
        runouts = draw_cards(deck, missing, size, generator)
        totals += _showdown_shares(holes, board, runouts.T).sum(axis=1)
        done += size
    shares: list[float] = (totals / done).tolist()
    return shares


def equity_vs_random(
    hole: Sequence[Card],
    board: Sequence[Card] = (),
    opponents: int = 1,
    *,
    samples: int = 1000,
    rng: random.Random | None = None,
    dead: Sequence[Card] = (),
    thresholds: Sequence[float] = (),
) -> float:
    """The share of the pot ``hole`` wins on average against ``opponents`` random hands.

    Monte Carlo over ``samples`` deals of the opponents' cards and the rest of the board
    (fewer when clear of every one of ``thresholds``: see ``equity_vs_ranges``).

    Raises ``ValueError`` for bad cards (as ``equity``), ``opponents`` outside 1-22, too few
    cards left to deal them, or ``samples`` below 1.

    >>> from engine.cards import parse_cards
    >>> aces = equity_vs_random(parse_cards("AsAh"), samples=20_000, rng=random.Random(1))
    >>> 0.84 < aces < 0.86
    True
    """
    hero = tuple(hole)
    _check_hole(hero)
    if not 1 <= opponents <= 22:
        raise ValueError(f"opponents must be between 1 and 22, not {opponents}")
    _sample_count(samples, None)
    deck = _remaining_deck(hero, board, dead)
    missing = BOARD_SIZE - len(board)
    if len(deck) < 2 * opponents + missing:
        raise ValueError(f"not enough cards left to deal {opponents} opponents")
    generator = _numpy_generator(rng)

    def deal(size: int) -> npt.NDArray[np.float64]:
        columns = draw_cards(deck, 2 * opponents + missing, size, generator).T
        return _hero_shares(hero, board, columns[2 * opponents:], columns[:2 * opponents])

    return _mean_share(deal, samples, thresholds)


def equity_vs_ranges(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponent_ranges: Sequence[Sequence[tuple[Card, Card]] | npt.NDArray[np.integer]],
    *,
    weights: Sequence[Sequence[float] | npt.NDArray[np.floating]] | None = None,
    samples: int = 1000,
    rng: random.Random | None = None,
    dead: Sequence[Card] = (),
    thresholds: Sequence[float] = (),
) -> float:
    """The share of the pot ``hole`` wins on average against opponents holding given ranges.

    ``opponent_ranges[i]`` lists the hole-card pairs opponent ``i`` may hold (pairs, or an
    array of shape (m, 2)); ``weights[i]`` (if given) says how likely each pair is, relative
    to the others (uniform otherwise). Pairs that use a known card (``hole``, ``board``,
    ``dead``) or weigh 0 are dropped; deals in which two opponents would share a card are
    redrawn. On the river against a single range nothing is left to chance but the
    opponent's pair, so every pair is weighed and the answer is exact.

    With ``thresholds`` (the equities a decision turns on, like the pot odds), sampling stops
    before ``samples`` once the estimate is clearly above or below each of them, so clear
    decisions cost a fraction of close ones.

    Raises ``ValueError`` for bad cards (as ``equity``), no ranges, malformed ranges or
    weights, a range with no live pair, or ranges that can hardly ever be dealt together.

    >>> from engine.cards import parse_cards
    >>> kings = [(parse_cards("Kc")[0], parse_cards("Kd")[0])]
    >>> equity_vs_ranges(parse_cards("AsAh"), parse_cards("2c 7d 9h Ts 3s"), [kings])
    1.0
    """
    hero = tuple(hole)
    _check_hole(hero)
    deck = _remaining_deck(hero, board, dead)
    if not len(opponent_ranges):
        raise ValueError("equity_vs_ranges needs at least one opponent range")
    if weights is not None and len(weights) != len(opponent_ranges):
        raise ValueError("weights must give one list per opponent range")
    _sample_count(samples, None)
    live_cards = np.zeros(52, dtype=bool)
    live_cards[deck] = True
    choices = [
        _live_range(opponent, pairs, None if weights is None else weights[opponent], live_cards)
        for opponent, pairs in enumerate(opponent_ranges)
    ]
    missing = BOARD_SIZE - len(board)
    if len(deck) < missing + 2 * len(choices):
        raise ValueError(f"not enough cards left to deal {len(choices)} opponents")
    if not missing and len(choices) == 1:
        return _river_share_against(hero, board, *choices[0])
    generator = _numpy_generator(rng)

    def deal(size: int) -> npt.NDArray[np.float64]:
        opponent_cards = _deal_ranges(choices, size, generator)
        runouts = _draw_board_around(deck, missing, opponent_cards, generator)
        return _hero_shares(hero, board, runouts.T, opponent_cards.T)

    return _mean_share(deal, samples, thresholds)


FIRST_LOOK = 64
"""Samples before an early-stopping simulation first checks whether the answer is clear."""
CLEAR_Z = 2.58
"""How many standard errors from a threshold count as clear (about 99% one look)."""


def _mean_share(
    deal: Callable[[int], npt.NDArray[np.float64]], samples: int, thresholds: Sequence[float]
) -> float:
    """The mean of up to ``samples`` shares from ``deal(size)``: all at once without
    ``thresholds``, else in doubling batches (64, 128, 256, ...; the last takes all that is
    left rather than leave a small remainder) until clear of them."""
    if not thresholds:
        return float(deal(samples).mean())
    total, done, size = 0.0, 0, FIRST_LOOK
    while done < samples:
        left = samples - done
        batch = left if left < 3 * size else size  # no small batch at the end
        total += float(deal(batch).sum())
        done += batch
        if _clear_of(total, done, thresholds):
            break
        size *= 2
    return total / done


def _clear_of(total: float, done: int, thresholds: Sequence[float]) -> bool:
    """Is the mean share ``total / done`` clearly away from every threshold?

    Shares lie in [0, 1], so their variance is at most p(1 - p) for mean p; p is taken with
    one win and one loss added, so that a run of all wins or all losses is not over-trusted.
    """
    mean = total / done
    shrunk = (total + 1) / (done + 2)
    margin = CLEAR_Z * sqrt(shrunk * (1 - shrunk) / done)
    return all(abs(mean - threshold) > margin for threshold in thresholds)


def _river_share_against(
    hole: tuple[Card, ...],
    board: Sequence[Card],
    pairs: npt.NDArray[np.uint8],
    cumulative: npt.NDArray[np.float64],
) -> float:
    """The exact share of ``hole`` on a full board against one pair drawn by probability."""
    hero = _seven_card_ranks((*hole, *board), [], 1)[0]
    rivals = _seven_card_ranks(board, [pairs[:, 0], pairs[:, 1]], len(pairs))
    shares = np.where(hero < rivals, 1.0, np.where(hero == rivals, 0.5, 0.0))
    return float(np.dot(np.diff(cumulative, prepend=0.0), shares))


def _live_range(
    opponent: int,
    pairs: Sequence[tuple[Card, Card]] | npt.NDArray[np.integer],
    weights: Sequence[float] | npt.NDArray[np.floating] | None,
    live_cards: npt.NDArray[np.bool],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """The pairs of one range that avoid known cards, and their cumulative probabilities."""
    chosen = np.asarray(pairs)
    if chosen.ndim != 2 or chosen.shape[1] != 2 or chosen.dtype.kind not in "iu":
        raise ValueError(f"opponent {opponent}: a range is a list of two-card pairs")
    if len(chosen) and not 0 <= chosen.min() <= chosen.max() <= 51:
        raise ValueError(f"opponent {opponent}: card ids must be between 0 and 51")
    first, second = chosen[:, 0], chosen[:, 1]
    if (first == second).any():
        raise ValueError(f"opponent {opponent}: a pair cannot hold the same card twice")
    if weights is None:
        likelihood = np.ones(len(chosen))
    else:
        likelihood = np.asarray(weights, dtype=float)
        if likelihood.shape != (len(chosen),):
            raise ValueError(
                f"opponent {opponent}: {len(likelihood)} weights for {len(chosen)} pairs")
        if len(likelihood) and (likelihood.min() < 0 or not np.isfinite(likelihood.sum())):
            raise ValueError(f"opponent {opponent}: weights must be finite and not negative")
    kept = live_cards[first] & live_cards[second] & (likelihood > 0)
    if not kept.any():
        raise ValueError(f"opponent {opponent}: every hand in the range uses a known card")
    cumulative = np.cumsum(likelihood[kept])
    return chosen[kept].astype(np.uint8), cumulative / cumulative[-1]


def _deal_ranges(
    choices: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
    samples: int,
    generator: np.random.Generator,
) -> npt.NDArray[np.uint8]:
    """Draw every opponent's pair for each sample, redrawing samples where two collide."""
    dealt = np.empty((samples, 2 * len(choices)), dtype=np.uint8)
    pending = np.arange(samples)
    for _ in range(100):
        for opponent, (pairs, cumulative) in enumerate(choices):
            picks = np.searchsorted(cumulative, generator.random(len(pending)), side="right")
            dealt[pending, 2 * opponent:2 * opponent + 2] = pairs[
                np.minimum(picks, len(pairs) - 1)]
        if len(choices) == 1:
            return dealt
        pending = pending[~all_distinct(dealt[pending].T)]
        if not len(pending):
            return dealt
    raise ValueError("the opponents' ranges can hardly ever be dealt together")


def _draw_board_around(
    deck: list[Card],
    missing: int,
    opponent_cards: npt.NDArray[np.uint8],
    generator: np.random.Generator,
) -> npt.NDArray[np.uint8]:
    """Per sample, ``missing`` random board cards from ``deck`` avoiding that sample's
    opponent cards (distinct cards of ``deck``).

    Draws at random and redraws the rows that hit a taken card while most rows come out
    right; otherwise takes the first untaken cards of a random ordering.
    """
    size, held = opponent_cards.shape
    if not missing:
        return np.empty((size, 0), dtype=np.uint8)
    pool = np.asarray(deck, dtype=np.uint8)
    if _odds_of_missing(held, missing, len(pool)) >= 0.5:
        taken = np.bitwise_or.reduce(np.take(CARD_BITS, opponent_cards), axis=1)
        drawn = pool[generator.integers(0, len(pool), size=(size, missing))]
        pending = np.arange(size)
        while len(pending):
            bits = taken[pending] | np.bitwise_or.reduce(np.take(CARD_BITS, drawn[pending]),
                                                         axis=1)
            pending = pending[np.bitwise_count(bits) != held + missing]
            drawn[pending] = pool[generator.integers(0, len(pool), size=(len(pending), missing))]
        return drawn
    drawn = draw_cards(deck, missing + opponent_cards.shape[1], len(opponent_cards), generator)
    taken = (drawn[:, :, None] == opponent_cards[:, None, :]).any(axis=2)
    first_free = np.argsort(taken, axis=1, kind="stable")[:, :missing]
    return np.take_along_axis(drawn, first_free, axis=1)


def _odds_of_missing(taken: int, count: int, pool: int) -> float:
    """The chance that ``count`` cards drawn with replacement from ``pool`` are distinct and
    miss ``taken`` given cards of it."""
    odds = 1.0
    for drawn in range(taken, taken + count):
        odds *= 1 - drawn / pool
    return odds


def draw_cards(
    deck: Sequence[Card], count: int, size: int, generator: np.random.Generator
) -> npt.NDArray[np.uint8]:
    """``size`` independent draws of ``count`` distinct cards from ``deck``, in random order.

    Draws with replacement and redraws rows with a repeat while that is cheap (most rows
    are fine); otherwise shuffles the front of a per-row copy of the deck (Fisher-Yates).
    Raises ``ValueError`` when ``count`` exceeds the deck.
    """
    pool = np.asarray(deck, dtype=np.uint8)
    if count > len(pool):
        raise ValueError(f"cannot draw {count} cards from {len(pool)}")
    if _odds_of_missing(0, count, len(pool)) < 0.5:
        return _shuffled_fronts(pool, count, size, generator)
    drawn = pool[generator.integers(0, len(pool), size=(size, count))]
    repeated = np.flatnonzero(~all_distinct(drawn.T))
    while len(repeated):
        drawn[repeated] = pool[generator.integers(0, len(pool), size=(len(repeated), count))]
        repeated = repeated[~all_distinct(drawn[repeated].T)]
    return drawn


def _shuffled_fronts(
    pool: npt.NDArray[np.uint8], count: int, size: int, generator: np.random.Generator
) -> npt.NDArray[np.uint8]:
    decks = np.tile(pool, (size, 1))
    rows = np.arange(size)
    for position in range(count):
        swap = position + generator.integers(0, len(pool) - position, size=size)
        picked = decks[rows, swap]
        decks[rows, swap] = decks[:, position]
        decks[:, position] = picked
    return decks[:, :count]


def _showdown_shares(
    holes: list[tuple[Card, ...]], board: Sequence[Card], runouts: npt.NDArray[np.uint8]
) -> npt.NDArray[np.float64]:
    """Each player's pot share (rows) for each runout (columns of ``runouts``)."""
    samples = runouts.shape[1]
    ranks = np.stack([_seven_card_ranks((*hole, *board), runouts, samples) for hole in holes])
    winners = ranks == ranks.min(axis=0)
    shares: npt.NDArray[np.float64] = winners / winners.sum(axis=0)
    return shares


def _hero_shares(
    hole: tuple[Card, ...],
    board: Sequence[Card],
    runouts: npt.NDArray[np.uint8],
    opponent_cards: npt.NDArray[np.uint8],
) -> npt.NDArray[np.float64]:
    """Pot share of ``hole`` against the opponents' pairs (``opponent_cards`` rows 2i, 2i+1
    for opponent i) in each sample (one per column).

    Every player's hand in every sample is ranked in one batch: hero first, then each
    opponent, each block of columns with the same runouts.
    """
    samples = runouts.shape[1]
    players = 1 + len(opponent_cards) // 2
    hero_pair = np.broadcast_to(np.asarray(hole, dtype=np.uint8)[:, None], (2, samples))
    rival_pairs = opponent_cards.reshape(players - 1, 2, samples).transpose(1, 0, 2)
    pairs = np.concatenate([hero_pair, rival_pairs.reshape(2, -1)], axis=1)
    shared = np.tile(runouts, (1, players))
    ranks = _seven_card_ranks(board, [*pairs, *shared], players * samples)
    ranks = ranks.reshape(players, samples)
    hero, rivals = ranks[0], ranks[1:]
    best_rival = rivals.min(axis=0)
    ties = (rivals == hero).sum(axis=0)
    return np.where(hero < best_rival, 1.0, np.where(hero == best_rival, 1.0 / (1 + ties), 0.0))


def _seven_card_ranks(
    fixed: Sequence[Card],
    variable: Sequence[npt.NDArray[np.integer]] | npt.NDArray[np.integer],
    samples: int,
) -> npt.NDArray[np.uint16]:
    """Ranks of the ``fixed`` cards (the same in every sample) plus one card from each
    ``variable`` array, or row of a 2-D array (one entry per sample); seven cards in all."""
    key = np.full(samples, sum(CARD_KEYS[card] for card in fixed), dtype=np.uint32)
    for column in variable:
        key += np.take(CARD_KEYS_ARRAY, column)
    cards: list[npt.NDArray[np.integer] | Card] = [*fixed, *variable]
    return rank_keys(key, 7, lambda rows, suits: suited_masks(cards, rows, suits))


def _check_hole(hole: tuple[Card, ...]) -> None:
    if len(hole) != 2:
        raise ValueError(f"hole cards are two cards, not {len(hole)}")


def _remaining_deck(
    known: Sequence[Card], board: Sequence[Card], dead: Sequence[Card]
) -> list[Card]:
    """The cards not known to be anywhere, after checking that known cards are distinct."""
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, not {len(board)}")
    everything = [*known, *board, *dead]
    check_distinct(everything)
    used = set(everything)
    return [card for card in range(52) if card not in used]


def _numpy_generator(rng: random.Random | None) -> np.random.Generator:
    """A numpy generator seeded from ``rng`` (reproducible) or from the OS entropy pool."""
    return np.random.default_rng(None if rng is None else rng.getrandbits(128))

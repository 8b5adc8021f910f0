"""Hand evaluator and equity speed, side by side with the installed peer evaluators.

    python -m benchmarks.evaluator            # table of evaluations per second and ratios
    python -m benchmarks.evaluator --json     # the same figures as one JSON object
    python -m benchmarks.evaluator --all7     # all 133,784,560 seven-card hands, both cores

Every evaluator ranks the same random seven-card hands; per-call evaluators (ours and the
peers) run on a prefix of them, since calling from Python costs the same for every hand.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import time
from collections.abc import Callable
from math import comb
from multiprocessing import Pool
from typing import TypedDict

import numpy as np

from engine import evaluator_tables
from engine.cards import card_str, parse_cards
from engine.equity import card_combinations, equity
from engine.evaluator import HandCategory, category, evaluate, evaluate_batch

Timer = Callable[[np.ndarray], float]


class Figures(TypedDict):
    """What ``measure`` found: rates and speed ratios by evaluator, equity timings."""

    hands: int
    evaluations_per_second: dict[str, float]
    batch_speedup: dict[str, float]
    evaluate_speedup: dict[str, float]
    exact_preflop_equity_seconds: float
    monte_carlo_runouts_per_second: float
    table_megabytes: float


class AllHandsFigures(TypedDict):
    """What ``--all7`` found: every seven-card hand counted by category."""

    hands: int
    seconds: float
    categories: dict[str, int]


def _seconds(run: Callable[[], object], repeats: int = 3) -> float:
    """Best wall time of ``repeats`` runs (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` random seven-card hands, one row each."""
    keys = np.random.default_rng(seed).random((count, 52))
    return np.argpartition(keys, 7, axis=1)[:, :7].astype(np.uint8)


def _time_evaluate(hands: np.ndarray) -> float:
    rows = hands.tolist()
    return _seconds(lambda: [evaluate(row) for row in rows])


def _time_batch(hands: np.ndarray) -> float:
    return _seconds(lambda: evaluate_batch(hands))


def _time_phevaluator(hands: np.ndarray) -> float:
    from phevaluator import evaluate_cards

    rows = hands.tolist()
    return _seconds(lambda: [evaluate_cards(*row) for row in rows])


def _time_eval7(hands: np.ndarray) -> float:
    import eval7

    rows = [[eval7.Card(card_str(card)) for card in row] for row in hands.tolist()]
    return _seconds(lambda: [eval7.evaluate(row) for row in rows])


def _time_treys(hands: np.ndarray) -> float:
    from treys import Card, Evaluator

    evaluator = Evaluator()
    rows = [[Card.new(card_str(card)) for card in row] for row in hands.tolist()]
    return _seconds(lambda: [evaluator.evaluate(row[:2], row[2:]) for row in rows])


def _time_pokerkit(hands: np.ndarray) -> float:
    from pokerkit import StandardHighHand

    rows = [("".join(card_str(c) for c in row[:2]), "".join(card_str(c) for c in row[2:]))
            for row in hands.tolist()]
    return _seconds(lambda: [StandardHighHand.from_game(hole, board) for hole, board in rows],
                    repeats=1)


# name, timer, share of the hands it ranks (slow per-call evaluators get fewer), module needed
CONTENDERS: tuple[tuple[str, Timer, int, str | None], ...] = (
    ("evaluate", _time_evaluate, 10, None),
    ("evaluate_batch", _time_batch, 1, None),
    ("phevaluator", _time_phevaluator, 10, "phevaluator"),
    ("eval7", _time_eval7, 10, "eval7"),
    ("treys", _time_treys, 100, "treys"),
    ("pokerkit", _time_pokerkit, 1000, "pokerkit"),
)


def table_bytes() -> int:
    """Memory held by the evaluator's lookup tables."""
    arrays: list[np.ndarray] = [
        evaluator_tables.FLUSH_RANKS, evaluator_tables.NOFLUSH7_RANKS,
        evaluator_tables.FLUSH_SUITS, evaluator_tables.CARD_KEYS_ARRAY,
        evaluator_tables.NOFLUSH5.keys, evaluator_tables.NOFLUSH5.ranks,
        evaluator_tables.NOFLUSH6.keys, evaluator_tables.NOFLUSH6.ranks,
    ]
    return sum(array.nbytes for array in arrays)


def measure(count: int, seed: int) -> Figures:
    """Evaluations per second of each available evaluator, and equity timings."""
    hands = random_hands(count, seed)
    rates: dict[str, float] = {}
    for name, timer, share, module in CONTENDERS:
        if module is not None and importlib.util.find_spec(module) is None:
            continue
        subset = hands[:max(count // share, 1)]
        rates[name] = len(subset) / timer(subset)
    preflop = [parse_cards("AhKh"), parse_cards("QsQd")]
    samples = 1_000_000
    return {
        "hands": count,
        "evaluations_per_second": rates,
        "batch_speedup": {name: rates["evaluate_batch"] / rate for name, rate in rates.items()},
        "evaluate_speedup": {name: rates["evaluate"] / rate for name, rate in rates.items()},
        "exact_preflop_equity_seconds": _seconds(lambda: equity(preflop)),
        "monte_carlo_runouts_per_second": samples / _seconds(
            lambda: equity(preflop, samples=samples, rng=random.Random(seed))
        ),
        "table_megabytes": table_bytes() / 1e6,
    }


def print_table(figures: Figures) -> None:
    rates = figures["evaluations_per_second"]
    print(f"{figures['hands']:,} random 7-card hands")
    print(f"{'evaluator':<16}{'hands/s':>14}{'batch ×':>10}{'evaluate ×':>12}")
    for name, rate in rates.items():
        print(f"{name:<16}{rate:>14,.0f}{figures['batch_speedup'][name]:>10.1f}"
              f"{figures['evaluate_speedup'][name]:>12.1f}")
    print(f"exact heads-up preflop equity: {figures['exact_preflop_equity_seconds']:.3f} s")
    print(f"Monte Carlo: {figures['monte_carlo_runouts_per_second']:,.0f} runouts/s")
    print(f"lookup tables: {figures['table_megabytes']:.1f} MB")


_FIVE_CARD_TAILS = card_combinations(range(52), 5)


def _rank_counts_after(prefix: tuple[int, int]) -> np.ndarray:
    """How many seven-card hands starting with ``prefix`` have each rank."""
    first, second = prefix
    # Lexicographic order: the tails drawn from cards above ``second`` are the last ones.
    tails = _FIVE_CARD_TAILS[len(_FIVE_CARD_TAILS) - comb(51 - second, 5):]
    hands = np.empty((len(tails), 7), dtype=np.uint8)
    hands[:, 0], hands[:, 1], hands[:, 2:] = first, second, tails
    return np.bincount(evaluate_batch(hands), minlength=7463)


def all_seven_card_hands(workers: int) -> tuple[dict[str, int], float]:
    """Category counts over every seven-card hand, and the seconds it took."""
    prefixes = [(a, b) for a in range(52) for b in range(a + 1, 47)]
    start = time.perf_counter()
    with Pool(workers) as pool:
        ranks = np.zeros(7463, dtype=np.int64)
        for part in pool.imap_unordered(_rank_counts_after, prefixes, chunksize=8):
            ranks += part
    elapsed = time.perf_counter() - start
    counts = dict.fromkeys((kind.name for kind in HandCategory), 0)
    for rank in np.flatnonzero(ranks):
        counts[category(int(rank)).name] += int(ranks[rank])
    return counts, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--all7", action="store_true", help="rank all 133,784,560 hands")
    parser.add_argument("--hands", type=int, default=2_000_000, help="random hands to rank")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    if arguments.all7:
        counts, elapsed = all_seven_card_hands(arguments.workers)
        everything: AllHandsFigures = {
            "hands": sum(counts.values()), "seconds": elapsed, "categories": counts,
        }
        if arguments.json:
            print(json.dumps(everything))
            return
        for name, count in counts.items():
            print(f"{name.replace('_', ' ').lower():<16}{count:>14,}")
        print(f"{'total':<16}{everything['hands']:>14,} in {elapsed:.2f} s "
              f"with {arguments.workers} processes")
        return
    figures = measure(arguments.hands, arguments.seed)
    if arguments.json:
        print(json.dumps(figures))
    else:
        print_table(figures)


if __name__ == "__main__":
    main()

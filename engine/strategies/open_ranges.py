"""Opening ranges by position and stack depth from a solved model:
``python -m engine.strategies.open_ranges`` writes ``data/open_ranges.npz``, the expert reads it.

The model is a one-decision game the push/fold solver's machinery solves (fictitious play over
the 169 classes with card removal, see ``engine.strategies.solve``): the first player in
raises to 2.5 big blinds or folds; each player behind in turn folds, calls, or re-raises all-in
for the effective stack; the first who does not fold plays the raiser heads-up (nobody
overcalls or squeezes); a called raise goes to showdown with the pot shared by all-in equity,
and the raiser facing an all-in calls or folds by pot odds. Every player best-responds to the
others' average strategies, so the ranges are that game's equilibrium, not typed by hand.

What the model leaves out shows in its ranges: a flat call realizes all of its equity (no
one is bluffed off a hand after the flop), so the players behind defend wider than real
players, and raising from early position, which meets fewer such callers in practice, is
narrower in published solver charts (about 15 % under the gun at 6-max, 100 bb) than here
(about 32 %). Heads-up at 100 bb it opens about 73 % of hands, close to published solver
charts (70-85 %), and short, where re-raising all-in is the main threat, it agrees with the
push/fold equilibrium's shapes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from engine.strategies.solve import (
    DATA_PACKAGE,
    MAX_BEHIND,
    Floats,
    blinds_posted,
    load_equity,
    range_share,
)

OPEN_FILE = "data/open_ranges.npz"
DEPTHS: tuple[float, ...] = (10, 12.5, 15, 17.5, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200)
"""Effective stacks solved, in big blinds."""
RAISE_TO = 2.5
"""The opening raise, in big blinds: the hard and expert bots' heads-up size."""
ITERATIONS = 600
"""Fictitious-play rounds per spot: the opening shares move by under 0.5 % of hands between
400 and 600 rounds."""


def solve_open(equity: Floats, pairs: Floats, stack: float, behind: int,
               iterations: int = ITERATIONS) -> Floats:
    """How often each class raises first in with ``behind`` players to act and ``stack`` big
    blinds (the model in the module's docstring). Raises ``ValueError`` for no one behind."""
    own, theirs = blinds_posted(behind)
    size = len(equity)
    seen = pairs.sum(axis=1)
    weighted = pairs * equity
    opens = np.ones(size)
    calls = [np.full(size, 0.5) for _ in theirs]
    jams = [np.full(size, 0.1) for _ in theirs]
    answers = [np.ones(size) for _ in theirs]  # the raiser calls an all-in re-raise
    for round_number in range(1, iterations + 1):
        weight = 1 / round_number
        reach = np.ones(size)
        value = np.zeros(size)
        best_answers = []
        for blind, call, jam in zip(theirs, calls, jams, strict=True):
            called_pot = 2 * RAISE_TO + 1.5 - own - blind
            all_in_pot = 2 * stack + 1.5 - own - blind
            calling, jamming = pairs @ call, pairs @ jam
            versus_call = weighted @ call / np.maximum(calling, 1e-12)
            versus_jam = weighted @ jam / np.maximum(jamming, 1e-12)
            answer_value = versus_jam * all_in_pot - stack
            best_answers.append((answer_value > -RAISE_TO).astype(float))
            value += reach * (calling / seen * (versus_call * called_pot - RAISE_TO)
                              + jamming / seen * np.maximum(answer_value, -RAISE_TO))
            reach *= 1 - (calling + jamming) / seen
        value += reach * (1.5 - own)
        best_open = (value > -own).astype(float)
        raising = pairs @ opens
        best_calls, best_jams = [], []
        for blind, answer in zip(theirs, answers, strict=True):
            called_pot = 2 * RAISE_TO + 1.5 - own - blind
            all_in_pot = 2 * stack + 1.5 - own - blind
            call_value = weighted @ opens / np.maximum(raising, 1e-12) * called_pot - RAISE_TO
            answered = pairs @ (opens * answer)
            folds = 1 - answered / np.maximum(raising, 1e-12)
            versus_answer = weighted @ (opens * answer) / np.maximum(answered, 1e-12)
            jam_value = folds * (RAISE_TO + 1.5 - own - blind) + (1 - folds) * (
                versus_answer * all_in_pot - stack)
            best = np.argmax(np.stack([np.full(size, -blind), call_value, jam_value]), axis=0)
            best_calls.append((best == 1).astype(float))
            best_jams.append((best == 2).astype(float))
        opens += weight * (best_open - opens)
        for index in range(len(theirs)):
            calls[index] += weight * (best_calls[index] - calls[index])
            jams[index] += weight * (best_jams[index] - jams[index])
            answers[index] += weight * (best_answers[index] - answers[index])
    return opens


def solve_open_ranges(equity: Floats, pairs: Floats, depths: Sequence[float] = DEPTHS,
                      iterations: int = ITERATIONS) -> dict[str, Floats]:
    """The data file's arrays: ``depths`` and ``open[behind - 1, depth, class]``, rounded to
    hundredths."""
    opens = np.zeros((MAX_BEHIND, len(depths), len(equity)))
    for behind in range(1, MAX_BEHIND + 1):
        for column, depth in enumerate(depths):
            opens[behind - 1, column] = solve_open(equity, pairs, depth, behind, iterations)
    return {"depths": np.array(depths, dtype=float), "open": opens.round(2)}


@cache
def _shipped() -> tuple[Floats, Floats]:
    with resources.files(DATA_PACKAGE).joinpath(OPEN_FILE).open("rb") as stream:
        data = np.load(stream)
        return np.asarray(data["depths"], dtype=float), np.asarray(data["open"], dtype=float)


def load_open_ranges() -> dict[str, Floats]:
    """The shipped arrays (see ``solve_open_ranges``)."""
    depths, opens = _shipped()
    return {"depths": depths, "open": opens}


def open_range(stack: float, behind: int) -> Floats:
    """How often each class raises first in (``solve.classes()`` order), from the nearest
    solved depth; more than 5 players behind read the 5-behind ranges.

    >>> round(range_share(open_range(100, 1)), 2)
    0.73
    """
    depths, opens = _shipped()
    row = min(max(behind, 1), MAX_BEHIND) - 1
    frequencies: Floats = opens[row, int(np.abs(depths - stack).argmin())]
    return frequencies


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: solve the model at every depth and write the data file."""
    parser = argparse.ArgumentParser(prog="python -m engine.strategies.open_ranges",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=ITERATIONS,
                        help=f"fictitious-play rounds per spot (default {ITERATIONS})")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "data",
                        help="directory to write (default: the package's data/)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    equity, pairs = load_equity()
    ranges = solve_open_ranges(equity, pairs, iterations=args.iterations)
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out / Path(OPEN_FILE).name, depths=ranges["depths"],
                        open=ranges["open"].astype(np.float32))
    for column, depth in enumerate(DEPTHS):
        shares = [f"{range_share(ranges['open'][row, column]):.1%}" for row in range(MAX_BEHIND)]
        print(f"{depth:>5g} bb: opens with 1-{MAX_BEHIND} behind: {', '.join(shares)}")
    print(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

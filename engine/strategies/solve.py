"""Push/fold equilibrium solver: ``python -m engine.strategies.solve`` writes the shipped charts.

Short-stacked, No-Limit Hold'em reduces to a small game: the first player in shoves or folds,
the players behind call or fold. This module solves it by fictitious play over the 169
starting-hand classes, with card removal (a class pair is weighted by how many of its
combinations share no card), and writes two package data files to ``data/`` beside it:

- ``equity169.npz``: ``equity[i, j]``, class ``i``'s all-in share of the pot against class
  ``j``, and ``pairs[i, j]``, how many combination pairs of the two share no card. Estimated
  by dealing random boards and ranking all 1,326 combinations on each at once: the slow part
  (``--boards 10000``, the shipped matrix, takes about 2.5 minutes; each class pair's
  standard error is about 0.004). Without ``--boards`` the shipped matrix is reused.
- ``push_fold.npz``: for effective stacks from 1 to 25 big blinds in half steps, and 1 to 5
  players behind the first-in player, how often each class shoves and how often each player
  behind calls (no ante; about 2.5 minutes).

Checked against HoldemResources' heads-up push/fold Nash charts (holdemresources.net, no
ante): at 10 bb they give the small blind shoving 57.7 % of hands and the big blind calling
37.4 %; the shipped charts give 58.0 % and 37.5 %. Hand by hand they agree except at the
margin, where the equities here are Monte Carlo estimates and the hands are worth a few
hundredths of a big blind either way: the published chart calls Q2o up to 5.6 bb (here
5.5) but shoves T3s up to 7.7 bb (here about 9), and shoves 63s from 5.1 to 7.1 bb and
under 2.3 (here only at 2 bb and under). With players behind, the first caller plays the
shover heads-up and nobody overcalls (see ``solve_first_in``); fictitious play there settles
without a proof of convergence, and reruns move the ranges by under 1 % of hands.
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
import numpy.typing as npt

from engine.evaluator import rank_columns
from engine.strategies.preflop import HandClass, hand_class

DATA_PACKAGE = "engine.strategies"
EQUITY_FILE = "data/equity169.npz"
CHART_FILE = "data/push_fold.npz"
MAX_BEHIND = 5
"""First-in spots solved: up to five players behind, a 6-max table from under the gun."""
STACKS: tuple[float, ...] = tuple(step / 2 for step in range(2, 51))
"""Effective stacks solved, in big blinds: 1, 1.5 … 25."""
BOARDS = 10_000
"""Boards dealt for the shipped equity matrix (standard error of a class pair about 0.004)."""
ITERATIONS = 3_000
"""Fictitious-play rounds per stack: the shipped ranges move by under 0.1 % of hands between
2,000 and 3,000 rounds."""
Floats = npt.NDArray[np.float64]
"""Arrays of probabilities and equities, as every solver and chart module here uses them."""


@cache
def classes() -> tuple[HandClass, ...]:
    """The 169 classes in chart order: ``AA, AKs, AKo, AQs … 22``, row by row of the grid."""
    found = []
    for high in range(12, -1, -1):
        for low in range(high, -1, -1):
            if high == low:
                found.append(HandClass(high, low, False))
            else:
                found.extend((HandClass(high, low, True), HandClass(high, low, False)))
    return tuple(found)


@cache
def class_indices() -> dict[HandClass, int]:
    """Each class's position in ``classes()``."""
    return {hand: index for index, hand in enumerate(classes())}


def labels() -> list[str]:
    """The classes' short names in chart order."""
    return [hand.label for hand in classes()]


def _combos() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """All 1,326 combinations, shape (1326, 2), and each one's class index."""
    pairs = [(first, second) for first in range(52) for second in range(first + 1, 52)]
    index = class_indices()
    owners = [index[hand_class(pair)] for pair in pairs]
    return np.array(pairs, dtype=np.intp), np.array(owners, dtype=np.intp)


def equity_matrix(boards: int, seed: int = 0) -> tuple[Floats, Floats]:
    """Class-versus-class all-in equity and combination-pair counts, from ``boards`` boards.

    On each random board every combination is ranked once; every pair of combinations that
    share no card with each other or the board then scores a win, tie or loss. Summing over
    boards and then over the combinations of each class gives ``equity[i, j]`` (with
    ``equity + equity.T == 1``) and ``pairs[i, j]``, the card-removal weight.
    """
    combos, owners = _combos()
    bits = (np.uint64(1) << combos[:, 0].astype(np.uint64)) | (
        np.uint64(1) << combos[:, 1].astype(np.uint64))
    apart = (bits[:, None] & bits[None, :]) == 0
    generator = np.random.default_rng(seed)
    shares = np.zeros((len(combos), len(combos)), dtype=np.float32)
    counts = np.zeros((len(combos), len(combos)), dtype=np.float32)
    for _ in range(boards):
        board = generator.choice(52, size=5, replace=False)
        board_bits = np.bitwise_or.reduce(np.uint64(1) << board.astype(np.uint64))
        free = (bits & board_bits) == 0
        ranks = np.zeros(len(combos), dtype=np.int32)
        block = np.broadcast_to(board, (int(free.sum()), 5))
        ranks[free] = rank_columns(np.hstack([combos[free], block]).T)
        valid = apart & free[:, None] & free[None, :]
        shares += valid * ((ranks[:, None] < ranks[None, :]) + 0.5 * (
            ranks[:, None] == ranks[None, :]))
        counts += valid
    member = np.zeros((len(classes()), len(combos)))
    member[owners, np.arange(len(combos))] = 1.0
    won = member @ shares.astype(np.float64) @ member.T
    seen = member @ counts.astype(np.float64) @ member.T
    equity = np.divide(won, seen, out=np.full_like(won, 0.5), where=seen > 0)
    pairs = member @ apart.astype(np.float64) @ member.T
    return equity, pairs


def blinds_posted(behind: int) -> tuple[float, list[float]]:
    """What the first-in player and each player behind have posted, in big blinds.

    With one player behind the first-in player is the small blind; otherwise the last two
    behind are the blinds and everyone else has posted nothing.
    """
    if behind < 1:
        raise ValueError(f"a first-in spot has at least one player behind, not {behind}")
    if behind == 1:
        return 0.5, [1.0]
    return 0.0, [0.0] * (behind - 2) + [0.5, 1.0]


def solve_first_in(
    equity: Floats, pairs: Floats, stack: float, behind: int = 1,
    iterations: int = ITERATIONS,
) -> tuple[Floats, list[Floats]]:
    """The first-in player's shove frequency and each player behind's call frequency, by class.

    Everyone holds ``stack`` big blinds (blinds 0.5 and 1, no ante); ``behind`` players are
    left to act after the shover (1: small blind against big blind, heads-up or at a full
    table alike). Players behind act in order and the first caller plays the shover heads-up
    (nobody overcalls, a standard simplification: overcalling ranges are tiny at these
    depths); a caller counts the folded blinds as dead money. Card removal is exact between
    the shover and each caller and ignored between callers.

    Fictitious play: each round every player best-responds to the others' average strategies
    so far. Heads-up (``behind=1``) this is a two-player zero-sum game and the averages
    converge to its equilibrium; with more players behind it settles on the ranges shown in
    the module's docstring. Raises ``ValueError`` for a stack under one big blind or no one
    behind.
    """
    if stack < 1:
        raise ValueError(f"a push/fold stack holds at least the big blind, not {stack}")
    own_blind, their_blinds = blinds_posted(behind)
    # An all-in won with share e nets e * pot - stack; weighted by the combination pairs so a
    # matrix product sums over the other player's classes with card removal.
    pots = [2 * stack + 1.5 - own_blind - blind for blind in their_blinds]
    all_ins = [pairs * (pot * equity - stack) for pot in pots]
    seen = pairs.sum(axis=1)
    shove = np.ones(len(equity))
    calls = [np.ones(len(equity)) for _ in their_blinds]
    for round_number in range(1, iterations + 1):
        weight = 1 / round_number  # the first best response replaces the starting guess
        reach = np.ones(len(equity))
        shove_ev = np.zeros(len(equity))
        for call, all_in in zip(calls, all_ins, strict=True):
            shove_ev += reach * (all_in @ call) / seen
            reach *= 1 - (pairs @ call) / seen
        shove_ev += reach * (1.5 - own_blind)
        best_shove = (shove_ev > -own_blind).astype(float)
        shoving = pairs @ shove
        best_calls = []
        for blind, all_in in zip(their_blinds, all_ins, strict=True):
            # The matrices are indexed [own class, other's class], so they serve callers too.
            call_ev = np.divide(all_in @ shove, shoving, out=np.full(len(equity), -float(stack)),
                                where=shoving > 0)
            best_calls.append((call_ev > -blind).astype(float))
        shove += weight * (best_shove - shove)
        for call, best in zip(calls, best_calls, strict=True):
            call += weight * (best - call)
    return shove, calls


def range_share(frequencies: Floats) -> float:
    """The share of all 1,326 combinations a per-class frequency vector plays."""
    sizes = np.array([hand.combo_count for hand in classes()], dtype=float)
    return float(frequencies @ sizes / 1326)


def solve_charts(equity: Floats, pairs: Floats, stacks: Sequence[float] = STACKS,
                 iterations: int = ITERATIONS) -> dict[str, Floats]:
    """The chart file's arrays: ``stacks``; ``shove[behind - 1, stack, class]``; and
    ``call[behind - 1, caller, stack, class]`` (caller 0 acts first; rows past ``behind`` are
    zero), for 1 to ``MAX_BEHIND`` players behind. Frequencies are rounded to hundredths,
    which also clears the traces fictitious play's first rounds leave in the averages."""
    shove = np.zeros((MAX_BEHIND, len(stacks), len(equity)))
    call = np.zeros((MAX_BEHIND, MAX_BEHIND, len(stacks), len(equity)))
    for behind in range(1, MAX_BEHIND + 1):
        for column, stack in enumerate(stacks):
            shoves, calls = solve_first_in(equity, pairs, stack, behind, iterations)
            shove[behind - 1, column] = shoves
            for caller, frequencies in enumerate(calls):
                call[behind - 1, caller, column] = frequencies
    return {"stacks": np.array(stacks), "shove": shove.round(2), "call": call.round(2)}


def load_equity() -> tuple[Floats, Floats]:
    """The shipped equity matrix and card-removal weights (see ``equity_matrix``)."""
    with resources.files(DATA_PACKAGE).joinpath(EQUITY_FILE).open("rb") as stream:
        data = np.load(stream)
        return np.asarray(data["equity"], dtype=float), np.asarray(data["pairs"], dtype=float)


def load_charts() -> dict[str, Floats]:
    """The shipped charts: the arrays ``solve_charts`` returns."""
    with resources.files(DATA_PACKAGE).joinpath(CHART_FILE).open("rb") as stream:
        data = np.load(stream)
        return {key: np.asarray(data[key], dtype=float) for key in ("stacks", "shove", "call")}


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: recompute the equity matrix (``--boards``) and the charts."""
    parser = argparse.ArgumentParser(prog="python -m engine.strategies.solve",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=0,
                        help=f"recompute the equity matrix from this many boards (shipped: "
                             f"{BOARDS}); 0 reuses the shipped matrix")
    parser.add_argument("--iterations", type=int, default=ITERATIONS,
                        help=f"fictitious-play rounds per stack (default {ITERATIONS})")
    parser.add_argument("--seed", type=int, default=0, help="board seed (default 0)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "data",
                        help="directory to write (default: the package's data/)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if args.boards:
        equity, pairs = equity_matrix(args.boards, args.seed)
        np.savez_compressed(args.out / Path(EQUITY_FILE).name, equity=equity.astype(np.float32),
                            pairs=pairs.astype(np.float32))
        print(f"equity matrix from {args.boards} boards in {time.perf_counter() - started:.0f} s")
        equity, pairs = equity.astype(np.float32).astype(float), pairs
    else:
        equity, pairs = load_equity()
    charts = solve_charts(equity, pairs, iterations=args.iterations)
    np.savez_compressed(args.out / Path(CHART_FILE).name, stacks=charts["stacks"],
                        shove=charts["shove"].astype(np.float32),
                        call=charts["call"].astype(np.float32))
    for stack in (5.0, 10.0, 15.0, 20.0, 25.0):
        column = STACKS.index(stack)
        shoves = [f"{range_share(charts['shove'][behind, column]):.1%}"
                  for behind in range(MAX_BEHIND)]
        print(f"{stack:>4.0f} bb: heads-up big blind calls "
              f"{range_share(charts['call'][0, 0, column]):.1%}; first-in shoves with 1-"
              f"{MAX_BEHIND} behind: {', '.join(shoves)}")
    print(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

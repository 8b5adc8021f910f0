"""CPU and bytes of the live table image and the hole-card image, per image.

    python -m benchmarks.render                       # figures as lines
    python -m benchmarks.render --json                # the same figures as one JSON object
    python -m benchmarks.render --against OLD_TREE    # also OLD_TREE's renderer, and ratios

Like the bot at ``benchmarks.discord``'s 50 tables, ``--tables`` tables of two people and a
bot, each with its own names, play ``--hands`` hands in turn; every public state of a hand
(each action, each card dealt, the showdown, the result: ``replay_frames``) is drawn as the
table message's image, and each person's two cards as the image of the private message. The
figures are CPU time of the drawing thread (``time.thread_time``), so other work on the
machine changes them little, after a warm-up hand at a table of its own. ``unchanged_share``
is the share of table images equal to the one before at the same table: uploads a front end
can skip. ``--against`` runs this file under another checkout (``git archive`` of an older
commit, say) and under this one, in turns, ``--rounds`` times each, each in a fresh process,
and reports the medians and their ratios: both figures come from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from bot.i18n import Language, language_for
from bot.render import render_cards, render_table
from bot.render.replay_frames import replay_frames
from bot.tables.notifier import TableState
from engine.cards import Card, card_str
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards

Figures = dict[str, float | int | str]


def _hand(deck: Sequence[Card], button: int) -> RecordedHand:
    """Three players: a raise and a call preflop, a bet and a call on the flop, checks to a
    showdown of two."""
    text = [card_str(card) for card in deck]
    hand = hand_with_cards([1_000, 1_000, 1_000],
                           [" ".join(text[0:2]), " ".join(text[2:4]), " ".join(text[4:6])],
                           " ".join(text[6:11]), button=button)
    apply_actions(hand, ["raise 30", "call", "fold", "bet 40", "call", "check", "check",
                         "check", "check"])
    return RecordedHand.from_hand(hand)


def _table_states(table: int, hand_number: int, rng: random.Random) -> list[TableState]:
    deck = rng.sample(range(52), 11)
    names = (f"player{table}a", f"player{table}b", "Easy Bot")
    frames = replay_frames(_hand(deck, hand_number % 3), names, None, title=hand_number)
    return [frame.state for frame in frames]


def _timed(work: Callable[[], bytes], times: list[float]) -> bytes:
    start = time.thread_time()
    data = work()
    times.append(time.thread_time() - start)
    return data


def measure(tables: int, hands: int, language: Language, seed: int = 1) -> Figures:
    """Play ``hands`` hands at each of ``tables`` tables and measure every image drawn."""
    rng = random.Random(seed)
    for state in _table_states(tables, 0, rng):  # warm-up at a table of its own
        render_table(state, language=language)
    table_times: list[float] = []
    table_bytes: list[int] = []
    card_times: list[float] = []
    card_bytes: list[int] = []
    unchanged = 0
    for hand_number in range(1, hands + 1):
        for table in range(tables):
            previous = b""
            for state in _table_states(table, hand_number, rng):
                png = _timed(partial(render_table, state, language=language), table_times)
                table_bytes.append(len(png))
                unchanged += png == previous
                previous = png
            for _ in range(2):
                cards = rng.sample(range(52), 2)
                png = _timed(partial(render_cards, cards), card_times)
                card_bytes.append(len(png))
    return {
        "tables": tables, "hands": hands, "language": language.code,
        "table_images": len(table_times),
        "table_image_ms": round(1000 * statistics.fmean(table_times), 3),
        "table_image_bytes": round(statistics.fmean(table_bytes)),
        "unchanged_share": round(unchanged / len(table_times), 3),
        "card_image_ms": round(1000 * statistics.fmean(card_times), 3),
        "card_image_bytes": round(statistics.fmean(card_bytes)),
        "table_images_per_hand": round(len(table_times) / (tables * hands), 1),
    }


def _in(tree: Path, arguments: Sequence[str]) -> Figures:
    """The figures with the renderer of the checkout at ``tree``, measured in a fresh
    subprocess (``-P``: this file's folder, whose ``engine.py`` would hide the package, not
    on the path)."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-P", __file__, *arguments, "--json"], cwd=tree,
                          env=environment, capture_output=True, text=True)
    if done.returncode:  # its own error, said as such (exit status 1), not our traceback
        raise SystemExit(f"error: the renderer of {tree} failed:\n{done.stderr.strip()}")
    figures: Figures = json.loads(done.stdout)
    return figures


def _checkout(text: str) -> Path:
    """``--against``: a folder holding this project's renderer (``bot/render``), refused at
    once rather than as a traceback from the subprocess that would run there."""
    tree = Path(text)
    if not (tree / "bot" / "render").is_dir():
        raise argparse.ArgumentTypeError(
            f"{text} is not a checkout of this project (no bot/render in it)")
    return tree


def compare(old_tree: Path, arguments: Sequence[str], rounds: int) -> dict[str, Figures]:
    """The figures of the renderer at ``old_tree`` and of this one, each measured ``rounds``
    times in turn, each time in a fresh process (so the load of the machine falls on both
    alike), their medians, and the ratios of before over after."""
    runs: dict[str, list[Figures]] = {"before": [], "after": []}
    for _ in range(rounds):
        runs["before"].append(_in(old_tree, arguments))
        runs["after"].append(_in(Path(__file__).resolve().parents[1], arguments))
    result = {name: {key: statistics.median(float(run[key]) for run in measured)
                     if isinstance(measured[0][key], float | int) else measured[0][key]
                     for key in measured[0]}
              for name, measured in runs.items()}
    before, after = result["before"], result["after"]
    result["before_over_after"] = {
        key: round(float(before[key]) / float(after[key]), 2)
        for key in ("table_image_ms", "table_image_bytes", "card_image_ms", "card_image_bytes")
        if after[key]}
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--language", default="en", help="a catalog code, e.g. zh-CN")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", type=_checkout,
                        help="a checkout with the renderer to compare")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each, with --against")
    options = parser.parse_args(argv)
    shared = ["--tables", str(options.tables), "--hands", str(options.hands),
              "--language", options.language]
    result: dict[str, Figures] | Figures = \
        compare(options.against, shared, options.rounds) if options.against else \
        measure(options.tables, options.hands, language_for(options.language))
    if options.json:
        print(json.dumps(result))
        return
    for name, figures in (result.items() if options.against else [("", result)]):
        for key, value in figures.items():  # type: ignore[union-attr]
            print(f"{name + ' ' if name else ''}{key}: {value}")


if __name__ == "__main__":
    main()

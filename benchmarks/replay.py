"""Replay size and render time for a 6-handed hand of four streets, beside the live table.

    python -m benchmarks.replay            # figures as lines
    python -m benchmarks.replay --json     # the same figures as one JSON object

The sample hand (``sample_hand``, also drawn for the README) goes to a two-player showdown
after betting on every street. Each figure is the median of ``--repeat`` runs, on one core:
the whole replay (frames narrated, drawn, encoded as a GIF, plus the still PNG) as ``/replay``
makes it, and one live table image (``render_table``) of the same hand for the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from bot.render.replay import render_replay
from bot.render.replay_frames import replay_frames
from bot.render.table_image import render_table
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards

SAMPLE_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")
SAMPLE_VIEWER = 0
"""The sample is drawn for Ann (seat 0): her cards face up from the deal."""


def sample_hand() -> RecordedHand:
    """Six players, a raise and calls preflop, a bet on the flop, turn and river, and a
    showdown of two straights (Eve shows first as the river's bettor, Ann wins)."""
    hand = hand_with_cards([1000, 800, 1200, 1000, 600, 1500],
                           ["Ah Kd", "7c 7d", "2s 3s", "Qs Qc", "9h 8h", "Jd Tc"],
                           "Qh Jc Ts 4d 4c", button=0)
    apply_actions(hand, [
        "call", "raise 40", "fold", "call", "fold", "call", "call",  # preflop
        "check", "check", "bet 60", "call", "call", "fold",  # flop
        "check", "bet 150", "call", "fold",  # turn
        "bet 200", "call",  # river
    ])
    return RecordedHand.from_hand(hand)


def _median_seconds(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(repeat: int) -> dict[str, float | int]:
    """The figures: frames, GIF and PNG bytes, replay and live-table render times."""
    record = sample_hand()
    image = render_replay(record, SAMPLE_NAMES, SAMPLE_VIEWER, title=1)  # warms the caches
    replay_s = _median_seconds(
        lambda: render_replay(record, SAMPLE_NAMES, SAMPLE_VIEWER, title=1), repeat)
    frames = replay_frames(record, SAMPLE_NAMES, None, title=1)
    middle = frames[len(frames) // 2]  # the flop or turn: cards and bets on the table
    live_s = _median_seconds(lambda: render_table(middle.state), repeat * 10)
    return {
        "frames": image.frames,
        "gif_bytes": len(image.animation or b""),
        "still_bytes": len(image.still),
        "replay_ms": round(replay_s * 1000, 1),
        "live_table_ms": round(live_s * 1000, 2),
        "replay_per_live_table": round(replay_s / live_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (median)")
    arguments = parser.parse_args()
    figures = measure(max(1, arguments.repeat))
    if arguments.json:
        print(json.dumps(figures))
        return
    print(f"replay: {figures['frames']} frames, GIF {figures['gif_bytes']:,} bytes "
          f"+ still PNG {figures['still_bytes']:,} bytes, rendered in "
          f"{figures['replay_ms']} ms")
    print(f"live table image: {figures['live_table_ms']} ms "
          f"(a replay costs {figures['replay_per_live_table']} of them)")


if __name__ == "__main__":
    main()

"""What the coach costs: a hint per **My cards** answer, and ``/review`` of a 6-way hand.

    python -m benchmarks.coach            # figures as lines
    python -m benchmarks.coach --json     # the same figures as one JSON object

The hand is ``benchmarks.replay.sample_hand`` (six players, four streets, a showdown). A
hint is timed at every moment of that hand for every player still in it, as **My cards**
makes it (``engine.coach.hint`` and its English lines); the targets are 30 ms per hint and
2 s per review. Each review figure is the median of ``--repeat`` runs, for the player who
decides the most and the slowest of all six; most of their equities are estimated (someone
still in did not show). ``shown_hand`` is the dearer case, where every equity is exact: a
heads-up hand re-raised three times before the flop and shown down, since enumerating the
boards before the flop takes about a quarter of a second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial

from benchmarks.replay import sample_hand
from bot.i18n import ENGLISH
from bot.i18n.coach import hint, hint_text, review_text
from engine.coach import review
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from engine.view import PlayerView


def shown_hand() -> RecordedHand:
    """Heads-up, raised, re-raised and re-raised again before the flop, a bet called on
    every street, both hands shown."""
    hand = hand_with_cards([5000, 5000], ["Ah Kd", "Qs Qc"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["raise 30", "raise 90", "raise 250", "call", "bet 200", "call",
                         "bet 500", "call", "bet 1000", "call"])
    return RecordedHand.from_hand(hand)


def _seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _my_cards_hint(view: PlayerView) -> list[str]:
    return [ENGLISH.render(line) for line in hint_text(hint(view))]


def _review_shown_hand(seat: int) -> None:
    review(shown_hand(), seat)


def measure(repeat: int) -> dict[str, float | int]:
    """The figures: hints timed (median, 95th percentile, slowest) and review times."""
    record = sample_hand()
    views = [hand.view(seat) for hand in record.steps() if not hand.is_over
             for seat in range(hand.num_seats) if not hand.folded[seat]]
    _my_cards_hint(views[0])  # warms numpy and the range tables
    hints = sorted(_seconds(partial(_my_cards_hint, view)) for view in views)
    seats = range(len(record.stacks))
    decisions = {seat: len(review(record, seat).decisions) for seat in seats}
    busiest = max(seats, key=decisions.__getitem__)

    def reviewed(seat: int, played: RecordedHand = record) -> float:
        return statistics.median(
            _seconds(lambda: [ENGLISH.render(line)
                              for line in review_text(1, review(played, seat))])
            for _ in range(repeat))

    return {
        "hints_timed": len(hints),
        "hint_median_ms": round(statistics.median(hints) * 1000, 1),
        "hint_p95_ms": round(hints[int(0.95 * (len(hints) - 1))] * 1000, 1),
        "hint_max_ms": round(hints[-1] * 1000, 1),
        "review_decisions": decisions[busiest],
        "review_ms": round(reviewed(busiest) * 1000),
        "review_slowest_seat_ms": round(max(reviewed(seat) for seat in seats) * 1000),
        "review_shown_ms": round(max(_seconds(partial(_review_shown_hand, seat))
                                     for seat in (0, 1)) * 1000),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=5, help="runs per review (median)")
    arguments = parser.parse_args()
    figures = measure(max(1, arguments.repeat))
    if arguments.json:
        print(json.dumps(figures))
        return
    print(f"hint per My cards answer ({figures['hints_timed']} spots of a 6-way hand): "
          f"median {figures['hint_median_ms']} ms, 95th percentile {figures['hint_p95_ms']} "
          f"ms, slowest {figures['hint_max_ms']} ms (target 30 ms)")
    print(f"review of the 6-way four-street hand: {figures['review_ms']} ms for "
          f"{figures['review_decisions']} decisions; slowest seat "
          f"{figures['review_slowest_seat_ms']} ms (target 2,000 ms)")
    print(f"review of a heads-up hand shown down, every equity exact: "
          f"{figures['review_shown_ms']} ms (the first time: nothing kept yet)")


if __name__ == "__main__":
    main()

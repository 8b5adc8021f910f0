"""Hand state machine speed: full 6-max hands with this engine and with pokerkit, same run.

    python -m benchmarks.engine            # hands per second and the ratio
    python -m benchmarks.engine --json     # the same figures as one JSON object

Two policies: everyone checks or calls to the river ("call-down"), and random legal actions.
Both engines deal, bet, show down and push chips; pokerkit runs with every step automated.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from collections.abc import Callable

from engine.actions import Action, ActionKind
from engine.cards import Deck
from engine.hand import Hand
from engine.replay import random_action

SEATS = 6
STACK = 1000
CALL = Action(ActionKind.CALL)
CHECK = Action(ActionKind.CHECK)


def play_ours(policy: str, rng: random.Random) -> None:
    """One hand with this engine."""
    hand = Hand([STACK] * SEATS, rng.randrange(SEATS), 5, 10, deck=Deck(rng=rng))
    while not hand.is_over:
        legal = hand.legal_actions()
        if policy == "call-down":
            action = CHECK if legal.can_check else CALL
        else:
            action = random_action(legal, rng)
        hand.act(legal.seat, action)


def play_pokerkit(policy: str, rng: random.Random) -> None:
    """One hand with pokerkit, fully automated dealing and showdown."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    state = NoLimitTexasHoldem.create_state(
        tuple(Automation), False, 0, (5, 10), 10, [STACK] * SEATS, SEATS, mode=Mode.CASH_GAME
    )
    while state.status:
        if policy == "call-down":
            state.check_or_call()
            continue
        choices = ["fold", "check_or_call"]
        if state.can_complete_bet_or_raise_to():
            choices.append("raise")
        choice = rng.choice(choices)
        if choice == "fold" and state.can_fold():
            state.fold()
        elif choice == "raise":
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if low is None or high is None:
                raise RuntimeError("pokerkit allows a raise but names no amounts to raise to")
            state.complete_bet_or_raise_to(rng.randint(low, high))
        else:
            state.check_or_call()


def hands_per_second(play: Callable[[str, random.Random], None], policy: str,
                     seconds: float) -> float:
    """Play hands for about ``seconds`` and return the rate."""
    rng = random.Random(1)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(10):
            play(policy, rng)
        count += 10
    return count / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    """Measure both engines under both policies and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    arguments = parser.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for policy in ("call-down", "random"):
            ours = hands_per_second(play_ours, policy, arguments.seconds)
            theirs = hands_per_second(play_pokerkit, policy, arguments.seconds)
            figures[policy] = {
                "ours_hands_per_s": round(ours, 1),
                "pokerkit_hands_per_s": round(theirs, 1),
                "ratio": round(ours / theirs, 1),
            }
    if arguments.json:
        print(json.dumps({"seats": SEATS, **figures}))
        return
    for policy, row in figures.items():
        print(f"{policy:10} ours {row['ours_hands_per_s']:>9.1f} hands/s   "
              f"pokerkit {row['pokerkit_hands_per_s']:>7.1f} hands/s   "
              f"ratio {row['ratio']:.1f}x")


if __name__ == "__main__":
    main()

"""The README's pictures, drawn by the bot's own renderers: ``python -m docs.images``.

- ``docs/replay.gif`` and ``docs/replay-frame.png``: the replay of the benchmark's sample hand
  (``benchmarks.replay.sample_hand``) as Ann sees it, and its showdown frame;
- ``docs/replay-frame-zh.png``: the same frame for a server set to Simplified Chinese;
- ``docs/stats-chart.png``: the ``/stats`` chart of a player after 150 hands that six bots
  played through a real ledger (a temporary SQLite file), settled hand by hand as tables do:
  with each hand's replay, from which the ledger counts the playing style the chart shows.

Everything is seeded, so the same checkout draws the same files.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path

from benchmarks.replay import SAMPLE_NAMES, SAMPLE_VIEWER, sample_hand
from bot.i18n import language_for
from bot.ledger import Ledger, server_habits
from bot.render.replay import encode_still, render_replay
from bot.render.replay_frames import replay_frames
from bot.render.stats_chart import render_stats_chart
from bot.tables.seats import Seat
from bot.tables.settlement import participants
from engine.cards import Deck
from engine.hand import Hand
from engine.hand_record import RecordedHand
from engine.strategies import make_strategy

OUT = Path(__file__).parent
GUILD, TABLE = 1, 10
PLAYERS = (("Ann", "medium"), ("Bob", "easy"), ("Cleo", "medium"), ("Dan", "easy"),
           ("Eve", "medium"), ("Finn", "easy"))
HANDS = 150
BLINDS, BUY_IN = (10, 20), 2_000


async def stats_chart(seed: int = 7, hands: int = HANDS) -> bytes:
    """The chart of Ann (user 1) after ``hands`` hands at a 6-handed 10/20 table."""
    rng = random.Random(seed)
    bots = [make_strategy(level) for _, level in PLAYERS]
    with tempfile.TemporaryDirectory() as directory:
        clock = iter(range(1_700_000_000, 1_800_000_000, 60))
        ledger = await Ledger.open(Path(directory) / "chart.sqlite3",
                                   clock=lambda: float(next(clock)))
        async with ledger:
            seats = []
            for user, (name, _) in enumerate(PLAYERS, start=1):
                await ledger.ensure_player(GUILD, user, name)
                await ledger.buy_in(GUILD, TABLE, user, BUY_IN)
                seats.append(Seat(user - 1, name, user, None, BUY_IN))
            for number in range(1, hands + 1):
                for seat in seats:
                    if seat.stack < 2 * BLINDS[1]:  # busted or short: buys chips again
                        fund = ledger.top_up if seat.stack else ledger.buy_in
                        seat.stack = await fund(GUILD, TABLE, seat.key, BUY_IN)
                hand = Hand([seat.stack for seat in seats], number % len(seats), *BLINDS,
                            deck=Deck(rng))
                hand_id = await ledger.begin_hand(GUILD, TABLE, number,
                                                  {seat.key: seat.stack for seat in seats})
                while (to_act := hand.to_act) is not None:
                    hand.act(to_act, bots[to_act].decide(hand.view(to_act), rng))
                assert hand.result is not None
                final = hand.result.final_stacks
                await ledger.settle_hand(
                    hand_id, {seat.key: final[index] for index, seat in enumerate(seats)},
                    participants(hand, seats), "", RecordedHand.from_hand(hand).to_json())
                for index, seat in enumerate(seats):
                    seat.stack = final[index]
            record = await ledger.stats(GUILD, 1)
            assert record is not None
            everyone = await ledger.habits(GUILD)
            return render_stats_chart(await ledger.results_over_time(GUILD, 1), record,
                                      await ledger.server_averages(GUILD),
                                      habits=everyone[1], server_habits=server_habits(
                                          everyone.values()))


def main() -> None:
    argparse.ArgumentParser(
        prog="python -m docs.images",
        description="Draw the README's pictures into docs/ with the bot's own renderers: "
        "replay.gif, replay-frame.png, replay-frame-zh.png and stats-chart.png. Seeded: the "
        "same checkout draws the same files.").parse_args()
    record = sample_hand()
    replay = render_replay(record, SAMPLE_NAMES, SAMPLE_VIEWER, title=1042)
    assert replay.animation is not None
    (OUT / "replay.gif").write_bytes(replay.animation)
    frames = replay_frames(record, SAMPLE_NAMES, SAMPLE_VIEWER, title=1042)
    showdown = next(frame for frame in frames if str(frame.state.last_action) == "Showdown")
    (OUT / "replay-frame.png").write_bytes(encode_still(showdown))
    (OUT / "replay-frame-zh.png").write_bytes(
        encode_still(showdown, language=language_for("zh-CN")))
    (OUT / "stats-chart.png").write_bytes(asyncio.run(stats_chart()))
    for name in ("replay.gif", "replay-frame.png", "replay-frame-zh.png", "stats-chart.png"):
        print(f"wrote docs/{name}: {(OUT / name).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

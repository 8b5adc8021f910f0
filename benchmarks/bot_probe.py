"""The bot as ``python -m bot`` runs it, plus what ``benchmarks.discord`` measures from inside.

    python -m benchmarks.bot_probe      # same environment variables as python -m bot

The process is the product's own start-up (``bot.__main__.main``); this module only adds a
loop-lag probe (a 10 ms ticker on every event loop the process runs) and, with
``BENCH_PROFILE=FILE``, a cProfile of the event-loop thread's CPU time (``time.thread_time``:
where the loop's CPU goes, not the sockets' waits). Signals mark the measured window,
so nothing runs in the bot that its users would not run: SIGUSR1 opens it (clears the lag
samples, starts the profiler), SIGUSR2 closes it (writes the profile, and the lag samples as
JSON to ``BENCH_FIGURES``). Images are off with the bot's own setting, ``IMAGES=off``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from benchmarks.tables import LoopLagProbe, profiling

FIGURES_VARIABLE = "BENCH_FIGURES"
PROFILE_VARIABLE = "BENCH_PROFILE"
OPEN_WINDOW, CLOSE_WINDOW = signal.SIGUSR1, signal.SIGUSR2


class ProbedLoopPolicy(asyncio.DefaultEventLoopPolicy):
    """Starts ``probe`` on every new event loop, so it runs inside ``bot.run``'s loop
    without a line of the bot changed."""

    def __init__(self, probe: LoopLagProbe) -> None:
        super().__init__()
        self._probe = probe
        self._tasks: set[asyncio.Task[None]] = set()

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        loop.call_soon(self._start, loop)
        return loop

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        task = loop.create_task(self._probe.run(), name="loop-lag-probe")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class Window:
    """The measured seconds, opened and closed by the benchmark's signals."""

    def __init__(self, probe: LoopLagProbe, figures: Path | None, profile: Path | None) -> None:
        self._probe = probe
        self._figures = figures
        self._profile = profile
        self._profiler = contextlib.ExitStack()

    def open(self, signum: int, frame: FrameType | None) -> None:
        self._probe.lags.clear()
        self._profiler.enter_context(profiling(self._profile, time.thread_time))

    def close(self, signum: int, frame: FrameType | None) -> None:
        self._profiler.close()
        if self._figures is not None:
            written = self._figures.with_suffix(".partial")
            written.write_text(json.dumps({"lags": self._probe.lags}))
            written.replace(self._figures)  # whole, or not there yet


def main() -> int:
    from bot.__main__ import main as run_bot

    probe = LoopLagProbe()
    asyncio.set_event_loop_policy(ProbedLoopPolicy(probe))
    figures, profile = (os.environ.get(name) for name in (FIGURES_VARIABLE, PROFILE_VARIABLE))
    window = Window(probe, Path(figures) if figures else None,
                    Path(profile) if profile else None)
    signal.signal(OPEN_WINDOW, window.open)
    signal.signal(CLOSE_WINDOW, window.close)
    return run_bot([])


if __name__ == "__main__":
    sys.exit(main())

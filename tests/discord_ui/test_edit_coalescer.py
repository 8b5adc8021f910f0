"""Table message edits are coalesced: one in flight, a minimum interval, final states kept,
failed ones tried again unless a newer state replaced them."""

import asyncio
import itertools

import pytest

from bot.discord_ui.edit_coalescer import EditCoalescer


class Recorder:
    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.published: list[tuple[int, float]] = []
        self.in_flight = 0
        self.max_in_flight = 0

    async def __call__(self, item: int) -> None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        self.published.append((item, asyncio.get_running_loop().time()))
        await asyncio.sleep(self.delay)
        self.in_flight -= 1

    @property
    def items(self) -> list[int]:
        return [item for item, _ in self.published]


async def test_a_single_state_is_published_at_once():
    recorder = Recorder()
    coalescer = EditCoalescer(recorder, min_interval=10.0)
    coalescer.submit(1)
    await asyncio.wait_for(coalescer.flush(), timeout=1.0)
    assert recorder.items == [1]


async def test_newer_states_replace_waiting_ones():
    recorder = Recorder(delay=0.02)
    coalescer = EditCoalescer(recorder, min_interval=0.05)
    coalescer.submit(0)
    await asyncio.sleep(0.005)
    for state in range(1, 11):
        coalescer.submit(state)
    await coalescer.flush()
    assert recorder.items == [0, 10]


async def test_kept_states_are_always_published_in_order():
    recorder = Recorder()
    coalescer = EditCoalescer(recorder, min_interval=0.02)
    coalescer.submit(1)
    coalescer.submit(2, keep=True)
    coalescer.submit(3)
    coalescer.submit(4, keep=True)
    coalescer.submit(5)
    coalescer.submit(6)
    await coalescer.flush()
    assert recorder.items == [2, 4, 6]


async def test_never_more_than_one_publish_in_flight_and_interval_respected():
    recorder = Recorder(delay=0.01)
    interval = 0.03
    coalescer = EditCoalescer(recorder, min_interval=interval)
    for state in range(30):
        coalescer.submit(state, keep=state % 3 == 0)
        await asyncio.sleep(0.004)
    await coalescer.flush()
    assert recorder.max_in_flight == 1
    times = [at for _, at in recorder.published]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= interval * 0.9
    assert recorder.items[-1] == 29
    assert all(state in recorder.items for state in range(0, 30, 3))


async def test_a_state_submitted_now_skips_the_interval_and_the_next_waits_from_it():
    recorder = Recorder()
    coalescer = EditCoalescer(recorder, min_interval=600.0)
    coalescer.submit(1)
    coalescer.submit(2, now=True)  # replaces 1 before it went: one publish
    await asyncio.wait_for(coalescer.flush(), timeout=5.0)
    coalescer.submit(3, now=True)  # an answer to a click, right after an edit
    await asyncio.wait_for(coalescer.flush(), timeout=5.0)
    coalescer.submit(4)
    await asyncio.sleep(0)
    assert recorder.items == [2, 3] and not coalescer.is_idle  # 4 waits out the interval
    coalescer.cancel()


async def test_a_failed_publish_is_tried_again_later_and_later_until_it_lands():
    tries: list[float] = []

    async def flaky(item: int) -> None:
        tries.append(asyncio.get_running_loop().time())
        if len(tries) < 4:
            raise ConnectionResetError("the connection dropped")

    coalescer = EditCoalescer(flaky, min_interval=0.0, retry_delay=0.05)
    coalescer.submit(1)
    await asyncio.wait_for(coalescer.flush(), timeout=30)
    assert len(tries) == 4
    gaps = [later - earlier for earlier, later in itertools.pairwise(tries)]
    assert all(gap >= 0.05 * 2 ** n * 0.9 for n, gap in enumerate(gaps)), gaps


async def test_a_failed_state_gives_way_to_a_newer_one_but_a_kept_one_is_tried_again():
    tried: list[int] = []

    async def flaky(item: int) -> None:
        tried.append(item)
        if tried.count(item) == 1 and item in (1, 3):
            coalescer.submit(item + 1)  # a newer state came while this one was failing
            raise OSError("Discord is down")

    coalescer = EditCoalescer(flaky, min_interval=0.0, retry_delay=0.01)
    coalescer.submit(1)
    await asyncio.wait_for(coalescer.flush(), timeout=30)
    coalescer.submit(3, keep=True)
    await asyncio.wait_for(coalescer.flush(), timeout=30)
    assert tried == [1, 2, 3, 3, 4]


def test_negative_interval_is_refused():
    with pytest.raises(ValueError, match="min_interval"):
        EditCoalescer(Recorder(), min_interval=-1)
    with pytest.raises(ValueError, match="retry_delay"):
        EditCoalescer(Recorder(), min_interval=1, retry_delay=0)

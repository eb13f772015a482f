"""A flood of requests starts no thread in the station (issue 19 part 6,
docs/memory.md): the routes' dependencies run on the loop, and recalls from
the journal queue for the API's few reader threads, started with it. Each
thread that allocates gets a malloc arena that keeps its peak, so a thread
started by a flood is memory the station keeps; counted in threads, not RSS."""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from support.station_rig import Rig, play_biased_wheel

AT_ONCE = 16
FLOODS = 5


def threads() -> int:
    """The process's threads, Python's and any other."""
    return len(os.listdir("/proc/self/task"))


def test_a_flood_of_recalls_starts_no_thread(rig: Rig) -> None:
    play_biased_wheel(rig, "rou", 3, seed=5)
    paths = [
        "/tables/rou/rounds?limit=20",
        "/tables/rou/rounds/r1",
        "/tables/rou/events?after=0",
        "/tables/bac/rounds",
        "/tables/bj/state",
    ]
    with ThreadPoolExecutor(AT_ONCE) as clients:
        # The clients' threads are all started before the count: what it sees
        # after the flood is the station's.
        everyone = threading.Barrier(AT_ONCE)
        list(clients.map(lambda _: everyone.wait(), range(AT_ONCE)))
        before = threads()
        names = Counter(t.name for t in threading.enumerate())
        for _ in range(FLOODS):
            answers = list(clients.map(lambda p: rig.get(p, "pit_boss"), paths * AT_ONCE))
            assert {a.status_code for a in answers} == {200}, answers
        assert threads() <= before, Counter(t.name for t in threading.enumerate()) - names

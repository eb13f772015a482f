"""Worker threads that are all there from the start, and never more.

asyncio's default executor and AnyIO's worker pool start a thread whenever a
call finds none idle: a flood of requests starts new ones, and each thread
that allocates gets a glibc malloc arena of its own (up to eight a core),
which keeps its peak size after the flood is over. A `FixedThreads` starts
all its threads when it is made, so the arenas they use are made then too,
and a flood queues for them instead of adding more (docs/memory.md).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class FixedThreads:
    """``workers`` threads named ``name``, started at once; calls queue for them."""

    def __init__(self, workers: int, name: str) -> None:
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix=name)
        # A pool starts a thread only when a call finds none idle: calls that
        # each wait until all of them run make it start every thread now.
        everyone = threading.Barrier(workers)
        for started in [self._executor.submit(everyone.wait) for _ in range(workers)]:
            started.result()

    async def run(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` on one of the threads, without blocking the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(call, *args, **kwargs))

    def close(self) -> None:
        """No more calls; the threads end once the calls already queued are done."""
        self._executor.shutdown(wait=False)

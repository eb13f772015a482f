"""A long start tells systemd it is still working.

After an upgrade a table's snapshot is from other code and the start replays its
whole journal (docs/recovery.md): weeks of a busy table take longer than the
unit's start timeout (``TimeoutStartSec=``), and a start killed by it replays the
same journal again, for ever. So while the start reads records, every ``every``
seconds it gives itself more time (``EXTEND_TIMEOUT_USEC``) and says how far it
is (``STATUS=``). The replay runs on the loop without yielding, so it reports
from its own loop (``replaying``); a part of the start that awaits (working out a
basic strategy table in child processes) reports from a task (``meanwhile``). A
start shorter than ``every`` says nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from dealer_station import sdnotify

# Each report extends the start by this many periods from now: two reports may
# come late (a slow record, a busy machine) before the timeout strikes.
EXTENSION_PERIODS = 3


@dataclass
class StartProgress:
    every: float
    clock: Callable[[], float] = time.monotonic
    table: str = ""
    # Records read at this start, by every table so far.
    read: int = 0
    _due: float = field(init=False)

    def __post_init__(self) -> None:
        self._due = self.clock() + self.every

    def replaying(self, table: str) -> Callable[[], None]:
        """The callback that counts the records of ``table``'s replay."""
        self.table = table
        return self.record_read

    def record_read(self) -> None:
        self.read += 1
        now = self.clock()
        if now < self._due:
            return
        self._due = now + self.every
        self._report(f"replaying table {self.table}'s journal, {self.read} records read")

    @contextlib.asynccontextmanager
    async def meanwhile(self, doing: str) -> AsyncIterator[None]:
        """Report ``doing`` every period while the body awaits."""

        async def report() -> None:
            while True:
                await asyncio.sleep(max(0.0, self._due - self.clock()))
                self._due = self.clock() + self.every
                self._report(doing)

        reporter = asyncio.create_task(report(), name="start progress")
        try:
            yield
        finally:
            reporter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporter

    def _report(self, doing: str) -> None:
        sdnotify.still_starting(EXTENSION_PERIODS * self.every, f"starting: {doing}")

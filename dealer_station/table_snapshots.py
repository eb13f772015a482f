"""When a table takes its snapshot: after enough records, a moment after the
record that makes it due, off that input's path (docs/recovery.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from dealer_station.config import SNAPSHOT_EVERY

# How long after the record that makes a snapshot due it is taken.
SNAPSHOT_DELAY_S = 1.0


@dataclass
class SnapshotSchedule:
    take: Callable[[], None]
    every: int = SNAPSHOT_EVERY
    # Records journaled since the last snapshot (or replayed since it, at a start).
    since: int = 0
    _due: asyncio.TimerHandle | None = field(default=None, repr=False)

    def count(self) -> None:
        """One more record: the snapshot is due once there are enough."""
        self.since += 1
        self.consider()

    def consider(self) -> None:
        if self.since < self.every or self._due is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # recovering before the loop runs: run() looks again
            return
        self._due = loop.call_later(SNAPSHOT_DELAY_S, self._take)

    def taken(self) -> None:
        self.since = 0

    def cancel(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None

    def _take(self) -> None:
        self._due = None
        self.take()

"""How long to wait before trying again: exponential back-off with full jitter.

A studio's stations share one broker. After the broker restarts they all lose it
at the same instant, and with a plain doubling delay they would all try again at
the same instants too, a hundred connects (and TLS handshakes) at once, every
time. Full jitter (each delay drawn at random between 0 and the doubling cap)
spreads them over the whole window while keeping the cap's growth.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Backoff:
    first: float
    last: float
    rng: random.Random = field(default_factory=random.Random)
    # The cap of the next delay: doubles from ``first`` to ``last``.
    _cap: float = field(init=False)

    def __post_init__(self) -> None:
        if not 0 < self.first <= self.last:
            raise ValueError(f"back-off needs 0 < first <= last, not {self.first}, {self.last}")
        self._cap = self.first

    def next(self) -> float:
        """The next delay, in seconds: uniform in [0, cap], then the cap doubles."""
        delay = self.rng.uniform(0.0, self._cap)
        self._cap = min(self._cap * 2, self.last)
        return delay

    def reset(self) -> None:
        """After a success: the next failure starts from ``first`` again."""
        self._cap = self.first

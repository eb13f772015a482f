"""Roulette statistics for the studio overlay and the dealer console (issues 5
and 6): the last results, hot and cold numbers, and how the outside bets have
fallen, over a window of recent spins.

Input: the winning numbers of a table's spins, oldest first, as the journal has
them (a voided round has no number and is not in it). Colours, dozens, columns
and the even-money sets are the layout's (``roulette_layout``, docs/rules.md).

Decisions:

- ``last``: the most recent ``last`` numbers, most recent first.
- The window: the most recent ``window`` spins (all of them while fewer have
  been played). Counts, hot, cold and the splits are over the window; ``spins``
  says how many were played in all, ``window`` how many the window holds.
- Hot: the numbers that came up in the window, most often first. A number that
  never came up is never hot, so early on the list can be shorter than asked.
- Cold: the numbers that came up least often, those that never came up (count
  0) first. Both lists order equal counts by number, lowest first: a stable
  order that implies nothing about recency.
- Every split has a ``zero`` share, because zero loses every outside bet, so
  a split's counts add up to the window. In ``colour`` it is called ``green``.
- A percentage is of the spins in the window, rounded half up to one decimal
  (so a split's percentages may add up to 99.9 or 100.1); 0.0 when the window
  is empty.

JSON (``to_json``)::

    {"spins": 812, "window": 100,
     "last": [{"number": 17, "colour": "black"}, ...],
     "hot": [{"number": 17, "count": 7}, ...],
     "cold": [{"number": 4, "count": 0}, ...],
     "counts": [c0, c1, ..., c36],
     "colour": {"red": {"count": 48, "percent": 48.0}, "black": ..., "green": ...},
     "parity": {"odd": ..., "even": ..., "zero": ...},
     "range": {"low": ..., "high": ..., "zero": ...},
     "dozen": {"first": ..., "second": ..., "third": ..., "zero": ...},
     "column": {"first": ..., "second": ..., "third": ..., "zero": ...}}

``column`` "first" is 1, 4, ... 34 and ``dozen`` "first" is 1-12, as on the layout.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final

from dealer_station.games.roulette_layout import POCKETS, colour_of, placements

ZERO: Final = frozenset({0})
_ORDINALS: Final = ("first", "second", "third")

# Each split: its shares and the numbers that fall in each.
SPLITS: Final[dict[str, dict[str, frozenset[int]]]] = {
    "colour": {"red": placements("red")[()], "black": placements("black")[()], "green": ZERO},
    "parity": {"odd": placements("odd")[()], "even": placements("even")[()], "zero": ZERO},
    "range": {"low": placements("low")[()], "high": placements("high")[()], "zero": ZERO},
    "dozen": {
        **{name: placements("dozen")[(i,)] for i, name in enumerate(_ORDINALS, 1)},
        "zero": ZERO,
    },
    "column": {
        **{name: placements("column")[(i,)] for i, name in enumerate(_ORDINALS, 1)},
        "zero": ZERO,
    },
}

_TENTH: Final = Decimal("0.1")


@dataclass(frozen=True, slots=True)
class RouletteStats:
    spins: int
    # The most recent numbers, most recent first.
    last: tuple[int, ...]
    # How often each number came up in the window; index = number.
    counts: tuple[int, ...]
    # (number, count) pairs, in the order the overlay lists them.
    hot: tuple[tuple[int, int], ...]
    cold: tuple[tuple[int, int], ...]

    @property
    def window(self) -> int:
        """How many spins the window holds."""
        return sum(self.counts)

    def split(self, name: str) -> dict[str, int]:
        """How many spins in the window fell in each share of a split
        (``colour``, ``parity``, ``range``, ``dozen``, ``column``)."""
        return {
            share: sum(self.counts[n] for n in numbers) for share, numbers in SPLITS[name].items()
        }

    def percent(self, count: int) -> float:
        if not self.window:
            return 0.0
        exact = Decimal(100 * count) / Decimal(self.window)
        return float(exact.quantize(_TENTH, rounding=ROUND_HALF_UP))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "spins": self.spins,
            "window": self.window,
            "last": [{"number": n, "colour": colour_of(n)} for n in self.last],
            "hot": [{"number": n, "count": c} for n, c in self.hot],
            "cold": [{"number": n, "count": c} for n, c in self.cold],
            "counts": list(self.counts),
        }
        for name in SPLITS:
            out[name] = {
                share: {"count": count, "percent": self.percent(count)}
                for share, count in self.split(name).items()
            }
        return out


def roulette_stats(
    results: Sequence[int], *, last: int = 20, window: int = 100, hot_cold: int = 5
) -> RouletteStats:
    """The statistics of a table's spins so far (oldest first): the ``last``
    most recent numbers; counts over the most recent ``window`` spins; the
    ``hot_cold`` hottest and coldest numbers."""
    if last < 0 or window < 1 or hot_cold < 0:
        raise ValueError("last and hot_cold must be at least 0, window at least 1")
    bad = sorted({n for n in results if n not in POCKETS})
    if bad:
        raise ValueError(f"not a pocket of a single-zero wheel: {bad}")
    recent = results[-window:]
    seen = Counter(recent)
    counts = tuple(seen[n] for n in range(len(POCKETS)))
    hot = sorted(seen.items(), key=lambda nc: (-nc[1], nc[0]))
    cold = sorted(enumerate(counts), key=lambda nc: (nc[1], nc[0]))
    return RouletteStats(
        spins=len(results),
        last=tuple(reversed(results[-last:])) if last else (),
        counts=counts,
        hot=tuple(hot[:hot_cold]),
        cold=tuple(cold[:hot_cold]),
    )

"""A table's statistics: baccarat's roads, roulette's hot and cold numbers.

They fold in the settled rounds of the current shoe (the roads start again with
each shoe) or the last spins, and change only when a round settles or a shoe
begins. Working them out costs milliseconds that a card must not wait for, so
each version of the settled rounds is a `StatsMoment` that works its statistics
out once, when a channel first asks for them, never on the input's path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

from dealer_station.clock import iso
from dealer_station.games.baccarat_roads import RoundMark, roads
from dealer_station.games.engine import Output
from dealer_station.games.roulette_stats import roulette_stats
from dealer_station.payloads import Stats
from dealer_station.round_outputs import (
    RoundOutput,
    RoundSettled,
    ShoeChanged,
    parse_outputs,
    to_json,
)

# Settled rounds kept for the statistics: a whole 8-deck baccarat shoe holds
# about 80; roulette's hot and cold numbers look at the last 100 spins.
STATS_ROUNDS = 500


def for_statistics(settled: RoundSettled) -> RoundSettled:
    """A settled round as the statistics keep it: without its payouts, which no
    statistic reads and which are most of its size (4 KB of a roulette round's
    5 in memory, more with more bets). A roulette table keeps 500 rounds, some
    two hours of play: with payouts they grew the station 1.3 MiB an hour for
    those hours (docs/memory.md). The round's full record is the journal's."""
    if "payouts" not in settled.settlement:
        return settled
    kept = {k: v for k, v in settled.settlement.items() if k != "payouts"}
    return replace(settled, settlement=kept)


@dataclass(frozen=True, eq=False)
class StatsMoment:
    """The statistics of one version of a table's settled rounds."""

    table: str
    game: str
    settled: tuple[RoundSettled, ...]
    at: str

    @cached_property
    def stats(self) -> Stats | None:
        if self.game == "baccarat":
            data = roads([RoundMark.from_outcome(o.settlement) for o in self.settled]).to_json()
        elif self.game == "roulette":
            # A roulette round that is not voided has its number.
            numbers = [o.number for o in self.settled if o.number is not None]
            data = roulette_stats(numbers).to_json()
        else:
            return None
        return Stats(table=self.table, at=self.at, game=self.game, stats=data)


@dataclass
class TableStats:
    """What the statistics need, kept as the table's outputs pass."""

    table: str
    settled: list[RoundSettled] = field(default_factory=list)
    # When the statistics last changed (a round settled, a new shoe).
    at: str = ""
    _moment: StatsMoment | None = field(default=None, repr=False)

    def remember(self, outputs: Iterable[RoundOutput], now: datetime) -> None:
        # The time is written only when the statistics change: most inputs do
        # not. Empty statistics are a fact from the table's first input on (a
        # fresh roulette table publishes them before any spin), never at "".
        if not self.at:
            self.at, self._moment = iso(now), None
        for out in outputs:
            if isinstance(out, ShoeChanged):
                self.settled.clear()
            elif isinstance(out, RoundSettled) and not out.voided:
                self.settled.append(for_statistics(out))
                del self.settled[:-STATS_ROUNDS]
            else:
                continue
            self.at = iso(now)
            self._moment = None

    def restore(self, settled: Iterable[Output], at: str) -> None:
        """As a snapshot left them (`settled_json`)."""
        parsed = parse_outputs(settled)
        # An older snapshot kept the payouts: the same rounds without them.
        self.settled = [for_statistics(o) for o in parsed if isinstance(o, RoundSettled)]
        self.at, self._moment = at, None

    def settled_json(self) -> tuple[Output, ...]:
        """The settled rounds as a snapshot keeps them: the engine's JSON, the
        same whatever this code's types (a snapshot outlives an upgrade)."""
        return tuple(to_json(o) for o in self.settled)

    def moment(self, game: str) -> StatsMoment:
        """The statistics as they stand: the same moment until they change."""
        if self._moment is None or self._moment.game != game:
            self._moment = StatsMoment(self.table, game, tuple(self.settled), self.at)
        return self._moment

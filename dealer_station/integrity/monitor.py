"""The integrity monitor: observations in, findings and alarms out.

``Monitor.feed`` takes one observation at a time (``observations.observe``
builds them from a journal record and its round events) and only counts:
a spin adds to the pocket counts, a card to the shoe's order. The tests run
when ``report`` is asked, over everything fed since the start, at the level
the config gives (``[integrity] level``). A report is one look: looking after
every spin and alarming on any look would raise far more false alarms than the
level says, so the station asks at its checkpoints (docs/integrity.md).

A table that changes game starts its counts again; what it had is kept and
reported under the game it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dealer_station.games import blackjack_rules
from dealer_station.games.rejection import Rejected
from dealer_station.games.rulefile import RuleFileError
from dealer_station.games.table import GAMES
from dealer_station.integrity.findings import Finding, Skipped, Verdict, verdicts
from dealer_station.integrity.hold import HoldTally, baccarat_moments, roulette_moments
from dealer_station.integrity.observations import (
    BaccaratCoup,
    CardOut,
    CountingOut,
    DealerHand,
    DealerOn,
    Observation,
    Settled,
    ShoeEnd,
    Spin,
    TableChosen,
)
from dealer_station.integrity.outcomes import BaccaratTally, BustTally
from dealer_station.integrity.pictures import dealer_hold_pictures, hold_pictures, wheel_pictures
from dealer_station.integrity.shoe_audit import ShoeAudit
from dealer_station.integrity.wheel import WheelTally


@dataclass(slots=True)
class _Table:
    table: str
    game: str
    variant: str | None
    decks: int | None
    problem: str | None = None  # why the game's rules could not be read
    dealer: str | None = None
    wheel: WheelTally | None = None
    shoe: ShoeAudit | None = None
    baccarat: BaccaratTally | None = None
    busts: BustTally | None = None
    hold: HoldTally | None = None
    shuffled_every_round: bool = False

    @classmethod
    def start(cls, table: str, game: str, variant: str | None, decks: int | None) -> _Table:
        out = cls(table, game, variant, decks)
        if game == "roulette":
            out.wheel = WheelTally()
        try:
            setup = GAMES[game](variant, decks)
        except (KeyError, Rejected, RuleFileError, OSError, ValueError) as exc:
            out.problem = f"the rules of {game} {variant or ''} cannot be read here: {exc}"
            out.hold = HoldTally(None)
            return out
        out.variant = setup.variant
        out.decks = setup.decks
        out.shuffled_every_round = setup.shuffle_every_round
        if game == "roulette":
            out.hold = HoldTally(roulette_moments(setup.variant))
        elif game == "baccarat":
            assert setup.decks is not None
            out.hold = HoldTally(baccarat_moments(setup.variant, decks))
            out.baccarat = BaccaratTally(setup.decks)
        else:
            assert setup.decks is not None
            rules = blackjack_rules.load_variant(setup.variant)
            out.hold = HoldTally(None)
            out.busts = BustTally(setup.decks, rules.dealer_hits_soft_17)
        if setup.decks is not None and not setup.shuffle_every_round:
            out.shoe = ShoeAudit(setup.decks)
        return out

    def findings(self) -> tuple[list[Finding], list[Skipped]]:
        found: list[Finding] = []
        skipped: list[Skipped] = []
        for part in (self.wheel, self.baccarat, self.busts, self.hold):
            if part is not None:
                f, s = part.findings(self.table)
                found += f
                skipped += s
        if self.shoe is not None:
            found += self.shoe.found
            skipped += self.shoe.skipped(self.table)
            found += self.shoe.shuffle_findings(f"{self.table}, the shoe in play")
        return found, skipped


@dataclass(frozen=True, slots=True)
class TableReport:
    table: str
    game: str
    variant: str | None
    verdicts: tuple[Verdict, ...]
    skipped: tuple[Skipped, ...]
    problem: str | None

    @property
    def alarms(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.alarm)


@dataclass(frozen=True, slots=True)
class Report:
    level: float
    tables: tuple[TableReport, ...]

    @property
    def alarms(self) -> tuple[Verdict, ...]:
        return tuple(v for t in self.tables for v in t.alarms)

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "correction": "bonferroni",
            "alarms": len(self.alarms),
            "tables": [
                {
                    "table": t.table,
                    "game": t.game,
                    "variant": t.variant,
                    "problem": t.problem,
                    "findings": [v.to_json(self.level) for v in t.verdicts],
                    "skipped": [
                        {
                            "test": s.test,
                            "subject": s.subject,
                            "sample": s.sample,
                            "minimum": s.minimum,
                            "why": s.why,
                        }
                        for s in t.skipped
                    ],
                }
                for t in self.tables
            ],
        }


@dataclass(slots=True)
class Monitor:
    _tables: dict[str, _Table] = field(default_factory=dict)
    _done: list[_Table] = field(default_factory=list)

    def feed_all(self, observations: Iterable[Observation]) -> None:
        for observation in observations:
            self.feed(observation)

    def feed(self, o: Observation) -> None:
        if isinstance(o, TableChosen):
            old = self._tables.get(o.table)
            new = _Table.start(o.table, o.game, o.variant, o.decks)
            if old is not None and (old.game, old.variant, old.decks) == (
                new.game,
                new.variant,
                new.decks,
            ):
                return  # the same rules named again (a variant's name for its default)
            if old is not None:
                self._done.append(old)
            self._tables[o.table] = new
            return
        t = self._tables.get(o.table)
        if t is None:
            game = _game_of(o)
            if game is None:
                return  # a card before the journal said which game: its shoe is unknown
            t = self._tables[o.table] = _Table.start(o.table, game, None, None)
            if t.shoe is not None:
                t.shoe.started = False  # joined mid-shoe: audit from the next shoe on
        if isinstance(o, Spin):
            if t.wheel is not None:
                t.wheel.add(o, t.dealer)
        elif isinstance(o, CardOut):
            if t.shoe is not None:
                t.shoe.add(o)
        elif isinstance(o, CountingOut):
            if t.shoe is not None:
                t.shoe.counting_out(o)
        elif isinstance(o, ShoeEnd):
            if t.shoe is not None:
                t.shoe.end(o.table, o)
        elif isinstance(o, Settled):
            if t.hold is not None:
                t.hold.add(o, t.dealer)
        elif isinstance(o, BaccaratCoup):
            if t.baccarat is not None:
                t.baccarat.add(o)
        elif isinstance(o, DealerHand):
            if t.busts is not None:
                t.busts.add(o)
        elif isinstance(o, DealerOn):
            t.dealer = o.dealer

    def pictures(self, table: str) -> dict[str, Any]:
        """The counts the pit boss's page draws for the table's game now
        (``pictures``): the wheel's pockets and signatures, the days' hold."""
        t = self._tables.get(table)
        if t is None:
            return {"game": None, "wheel": None, "hold": [], "dealers": []}
        return {
            "game": t.game,
            "wheel": wheel_pictures(t.wheel) if t.wheel is not None else None,
            "hold": hold_pictures(t.hold) if t.hold is not None else [],
            "dealers": dealer_hold_pictures(t.hold) if t.hold is not None else [],
        }

    def report(self, level: float) -> Report:
        out = []
        for t in [*self._done, *self._tables.values()]:
            found, skipped = t.findings()
            out.append(
                TableReport(
                    t.table,
                    t.game,
                    t.variant,
                    tuple(verdicts(found, level)),
                    tuple(skipped),
                    t.problem,
                )
            )
        return Report(level, tuple(out))


def _game_of(o: Observation) -> str | None:
    """The game an observation implies, for a journal read from a later start
    than its table event: a spin is roulette, a settlement names its game."""
    if isinstance(o, Spin):
        return "roulette"
    if isinstance(o, Settled):
        return o.game
    if isinstance(o, BaccaratCoup):
        return "baccarat"
    if isinstance(o, DealerHand):
        return "blackjack"
    return None

"""A roulette table's readings of the winning number, from its camera and its
wheel sensor, turned into one input (the rule is ``wheel_verdict.judge``).

Each bridge hands its reading to the table's `WheelReadings` on the loop. A
table with one source settles at once, as it always has. With two, the first
reading of a spin waits up to ``wait_seconds`` for the other; the verdict is
journaled as one input whose body carries both readings (``verdict`` and
``readings``, docs/journal.md): a settled ``wheel_result`` named by the source
that settles it, or the round held (``hold``, ``wheel_disagree``) for a pit
boss, who sees both numbers in the alarm and enters the number. A source whose
device is offline is not waited for. A reading that comes after its spin was
settled is compared with the verdict: a different number is an alarm (the
round was paid on the other).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from dealer_station.actor import TableActor
from dealer_station.games.events import HoldRound, WheelResult
from dealer_station.games.table import WHEEL_DISAGREE
from dealer_station.input_identity import SensorReading, SpinReading, TwoReadings
from dealer_station.payloads import Device
from dealer_station.table_inputs import Alarm, Command
from dealer_station.wheel_verdict import Disagree, Settle, Source, Verdict, judge

log = logging.getLogger(__name__)

# The journal's source of each reading's input.
SOURCE_NAMES: dict[Source, str] = {"camera": "camera", "sensor": "wheel_sensor"}
WORDS: dict[Source, str] = {"camera": "camera", "sensor": "wheel sensor"}
DEVICE_NAMES: dict[Source, Device] = {"camera": "camera", "sensor": "wheel_sensor"}


@dataclass
class _Spin:
    round_id: str
    numbers: dict[Source, int] = field(default_factory=dict)
    identities: dict[Source, SpinReading | SensorReading] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    verdict: Verdict | None = None


class WheelReadings:
    def __init__(self, actor: TableActor, sources: tuple[Source, ...], wait_seconds: float) -> None:
        self.actor = actor
        self.sources = sources
        self.wait_seconds = wait_seconds
        self._spin: _Spin | None = None

    def offer(self, source: Source, number: int, identity: SpinReading | SensorReading) -> None:
        """A source's number for the spin in play (on the table's loop)."""
        state = self.actor.state
        rnd = None if state is None else state.round
        round_id = getattr(rnd, "round_id", None)
        spin = self._spin
        if spin is not None and spin.round_id != round_id:
            self._drop()
            spin = None
        if spin is not None and spin.verdict is not None:
            self._late(spin, source, number)
            return
        due = state is not None and state.next_step().kind == "wheel"
        if len(self.sources) == 1 or round_id is None or not due:
            # Nothing to wait for: the table takes it, or refuses it and says why.
            self.actor.submit(Command(SOURCE_NAMES[source], WheelResult(number), identity=identity))
            return
        if spin is None:
            spin = self._spin = _Spin(round_id)
            spin.timer = asyncio.get_running_loop().call_later(self.wait_seconds, self._waited)
        if source in spin.numbers:
            return  # a source says a spin's number once
        spin.numbers[source] = number
        spin.identities[source] = identity
        # A source whose device is offline will say nothing: no need to wait for it.
        offline = any(
            self.actor.devices.get(DEVICE_NAMES[s], ("online",))[0] == "offline"
            for s in self.sources
            if s not in spin.numbers
        )
        self._decide(spin, waited_out=offline)

    @property
    def waiting(self) -> bool:
        """A spin's first reading waits for the other source's."""
        return self._spin is not None and self._spin.verdict is None

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        if self._spin is not None and self._spin.timer is not None:
            self._spin.timer.cancel()
        self._spin = None

    def _waited(self) -> None:
        if self._spin is not None:
            self._decide(self._spin, waited_out=True)

    def _decide(self, spin: _Spin, waited_out: bool) -> None:
        verdict = judge(self.sources, spin.numbers, waited_out)
        if verdict is None:
            return
        spin.verdict = verdict
        if spin.timer is not None:
            spin.timer.cancel()
        camera = spin.identities.get("camera")
        sensor = spin.identities.get("sensor")
        readings = TwoReadings(
            verdict.verdict if isinstance(verdict, Settle) else "disagree",
            None if not isinstance(camera, SpinReading) else (spin.numbers["camera"], camera),
            None if not isinstance(sensor, SensorReading) else (spin.numbers["sensor"], sensor),
        )
        if isinstance(verdict, Disagree):
            self.actor.submit(Command("station", HoldRound(WHEEL_DISAGREE), identity=readings))
            said = ", ".join(f"{WORDS[s].upper()} READ {n}" for s, n in verdict.numbers.items())
            self.actor.submit(
                Alarm(
                    WHEEL_DISAGREE,
                    f"{said}: the round holds. Pit boss: check the video, then enter the "
                    "number or void the round",
                    "station",
                )
            )
            return
        source = SOURCE_NAMES[verdict.source]
        self.actor.submit(Command(source, WheelResult(verdict.number), identity=readings))
        if verdict.missing is not None:
            missing = WORDS[verdict.missing]
            self.actor.submit(
                Alarm(
                    f"{SOURCE_NAMES[verdict.missing]}_silent",
                    f"The {missing} gave no number for this spin in {self.wait_seconds:g} s: "
                    f"settled on the {WORDS[verdict.source]}'s {verdict.number}. "
                    f"Check the {missing}",
                    "station",
                )
            )

    def _late(self, spin: _Spin, source: Source, number: int) -> None:
        verdict = spin.verdict
        if not isinstance(verdict, Settle) or source in spin.numbers:
            return  # a held round's pit boss has both numbers; a repeat says nothing new
        spin.numbers[source] = number
        if number == verdict.number:
            log.info(
                "table %s: the %s's late %d agrees",
                self.actor.id,
                WORDS[source],
                number,
                extra=self.actor.log_fields(),
            )
            return
        self.actor.submit(
            Alarm(
                "wheel_late_disagree",
                f"The {WORDS[source]} read {number} after the round was settled on the "
                f"{WORDS[verdict.source]}'s {verdict.number}. Pit boss: check the video and "
                "the round's payouts",
                "station",
            )
        )

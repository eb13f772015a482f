"""Two sources of the winning number, one verdict (docs/wheel_sensor.md, "Two
sources, one verdict"). Pure: the readings of one spin in, what settles it out.

A table has a camera, a wheel sensor, or both (``TableConfig.wheel_sources``,
the primary first). With one source its reading settles at once, as it
always has. With both:

- the same number from both settles the round (the primary names it);
- different numbers hold the round for a pit boss, with both readings shown;
- one reading alone settles once the other has not come within the wait, flagged
  in the journal (``camera_only``/``sensor_only``) with an alarm, since a
  source went quiet when it should have spoken.

The verdict never picks between two numbers: a wrong payout is worse than a
held round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Source = Literal["camera", "sensor"]


@dataclass(frozen=True, slots=True)
class Settle:
    number: int
    source: Source  # whose reading names it: the primary when both agree
    verdict: Literal["agreed", "camera_only", "sensor_only", "single"]
    missing: Source | None = None  # the source that gave no reading in time


@dataclass(frozen=True, slots=True)
class Disagree:
    numbers: Mapping[Source, int]


Verdict = Settle | Disagree


def judge(
    sources: tuple[Source, ...], numbers: Mapping[Source, int], waited_out: bool
) -> Verdict | None:
    """What settles a spin, given its table's ``sources`` (primary first), the
    numbers read so far, and whether the wait for the others is over; None:
    wait on."""
    read = [s for s in sources if s in numbers]
    if not read:
        return None
    if len(sources) == 1:
        return Settle(numbers[read[0]], read[0], "single")
    if len(read) == len(sources):
        if len({numbers[s] for s in read}) == 1:
            return Settle(numbers[read[0]], read[0], "agreed")
        return Disagree({s: numbers[s] for s in read})
    if not waited_out:
        return None
    (alone,) = read
    (missing,) = [s for s in sources if s != alone]
    flag: Literal["camera_only", "sensor_only"] = (
        "camera_only" if alone == "camera" else "sensor_only"
    )
    return Settle(numbers[alone], alone, flag, missing)

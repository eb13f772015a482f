"""A ball that goes round against the rotor, comes down and lies still in a pocket, fed to
the tracker as sightings, rotor states and pocket readings (as in test_spin_tracker.py),
so that where the ball lies in its pocket, and how each frame reads it, is exact."""

from __future__ import annotations

import math
from collections.abc import Callable

from vision.ball import BallSighting, Sightings
from vision.locate import BallFix
from vision.observations import NoResult, Observation, SpinResult
from vision.params import DetectorParams
from vision.rotor import RotorState
from vision.spin import PocketReading, ReadPocket, SpinTracker

FPS = 30.0
POCKET = 2 * math.pi / 37
ROTOR = 2.0  # rad/s, clockwise
DROP = 120  # the frame the ball comes down in
# docs/rules.md: the wheel clockwise from the zero, and its red numbers (written out
# here, so the expectations do not lean on the code's own table).
# fmt: off
WHEEL = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1,
         20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
# fmt: on

# How the locator places the ball sighted at rest in one frame (its index): None when it
# cannot.
Placing = Callable[[int, BallSighting], BallFix | None]


def clean(frame: int, ball: BallSighting) -> BallFix:
    """The ball's edges clear, its centre where it was sighted."""
    return BallFix(ball.theta, 0.3 * POCKET, None, True)


def rest(
    params: DetectorParams, from_centre: float, place: Placing = clean
) -> tuple[SpinResult | NoResult, int]:
    """The verdict on a ball that drops at frame `DROP` and lies still from then on,
    `from_centre` of a pocket from its pocket's centre, and that pocket (its index from
    the zero)."""
    tracker = SpinTracker(params)
    out: list[Observation] = []
    theta, index, phi = 0.0, 0, 0.0
    for i in range(200):
        t = i / FPS
        zero = ROTOR * t
        rotor = RotorState(zero % (2 * math.pi), ROTOR, 0.9, 30.0, 0.0)
        if i < DROP:  # 2.2 rev/s slowing to 0.5 rev/s, counterclockwise
            seen = Sightings(BallSighting(theta % (2 * math.pi), 1.3, 90.0), ())
            theta -= 2 * math.pi * (2.2 - 1.7 * i / DROP) / FPS
        else:
            if i == DROP:  # where it comes down, in the pocket it comes down in
                index = round((theta - zero) / POCKET)
                phi = (index + from_centre) * POCKET
            seen = Sightings(None, (BallSighting((zero + phi) % (2 * math.pi), 0.8, 60.0),))
        read = _reader(i, zero % (2 * math.pi), WHEEL[index % 37], place)
        out += tracker.step(i, t, rotor, seen, read)
    [verdict] = [o for o in out if isinstance(o, SpinResult | NoResult)]
    return verdict, index


def _reader(frame: int, zero: float, number: int, place: Placing) -> ReadPocket:
    """The rotor read cleanly next to the ball: the zero where it is, the pocket's colour."""
    colour = "green" if number == 0 else "red" if number in RED else "black"

    def read(ball: BallSighting) -> PocketReading:
        return PocketReading(zero, zero, 0.9, colour, place(frame, ball))

    return read

"""The rotor's angle, speed and direction, frame by frame, from the pocket ring's pattern."""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.geometry import FloatArray
from vision.pockets import POCKET_DEGREES
from vision.ring import RingMatcher, zero_margin

_POCKET = math.radians(POCKET_DEGREES)
_RELOCK_FRAMES = 5


def wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi


@dataclass(frozen=True)
class RotorState:
    zero: float | None  # wheel angle of the zero pocket; None until locked
    speed: float  # rad/s, positive clockwise
    score: float  # ring pattern match this frame
    margin: float  # how surely the green zero was seen this frame
    sure_for: float  # seconds since the zero was last seen clearly

    @property
    def rpm(self) -> float:
        return abs(self.speed) * 60 / (2 * math.pi)

    @property
    def direction(self) -> int:
        return 0 if abs(self.speed) < 0.05 else (1 if self.speed > 0 else -1)


class RotorTracker:
    """Locks on the zero and follows it; a frame that disagrees is outvoted by the next ones.

    The pattern gives the angle modulo two pockets in every frame; the green zero says
    which, when it is visible and not covered by a hand or the ball.
    """

    def __init__(self, bins: int, min_score: float, min_margin: float) -> None:
        self.matcher = RingMatcher(bins)
        self.min_score, self.min_margin = min_score, min_margin
        self.zero: float | None = None
        self.speed = 0.0
        self._t: float | None = None
        self._sure_t: float | None = None
        self._conflicts = 0
        self._has_speed = False

    def update(self, red: FloatArray, green: FloatArray, t: float) -> RotorState:
        m = self.matcher.align(red)
        margin = zero_margin(red, green, m.zero) if m.score >= self.min_score else 0.0
        sure = m.score >= self.min_score and margin >= self.min_margin
        dt = 0.0 if self._t is None else max(1e-6, t - self._t)
        self._t = t
        if self.zero is None or not self._has_speed:
            if sure:
                if self.zero is not None:
                    self.speed = wrap(m.zero - self.zero) / dt
                    self._has_speed = True
                self.zero, self._sure_t = m.zero, t
            else:
                self.zero = None
        else:
            predicted = self.zero + self.speed * dt
            innovation = wrap(m.zero - predicted)
            if m.score >= self.min_score and abs(innovation) < 0.9 * _POCKET:
                self._accept(predicted, innovation, dt)
                self._conflicts = 0
                if sure:
                    self._sure_t = t
            elif sure:
                self._conflicts += 1
                self.zero = predicted
                if self._conflicts >= _RELOCK_FRAMES:
                    self.zero, self._conflicts, self._sure_t = m.zero, 0, t
                    self._has_speed = False
            else:
                self.zero = predicted
        if self.zero is not None:
            self.zero %= 2 * math.pi
        sure_for = math.inf if self._sure_t is None else t - self._sure_t
        return RotorState(self.zero, self.speed, m.score, margin, sure_for)

    def _accept(self, predicted: float, innovation: float, dt: float) -> None:
        self.zero = predicted + innovation
        if dt > 0:
            # Smooth the speed over a few frames: single-frame angles carry pixel noise.
            self.speed += 0.3 * innovation / dt

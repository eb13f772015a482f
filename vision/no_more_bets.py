"""No more bets, called from the ball's speed on the track (issue 16, part 1).

    judge = NoMoreBets(below_revs_per_s=1.0, before_drop_s=1.5)
    for obs in detector.feed(frame, t):
        closed = judge.feed(obs)      # BetsClosed once per spin, else None
        if closed is not None:
            ...                        # close betting; journal closed.rule and closed.revs_per_s

Pure: it sees only the detector's observations. Whichever configured rule holds first
closes the spin's betting: the ball slower than `below_revs_per_s`, or expected to
drop within `before_drop_s`. A spin whose ball dropped before either held (the rules
set below the wheel's drop speed, or a ball lost from sight on the track) is closed
at the drop, as `ball_dropped`: late, but no bet is taken on a ball in the pockets.
When the camera never sees the ball go round, nothing fires: the table's betting
timer is the fallback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from vision.observations import BallSpeed, Observation, Phase, PhaseChange


class BetRule(StrEnum):
    BELOW_REVS_PER_S = "below_revs_per_s"
    BEFORE_DROP_S = "before_drop_s"
    BALL_DROPPED = "ball_dropped"


@dataclass(frozen=True)
class BetsClosed:
    spin: int
    frame: int
    time: float
    rule: BetRule
    revs_per_s: float | None  # the ball's last measured speed; None when never measured
    expected_drop_in_s: float | None


class BetRulesInvalid(ValueError):
    """The thresholds cannot close betting: the reason is the message."""


def _threshold(name: str, value: float | None) -> float | None:
    if value is not None and not (math.isfinite(value) and value > 0):
        raise BetRulesInvalid(f"{name} must be positive and finite, not {value!r}")
    return value


class NoMoreBets:
    def __init__(
        self, below_revs_per_s: float | None = None, before_drop_s: float | None = None
    ) -> None:
        self.below_revs_per_s = _threshold("below_revs_per_s", below_revs_per_s)
        self.before_drop_s = _threshold("before_drop_s", before_drop_s)
        if below_revs_per_s is None and before_drop_s is None:
            raise BetRulesInvalid("neither below_revs_per_s nor before_drop_s is set")
        self._closed = 0  # the last spin whose betting was closed (spins count up from 1)
        self._last: BallSpeed | None = None

    def feed(self, obs: Observation) -> BetsClosed | None:
        if isinstance(obs, BallSpeed):
            return self._speed(obs)
        if isinstance(obs, PhaseChange) and obs.phase is Phase.BOUNCING and obs.spin > self._closed:
            last = self._last if self._last is not None and self._last.spin == obs.spin else None
            return self._close(
                obs.spin,
                obs.frame,
                obs.time,
                BetRule.BALL_DROPPED,
                last.revs_per_s if last else None,
                last.expected_drop_in_s if last else None,
            )
        return None

    def _speed(self, speed: BallSpeed) -> BetsClosed | None:
        self._last = speed
        if speed.spin <= self._closed:
            return None
        rule = None
        if self.below_revs_per_s is not None and speed.revs_per_s < self.below_revs_per_s:
            rule = BetRule.BELOW_REVS_PER_S
        elif (
            self.before_drop_s is not None
            and speed.expected_drop_in_s is not None
            and speed.expected_drop_in_s <= self.before_drop_s
        ):
            rule = BetRule.BEFORE_DROP_S
        if rule is None:
            return None
        return self._close(
            speed.spin, speed.frame, speed.time, rule, speed.revs_per_s, speed.expected_drop_in_s
        )

    def _close(
        self,
        spin: int,
        frame: int,
        time: float,
        rule: BetRule,
        revs: float | None,
        drop: float | None,
    ) -> BetsClosed:
        self._closed = spin
        return BetsClosed(spin, frame, time, rule, revs, drop)

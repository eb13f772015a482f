"""The wheel detector: frames with timestamps in, observations out.

    detector = WheelDetector(calibration_or_None, DetectorParams())
    for frame, t in source:
        for obs in detector.feed(frame, t):
            ...  # SpinResult | NoResult | Alarm | PhaseChange | BallSpeed
    detector.check(now)  # on a timer: raises the no-frames alarm when frames stop

Without a calibration the wheel is found from the first `calibration_seconds` of
video; those frames are then tracked too, so a spin launched early is not missed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.alarm_latch import AlarmLatch
from vision.ball import BallFinder, BallSighting, Sightings
from vision.calibration import Calibration, CalibrationError, calibrate
from vision.camera_shift import CameraShift
from vision.geometry import PolarGrid, polar_grid
from vision.health import CameraHealth
from vision.locate import BallLocator
from vision.observations import (
    Alarm,
    AlarmKind,
    FrameTrack,
    NoResultReason,
    Observation,
)
from vision.params import DetectorParams
from vision.pockets import POCKET_DEGREES
from vision.ring import RingMatcher, colour_at, greenness, redness
from vision.rotor import RotorState, RotorTracker
from vision.spin import PocketReading, SpinTracker

Frame = npt.NDArray[np.uint8]
_BALL_EXCLUDE = math.radians(4.0)
_BALL_CLEARANCE = 0.08  # rotor radii from the ball's centre to rows it cannot cover


@dataclass
class _Pipeline:
    calibration: Calibration
    grid: PolarGrid
    ring_rows: slice
    rotor: RotorTracker
    ball: BallFinder
    matcher: RingMatcher
    locator: BallLocator
    # The picture's movement since the wheel was placed, from the first frame tracked.
    shift: CameraShift | None = None
    maps: tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]] | None = None
    maps_offset: tuple[float, float] = (0.0, 0.0)


def _pipeline(calibration: Calibration, params: DetectorParams) -> _Pipeline:
    lo, hi = calibration.ring
    rho0 = max(0.3, min(params.inner_rho, lo - 0.06))
    rows = round((params.outer_rho - rho0) / params.radial_step) + 1
    grid = polar_grid(
        calibration.rotor, rho0, params.outer_rho, rows, params.angle_bins, calibration.warp
    )
    r0 = int(np.searchsorted(grid.rhos, lo))
    r1 = max(r0 + 1, int(np.searchsorted(grid.rhos, hi, side="right")))
    rotor = RotorTracker(params.angle_bins, params.min_ring_score, params.min_zero_margin)
    return _Pipeline(
        calibration,
        grid,
        slice(r0, r1),
        rotor,
        BallFinder(grid, params.background_seconds, params.rotor_memory_seconds),
        RingMatcher(params.angle_bins),
        BallLocator(calibration.rotor, calibration.warp),
    )


class WheelDetector:
    def __init__(
        self, calibration: Calibration | None = None, params: DetectorParams | None = None
    ) -> None:
        self.params = params or DetectorParams()
        self.fixed = calibration is not None
        self.health = CameraHealth(self.params)
        self.spins = SpinTracker(self.params)
        self.last_track: FrameTrack | None = None
        self._index = -1
        self._buffer: list[tuple[int, float, Frame]] = []
        self._pipe = _pipeline(calibration, self.params) if calibration is not None else None
        self._wheel_alarms = AlarmLatch()
        self._ring_lost_since: float | None = None
        self._ball: BallSighting | None = None

    @property
    def calibration(self) -> Calibration | None:
        return self._pipe.calibration if self._pipe else None

    def feed(self, frame: Frame, t: float) -> list[Observation]:
        self._index += 1
        index = self._index
        if not (
            isinstance(frame, np.ndarray)
            and frame.ndim == 3
            and frame.shape[2] == 3
            and frame.dtype == np.uint8
            and frame.shape[0] >= 32
            and frame.shape[1] >= 32
        ):
            shape = getattr(frame, "shape", None)
            return [Alarm(AlarmKind.BAD_FRAME, True, f"not a BGR image: {shape}", index, t)]
        out: list[Observation] = list(self.health.frame(frame, index, t))
        if self.health.blind:
            self._buffer.clear()
            if self.spins.in_play:
                out += self.spins.void(
                    NoResultReason.CAMERA_FAULT, "camera fault during the spin", index, t
                )
            return out
        if self._pipe is None:
            return out + self._calibrate(frame, index, t)
        if (frame.shape[1], frame.shape[0]) != (
            self._pipe.calibration.width,
            self._pipe.calibration.height,
        ):
            return out + self._wheel_alarm(
                AlarmKind.WHEEL_MOVED,
                True,
                f"frame {frame.shape[1]}x{frame.shape[0]} does not fit the calibration",
                index,
                t,
            )
        return out + self._track(frame, index, t)

    def check(self, now: float) -> list[Observation]:
        """Call on a timer: frames that stop coming are a fault, and void a spin in play."""
        out: list[Observation] = list(self.health.idle(now, self._index))
        if out and self.spins.in_play:
            out += self.spins.void(
                NoResultReason.CAMERA_FAULT, "no frames during the spin", self._index, now
            )
        return out

    def finish(self, t: float) -> list[Observation]:
        """The source ended: a spin still in play cannot be finished."""
        if self.spins.in_play:
            return self.spins.void(
                NoResultReason.CAMERA_FAULT, "video ended during the spin", self._index, t
            )
        return []

    def _wheel_alarm(
        self, kind: AlarmKind, on: bool, detail: str, index: int, t: float
    ) -> list[Observation]:
        return list(self._wheel_alarms.set(kind, on, detail, index, t))

    def _calibrate(self, frame: Frame, index: int, t: float) -> list[Observation]:
        p = self.params
        spacing = p.calibration_seconds / p.calibration_frames
        if not self._buffer or t - self._buffer[-1][1] >= 0.9 * spacing:
            self._buffer.append((index, t, frame.copy()))
        if t - self._buffer[0][1] < p.calibration_seconds or len(self._buffer) < 6:
            return []
        try:
            calibration = calibrate([f for _, _, f in self._buffer])
        except CalibrationError as e:
            del self._buffer[: len(self._buffer) // 2]
            return self._wheel_alarm(AlarmKind.WHEEL_NOT_FOUND, True, e.detail, index, t)
        out = self._wheel_alarm(AlarmKind.WHEEL_NOT_FOUND, False, "", index, t)
        self._pipe = _pipeline(calibration, p)
        buffered, self._buffer = self._buffer, []
        # The wheel was placed where it is in the first of them.
        self._pipe.shift = CameraShift(calibration.rotor, buffered[0][2])
        for i, ti, f in buffered:
            out += self._track(f, i, ti)
        return out

    def _track(self, frame: Frame, index: int, t: float) -> list[Observation]:
        pipe = self._pipe
        assert pipe is not None
        if pipe.shift is None:
            pipe.shift = CameraShift(pipe.calibration.rotor, frame)
        offset = pipe.shift.update(frame)
        # The fixed-point maps hold 1/32 pixel: a smaller move keeps the last ones.
        if pipe.maps is None or math.dist(offset, pipe.maps_offset) >= 1 / 64:
            pipe.maps, pipe.maps_offset = pipe.grid.fixed_point_maps(offset), offset
        polar = cv2.remap(frame, pipe.maps[0], pipe.maps[1], cv2.INTER_LINEAR)
        ring = polar[pipe.ring_rows]
        red = redness(ring)
        rotor = pipe.rotor.update(red, greenness(ring), t)
        out = self._watch_wheel(rotor, index, t)
        if self._pipe is None:
            return out
        bins = rotor.zero / pipe.grid.bin_radians if rotor.zero is not None else None
        resting = self.spins.resting_phi
        rest_bin = (
            (rotor.zero + resting) / pipe.grid.bin_radians
            if rotor.zero is not None and resting is not None
            else None
        )
        seen = pipe.ball.update(
            polar, bins, t, learn_rotor=not self.spins.ball_on_rotor, rest_bin=rest_bin
        )
        zero = rotor.zero
        dt = t - self.last_track.time if self.last_track is not None else 0.0
        blur = abs(rotor.speed) * min(dt, 0.1)

        def read_pocket(ball: BallSighting) -> PocketReading:
            assert zero is not None
            a = pipe.matcher.align_near(
                red,
                zero,
                ball.theta,
                search=math.radians(POCKET_DEGREES) * 0.5,
                exclude=_BALL_EXCLUDE,
            )
            # The ring's colour at the ball's angle, from rows clear of the ball itself.
            r0 = max(pipe.ring_rows.start, pipe.grid.row_of(ball.rho + _BALL_CLEARANCE))
            colour = None
            if r0 < pipe.ring_rows.stop:
                outer = polar[r0 : pipe.ring_rows.stop]
                colour = colour_at(redness(outer), greenness(outer), a.zero, ball.theta)
            fix = pipe.locator.locate(frame, ball.theta, ball.rho, a.zero, blur, offset)
            return PocketReading(zero, a.zero, a.score, colour, fix)

        out += self.spins.step(index, t, rotor, seen, read_pocket)
        self._record(index, t, rotor, seen)
        return out

    def _watch_wheel(self, rotor: RotorState, index: int, t: float) -> list[Observation]:
        """A pocket pattern missing for a while means the wheel is no longer where it was."""
        if rotor.score >= self.params.min_ring_score:
            self._ring_lost_since = None
            kind = AlarmKind.WHEEL_MOVED if self.fixed else AlarmKind.WHEEL_NOT_FOUND
            return self._wheel_alarm(kind, False, "", index, t)
        if self._ring_lost_since is None:
            self._ring_lost_since = t
        if t - self._ring_lost_since < self.params.lost_wheel_seconds:
            return []
        out: list[Observation] = []
        if self.spins.in_play:
            out += self.spins.void(
                NoResultReason.CAMERA_FAULT, "wheel lost during the spin", index, t
            )
        detail = f"pocket pattern not seen for {t - self._ring_lost_since:.1f} s"
        if self.fixed:
            return out + self._wheel_alarm(AlarmKind.WHEEL_MOVED, True, detail, index, t)
        # Found automatically once, so find it again where it is now.
        self._pipe, self._ring_lost_since = None, None
        return out + self._wheel_alarm(AlarmKind.WHEEL_NOT_FOUND, True, detail, index, t)

    def _record(self, index: int, t: float, rotor: RotorState, seen: Sightings) -> None:
        ball = self.spins.ball
        rel = None
        if ball is not None and self._ball is not None and self.last_track is not None:
            dt = t - self.last_track.time
            if dt > 0:
                d = (ball.theta - self._ball.theta + math.pi) % (2 * math.pi) - math.pi
                rel = (d / dt - rotor.speed) / (2 * math.pi)
        self._ball = ball
        direction = {1: "clockwise", -1: "counterclockwise"}.get(rotor.direction)
        self.last_track = FrameTrack(
            frame=index,
            time=t,
            phase=self.spins.phase,
            rotor_angle_deg=math.degrees(rotor.zero) if rotor.zero is not None else None,
            rotor_rpm=rotor.rpm,
            rotor_direction=direction,
            ball_angle_deg=math.degrees(ball.theta) if ball else None,
            ball_rho=ball.rho if ball else None,
            ball_relative_rps=rel,
            ball_revolutions=self.spins.revolutions,
        )

"""Where the wheel is in the image: found from the first frames, saved and loaded as JSON."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.camera_shift import CameraShift
from vision.geometry import AngleWarp, Ellipse, polar_grid
from vision.pockets import POCKET_DEGREES
from vision.ring import RingMatcher, redness, template

FORMAT_VERSION = 2  # 2 added the rotor's `boost`; version 1 files read as an affine view
Frame = npt.NDArray[np.uint8]
_WORK_WIDTH = 320
_MIN_RING_SCORE = 0.35
_MAX_BOOST = 0.3  # a camera close and steep enough for more is not a table camera
_STILL_PX = 0.3  # a camera whose frames moved less than this is still


class CalibrationError(Exception):
    """The wheel could not be found; `reason` is a stable machine-readable word."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Calibration:
    """The wheel in image coordinates.

    `rotor` is the ellipse of the rotor's outer (numbered) edge; radii elsewhere are
    fractions of it. `ring` is the band of coloured pockets and numbers.
    """

    width: int
    height: int
    rotor: Ellipse
    ring: tuple[float, float]
    ring_score: float
    warp: AngleWarp

    def to_json(self) -> dict[str, Any]:
        e = self.rotor
        return {
            "version": FORMAT_VERSION,
            "width": self.width,
            "height": self.height,
            "rotor": {
                "cx": e.cx,
                "cy": e.cy,
                "a": e.a,
                "b": e.b,
                "angle_deg": math.degrees(e.angle),
                "boost": list(e.boost),
            },
            "ring": list(self.ring),
            "ring_score": self.ring_score,
            "angle_warp": list(self.warp.coeffs),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Calibration:
        if data.get("version") not in (1, FORMAT_VERSION):
            raise ValueError(f"unsupported calibration version {data.get('version')!r}")
        r = data["rotor"]
        bu, bv = (float(v) for v in r.get("boost", (0.0, 0.0)))
        rotor = Ellipse(
            float(r["cx"]),
            float(r["cy"]),
            float(r["a"]),
            float(r["b"]),
            math.radians(float(r["angle_deg"])),
            (bu, bv),
        )
        lo, hi = data["ring"]
        c1, s1, c2, s2 = (float(v) for v in data["angle_warp"])
        return Calibration(
            int(data["width"]),
            int(data["height"]),
            rotor,
            (float(lo), float(hi)),
            float(data["ring_score"]),
            AngleWarp((c1, s1, c2, s2)),
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @staticmethod
    def load(path: str | Path) -> Calibration:
        return Calibration.from_json(json.loads(Path(path).read_text()))


def find_rotor(frames: Sequence[Frame]) -> Ellipse:
    """The rotor's outline: the part of the picture that keeps moving in most frame pairs.

    The turning rotor changes under every pixel in every pair of frames; the ball, the
    hand and noise change only some of the time, so a low percentile over the pairs
    keeps the rotor and drops them.
    """
    if len(frames) < 4:
        raise CalibrationError("wheel_not_found", "too few frames to calibrate")
    h, w = frames[0].shape[:2]
    scale = min(1.0, _WORK_WIDTH / w)
    small = [
        cv2.resize(f, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA).astype(
            np.int16
        )
        for f in frames
    ]
    step = max(1, len(small) // 8)
    diffs = [_change(small[i], small[i + step]) for i in range(len(small) - step)]
    motion = np.percentile(np.stack(diffs), 30, axis=0).astype(np.float32)
    motion = np.asarray(cv2.GaussianBlur(motion, (5, 5), 0), np.float32)
    floor = float(np.median(motion))
    threshold = max(floor * 3 + 6, 0.2 * float(np.percentile(motion, 99.5)))
    mask = (motion > threshold).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        raise CalibrationError("wheel_not_found", "nothing turns in the picture")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[best, cv2.CC_STAT_AREA] < 0.01 * mask.size:
        raise CalibrationError("wheel_not_found", "the turning part is too small to be a rotor")
    component = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(component, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    if len(outline) < 20:
        raise CalibrationError("wheel_not_found", "rotor outline too short")
    (cx, cy), (d1, d2), deg = cv2.fitEllipse(outline)
    a, b, angle = d1 / 2 / scale, d2 / 2 / scale, math.radians(deg)
    if b > a:
        a, b, angle = b, a, angle + math.pi / 2
    if b / a < 0.6 or a < 0.08 * min(w, h):
        raise CalibrationError("wheel_not_found", f"implausible rotor ellipse {a:.0f}x{b:.0f} px")
    return Ellipse(cx / scale, cy / scale, a, b, angle)


def _change(before: npt.NDArray[np.int16], after: npt.NDArray[np.int16]) -> npt.NDArray[np.float32]:
    """How much each pixel changed between two frames, the light's flicker taken out.

    A flickering light brightens every pixel by the same factor, most of all a bright
    chrome bowl's, which then looks as if it moved (chrome 86036: the bowl's glare joined
    the rotor and moved its centre 27 px). A turning rotor keeps its total brightness, so
    the ratio of the two frames' totals is the flicker alone.
    """
    gain = float(after.sum()) / max(1.0, float(before.sum()))
    out: npt.NDArray[np.float32] = np.abs(after - gain * before.astype(np.float32)).sum(axis=2)
    return out


def find_boost(frames: Sequence[Frame], rotor: Ellipse) -> Ellipse:
    """The rotor seen in perspective: where its centre must appear for the pocket pattern
    to be evenly spaced at every radius.

    The foreshortened (minor) axis is where the camera leans, so the centre is first
    looked for along it, then a little around the best place found.
    """
    rows, bins = 12, 360
    picks = frames[:: max(1, len(frames) // 4)][:4]
    t = template(bins)
    t = t - t.mean()
    spectrum = np.conj(np.fft.rfft(t))
    norm_t = float(np.linalg.norm(t))

    def evenness(boost: tuple[float, float]) -> float:
        grid = polar_grid(replace(rotor, boost=boost), 0.55, 1.0, rows, bins)
        total = 0.0
        for frame in picks:
            polar = cv2.remap(frame, grid.map_x, grid.map_y, cv2.INTER_LINEAR).astype(np.float32)
            red = polar[..., 2] - np.maximum(polar[..., 0], polar[..., 1])
            red -= red.mean(axis=1, keepdims=True)
            norms = np.linalg.norm(red, axis=1) * norm_t + 1e-6
            corr = np.fft.irfft(np.fft.rfft(red, axis=1) * spectrum, bins, axis=1)
            total += float((corr.max(axis=1) / norms).mean())
        return total / len(picks)

    best = max(((0.0, v) for v in np.linspace(-_MAX_BOOST, _MAX_BOOST, 13)), key=evenness)
    for step in (0.025, 0.01):
        around = [
            (best[0] + i * step, best[1] + j * step) for i in range(-2, 3) for j in range(-2, 3)
        ]
        best = max((b for b in around if math.hypot(*b) <= _MAX_BOOST), key=evenness)
    return replace(rotor, boost=(float(best[0]), float(best[1])))


def find_ring(frames: Sequence[Frame], rotor: Ellipse) -> tuple[tuple[float, float], float]:
    """The band of coloured pockets (and numbers): where the pocket pattern matches best."""
    rows, bins = 48, 360
    grid = polar_grid(rotor, 0.3, 1.06, rows, bins)
    matcher = RingMatcher(bins)
    profile = np.zeros(rows)
    picks = frames[:: max(1, len(frames) // 5)][:5]
    for frame in picks:
        polar = cv2.remap(frame, grid.map_x, grid.map_y, cv2.INTER_LINEAR)
        for row in range(rows):
            profile[row] += matcher.align(redness(polar[row : row + 1])).score
    profile /= len(picks)
    peak = int(np.argmax(profile))
    best = float(profile[peak])
    if best < _MIN_RING_SCORE:
        raise CalibrationError(
            "wheel_not_found", f"no pocket pattern on the rotor (score {best:.2f})"
        )
    lo = hi = peak
    while lo > 0 and profile[lo - 1] >= 0.6 * best:
        lo -= 1
    while hi < rows - 1 and profile[hi + 1] >= 0.6 * best:
        hi += 1
    return (float(grid.rhos[lo]), float(grid.rhos[hi])), best


def find_warp(frames: Sequence[Frame], rotor: Ellipse, ring: tuple[float, float]) -> AngleWarp:
    """Measure how the pattern's angle bends around the image and fit two harmonics to it."""
    bins, centres = 720, 16
    grid = polar_grid(rotor, ring[0], ring[1], 6, bins)
    matcher = RingMatcher(bins)
    search = math.radians(POCKET_DEGREES) * 0.9
    rows_a: list[list[float]] = []
    values: list[float] = []
    picks = frames[:: max(1, len(frames) // 5)][:5]
    for f, frame in enumerate(picks):
        signal = redness(cv2.remap(frame, grid.map_x, grid.map_y, cv2.INTER_LINEAR))
        zero = matcher.align(signal).zero
        for k in range(centres):
            c = 2 * math.pi * k / centres
            local = matcher.align_near(signal, zero, c, search=search, exclude=0.0)
            if local.score < 0.5:
                continue
            onehot = [1.0 if i == f else 0.0 for i in range(len(picks))]
            rows_a.append([*onehot, math.cos(c), math.sin(c), math.cos(2 * c), math.sin(2 * c)])
            values.append((local.zero - zero + math.pi) % (2 * math.pi) - math.pi)
    if len(values) < 8:
        return AngleWarp()
    solution = np.linalg.lstsq(np.array(rows_a), np.array(values), rcond=None)[0]
    c1, s1, c2, s2 = (float(v) for v in solution[-4:])
    return AngleWarp((c1, s1, c2, s2))


def calibrate(frames: Sequence[Frame]) -> Calibration:
    """Find the wheel in a few tenths of a second of video in which the rotor turns,
    where it is in the first of them.

    A shaking camera moves the still picture from frame to frame, which then looks as
    if it turned with the rotor and bends the rotor's outline: the wheel found in the
    frames as they are places the static picture, the frames are moved back onto the
    first by it (`CameraShift`) and the wheel is found again in them.
    """
    first = _calibrate(frames)
    steady, moved = CameraShift(first.rotor, frames[0]).aligned(frames)
    return _calibrate(steady) if moved > _STILL_PX else first


def _calibrate(frames: Sequence[Frame]) -> Calibration:
    rotor = find_boost(frames, find_rotor(frames))
    ring, score = find_ring(frames, rotor)
    warp = find_warp(frames, rotor, ring)
    h, w = frames[0].shape[:2]
    return Calibration(w, h, rotor, ring, score, warp)

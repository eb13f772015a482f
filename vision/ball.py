"""Finding the ball in the unwrapped annulus around the rotor.

A pixel is the ball when it is brighter (in its darkest colour channel: the ball is
white or silver) than both backgrounds: the still picture (so the bowl, the
diamonds and the highlights that stay where the lights are do not count) and, on
the rotor, the rotor's own picture turned with it (so the numbers and frets do not
count). The ball at rest in a pocket is new to both: it turns with the rotor, but
it was not in the pocket before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import FloatArray, PolarGrid

_BALL_DEG = 3.0  # angular size of the smallest ball on the track, roughly
_BALL_RHO = 0.04
_MIN_CONTRAST = 10.0  # grey levels; and this many per-pixel noise deviations:
_NOISE_FACTOR = 3.0
_ROTOR_CANDIDATES = 3
_HAND_ROWS = 5  # outermost rows, where only an arm (or a ball leaving) can change


@dataclass(frozen=True)
class BallSighting:
    theta: float  # wheel angle, radians
    rho: float  # in rotor radii
    contrast: float


@dataclass(frozen=True)
class Sightings:
    """The best ball candidate off the rotor (track, deflectors, beyond) and on it."""

    track: BallSighting | None
    rotor: tuple[BallSighting, ...]  # best first; numbers and frets can look like a ball too


def shift_columns(a: FloatArray, bins: float) -> FloatArray:
    """Roll along the angle axis by a fractional number of bins (linear interpolation)."""
    k = math.floor(bins)
    f = bins - k
    lo = np.roll(a, k, axis=1)
    if f < 1e-3:
        return lo
    out: FloatArray = lo * (1 - f) + np.roll(a, k + 1, axis=1) * f
    return out


class BallFinder:
    def __init__(self, grid: PolarGrid, background_seconds: float) -> None:
        self.grid = grid
        self.rotor_rows = int(np.searchsorted(grid.rhos, 1.0, side="right"))
        self.static_rows = slice(self.rotor_rows, len(grid.rhos))
        self.tau = background_seconds
        deg_per_bin = 360.0 / grid.bins
        step = float(grid.rhos[1] - grid.rhos[0])
        self.ka = max(2, round(_BALL_DEG / deg_per_bin))
        self.kr = max(2, round(_BALL_RHO / step))
        self.still: FloatArray | None = None
        self.turning: FloatArray | None = None  # rotor rows, in the rotor's frame
        self._t: float | None = None
        self.hand = False
        self._near = np.ones((3, 3), np.uint8)

    def update(self, polar: np.ndarray, rotor_bins: float | None, t: float) -> Sightings:
        w: FloatArray = np.minimum(np.minimum(polar[..., 0], polar[..., 1]), polar[..., 2]).astype(
            np.float32
        )
        rr = self.rotor_rows
        if self.still is None or self._t is None:
            self.still = w.copy()
            self.turning = shift_columns(w[:rr], -rotor_bins) if rotor_bins is not None else None
            self._t = t
            return Sightings(None, ())
        alpha = 1.0 - math.exp(-max(0.0, t - self._t) / self.tau)
        self._t = t
        statics = self.still[self.static_rows]
        gain = float(w[self.static_rows].mean() / max(1.0, float(statics.mean())))
        # Compare with the brightest background pixel nearby: edges that land a fraction
        # of a bin away from where the background has them must not look new.
        d_still = w - gain * cv2.dilate(self.still, self._near)
        score = d_still.copy()
        if rotor_bins is not None and self.turning is not None:
            turning_here = cv2.dilate(shift_columns(self.turning, rotor_bins), self._near)
            score[:rr] = np.minimum(d_still[:rr], w[:rr] - gain * turning_here)
        else:
            score[:rr] = 0.0
        np.maximum(score, 0, out=score)
        blob, centre, threshold = self._blobs(score, d_still)
        track = self._pick(score, blob, centre, threshold, rr, len(self.grid.rhos))
        on_rotor: list[BallSighting] = []
        for _ in range(_ROTOR_CANDIDATES):
            found = self._pick(score, blob, centre, threshold, 0, rr)
            if found is None:
                break
            on_rotor.append(found)
            cols = np.arange(-3 * self.ka, 3 * self.ka + 1) + round(
                found.theta / self.grid.bin_radians
            )
            blob[:rr, cols % blob.shape[1]] = -1.0
        # Everything is learned, the ball too: masking a spot from learning would make a
        # false sighting permanent. A ball at rest fades into the rotor's picture only
        # over `background_seconds`, long after it has been declared.
        self.still += alpha * (w / gain - self.still)
        if rotor_bins is not None:
            w_rot = shift_columns(w[:rr], -rotor_bins)
            if self.turning is None:
                self.turning = w_rot
            else:
                self.turning += alpha * (w_rot / gain - self.turning)
        return Sightings(track, tuple(on_rotor))

    def _blobs(
        self, score: FloatArray, d_still: FloatArray
    ) -> tuple[FloatArray, FloatArray, float]:
        """Ball-sized bright spots minus their radial surroundings; the contrast a ball needs."""
        bins = int(score.shape[1])
        centre = cv2.boxFilter(score, -1, (self.ka, self.kr), borderType=cv2.BORDER_REFLECT)
        around = cv2.boxFilter(score, -1, (self.ka, 3 * self.kr), borderType=cv2.BORDER_REFLECT)
        blob: FloatArray = centre - around
        # An arm reaching over the bowl changes the outermost rows over a wide arc.
        outer = np.abs(d_still[-_HAND_ROWS:]) > 25
        arm = outer.mean(axis=0) > 0.4
        self.hand = bool(arm.sum() >= self.ka)
        if self.hand:
            reach = round(25 / (360 / bins))
            bad = np.zeros(bins, bool)
            for col in np.flatnonzero(arm):
                bad[np.arange(col - reach, col + reach + 1) % bins] = True
            blob[:, bad] = -1.0
        noise = float(np.median(np.abs(d_still[self.static_rows]))) * 1.4826
        return blob, np.asarray(centre, np.float32), max(_MIN_CONTRAST, _NOISE_FACTOR * noise)

    def _pick(
        self,
        score: FloatArray,
        blob: FloatArray,
        centre: FloatArray,
        threshold: float,
        row0: int,
        row1: int,
    ) -> BallSighting | None:
        """The best blob between two rows, refined to its centroid."""
        if row1 <= row0:
            return None
        grid = self.grid
        rows, bins = int(score.shape[0]), int(score.shape[1])
        part = blob[row0:row1]
        peak = np.unravel_index(int(np.argmax(part)), part.shape)
        r, c = int(peak[0]) + row0, int(peak[1])
        if blob[r, c] < threshold * 0.5 or centre[r, c] < threshold:
            return None
        r0, r1 = max(0, r - self.kr), min(rows, r + self.kr + 1)
        span = np.arange(c - self.ka, c + self.ka + 1)
        patch = score[r0:r1][:, span % bins]
        total = float(patch.sum())
        if total <= 0:
            return None
        dr = float((patch.sum(axis=1) * np.arange(r0, r1)).sum() / total)
        dc = float((patch.sum(axis=0) * span).sum() / total)
        rho = float(np.interp(dr, np.arange(rows), grid.rhos))
        theta = (dc * grid.bin_radians) % (2 * math.pi)
        return BallSighting(theta, rho, float(centre[r, c]))

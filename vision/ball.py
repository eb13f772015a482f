"""Finding the ball in the unwrapped annulus around the rotor.

A pixel is the ball when it is brighter (in its darkest colour channel: the ball is
white or silver) than what is normally there:

- off the rotor (track, deflectors, beyond), than the still picture: a running mean,
  so the bowl, the diamonds and the highlights that stay where the lights are do not count;
- on the rotor, than the rotor's own picture turned with it. That picture is an upper
  envelope (the brightest each rotor spot has recently been, under any light and at any
  sub-pixel phase), so white numbers, frets and glints passing under a lamp never stand
  out. It is frozen while the ball is on the rotor: the ball resting in a pocket then
  stays new for as long as it rests, while everything painted on the rotor does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import FloatArray, PolarGrid

_BALL_DEG = 3.0  # angular size of the smallest ball on the track, roughly
_BALL_RHO = 0.04
# A ball-sized spot must stand this many grey levels above what is normally there, and
# this many times the noise of a single pixel. Off the rotor that is measured against the
# noise of a ball-sized average (about 0.6 of a pixel's: the noise of neighbouring pixels
# is alike after compression), so that a small fast ball shows; on the rotor a glint that
# has not passed under its lamp for a while is as strong, so there it is a pixel's.
_MIN_CONTRAST = 10.0
_NOISE_FACTOR = 3.0
_TRACK_NOISE_FACTOR = 3.0 * 0.6
_ROTOR_CANDIDATES = 4
# A faint ball on the track (a dim ball under studio light, a fast one smeared by a long
# shutter) stands this fraction of the threshold above what is there: alone, one such
# spot proves nothing (the best of a whole ring of noise is as strong), so the tracker
# takes it only where the ball's course puts it, or as one of a long steady run.
_FAINT = 0.45
# ... and is looked for clear of the rotor's rim, whose turning edge outshines it there.
_FAINT_RHO = 1.12
# A croupier's hand, or its trace in the still picture, can outshine a faint ball for a
# second after the launch: the next best spots off the rotor are kept beside the best.
_OTHERS = 2
_STREAK = 3  # a streak this many ball widths long
# The noise in a streak-long average is this fraction of that in a ball-sized one (not
# 1/sqrt(3): compression and the blur make neighbouring pixels' noise alike).
_STREAK_GAIN = 0.7
_RIM_RHO = 1.04  # rotor radii
_HAND_ROWS = 5  # outermost rows, where only an arm (or a ball leaving) can change
_ENVELOPE_RISE = 0.5  # how fast the rotor's envelope follows a brighter picture, per frame


@dataclass(frozen=True)
class BallSighting:
    theta: float  # wheel angle, radians
    rho: float  # in rotor radii
    contrast: float


@dataclass(frozen=True)
class Sightings:
    """The best ball candidate off the rotor (track, deflectors, beyond) and on it."""

    track: BallSighting | None
    rotor: tuple[BallSighting, ...]  # best first, at least three ball widths apart
    # The best spot off the rotor when none reached the threshold, if it reached `_FAINT`
    # of it: a faint ball, or noise.
    faint: BallSighting | None = None
    # Where the ball was asked for on the rotor (where it has come to rest), the best
    # spot there that reached `_FAINT` of the threshold.
    resting: BallSighting | None = None
    # The next best spots off the rotor that reached `_FAINT` of the threshold, best
    # first, each three ball widths from the best (`track` or `faint`) and one another.
    others: tuple[BallSighting, ...] = ()


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
    def __init__(self, grid: PolarGrid, background_seconds: float, memory_seconds: float) -> None:
        self.grid = grid
        self.rotor_rows = int(np.searchsorted(grid.rhos, 1.0, side="right"))
        self.static_rows = slice(self.rotor_rows, len(grid.rhos))
        # The rotor's blurred rim reaches a little past its edge, and passing markings
        # there are new to the still picture: off-rotor candidates start beyond it.
        self.track_row = int(np.searchsorted(grid.rhos, _RIM_RHO))
        self.faint_row = int(np.searchsorted(grid.rhos, _FAINT_RHO))
        self.tau = background_seconds
        self.memory = memory_seconds
        deg_per_bin = 360.0 / grid.bins
        step = float(grid.rhos[1] - grid.rhos[0])
        self.ka = max(2, round(_BALL_DEG / deg_per_bin))
        self.kr = max(2, round(_BALL_RHO / step))
        self.still: FloatArray | None = None
        self.envelope: FloatArray | None = None  # rotor rows, in the rotor's frame
        self._t: float | None = None
        self.hand = False
        self._near = np.ones((3, 3), np.uint8)

    def update(
        self,
        polar: np.ndarray,
        rotor_bins: float | None,
        t: float,
        *,
        learn_rotor: bool = True,
        rest_bin: float | None = None,
    ) -> Sightings:
        """Candidates in this frame; `learn_rotor=False` keeps the rotor's picture as it is,
        and `rest_bin` (a column of the polar picture) asks for the ball resting there."""
        w: FloatArray = np.minimum(np.minimum(polar[..., 0], polar[..., 1]), polar[..., 2]).astype(
            np.float32
        )
        rr = self.rotor_rows
        if self.still is None or self._t is None:
            self.still = w.copy()
            self._t = t
            self._learn_rotor(w, rotor_bins, 1.0, 1.0)
            return Sightings(None, ())
        dt = max(0.0, t - self._t)
        alpha = 1.0 - math.exp(-dt / self.tau)
        self._t = t
        statics = self.still[self.static_rows]
        gain = float(w[self.static_rows].mean() / max(1.0, float(statics.mean())))
        # Compare with the brightest background pixel nearby: edges that land a fraction
        # of a bin away from where the background has them must not look new.
        d_still = w - gain * cv2.dilate(self.still, self._near)
        score = d_still
        if rotor_bins is not None and self.envelope is not None:
            turning = cv2.dilate(shift_columns(self.envelope, rotor_bins), self._near)
            score[:rr] = w[:rr] - gain * turning
        else:
            score[:rr] = 0.0
        noise = float(np.median(np.abs(d_still[self.static_rows]))) * 1.4826
        np.maximum(score, 0, out=score)
        blob, centre = self._blobs(score, w)
        threshold = max(_MIN_CONTRAST, _NOISE_FACTOR * noise)
        track_threshold = max(_MIN_CONTRAST, _TRACK_NOISE_FACTOR * noise)
        rows = len(self.grid.rhos)
        track = self._pick(score, blob, centre, track_threshold, self.track_row, rows)
        faint = (
            None
            if track is not None
            else self._pick(score, blob, centre, _FAINT * track_threshold, self.faint_row, rows)
        )
        others = self._others(score, blob, centre, _FAINT * track_threshold, track or faint)
        resting = None
        if rest_bin is not None:
            # A ball resting on a fret is hardly brighter than the fret, which the rotor's
            # picture holds: where the ball lies, a faint spot is the ball, not noise.
            cols = np.arange(-self.ka, self.ka + 1) + round(rest_bin)
            near = np.full_like(blob[:rr], -1.0)
            near[:, cols % blob.shape[1]] = blob[:rr, cols % blob.shape[1]]
            resting = self._pick(score, near, centre, _FAINT * threshold, 0, rr)
        on_rotor: list[BallSighting] = []
        for _ in range(_ROTOR_CANDIDATES):
            found = self._pick(score, blob, centre, threshold, 0, rr)
            if found is None:
                break
            on_rotor.append(found)
            self._blank(blob, found, 0, rr)
        self.still += alpha * (w / gain - self.still)
        if learn_rotor:
            self._learn_rotor(w, rotor_bins, gain, 1.0 - math.exp(-dt / self.memory))
        return Sightings(track, tuple(on_rotor), faint, resting, others)

    def _others(
        self,
        score: FloatArray,
        blob: FloatArray,
        centre: FloatArray,
        threshold: float,
        best: BallSighting | None,
    ) -> tuple[BallSighting, ...]:
        """The next best spots off the rotor after `best`; their columns are blanked
        there (off the rotor only: what is sought on it is unchanged)."""
        rr, rows = self.rotor_rows, len(self.grid.rhos)
        found: list[BallSighting] = []
        spot = best
        while spot is not None and len(found) < _OTHERS:
            self._blank(blob, spot, rr, rows)
            spot = self._pick(score, blob, centre, threshold, self.faint_row, rows)
            if spot is not None:
                found.append(spot)
        return tuple(found)

    def _blank(self, blob: FloatArray, spot: BallSighting, row0: int, row1: int) -> None:
        """Takes a found spot's columns, three ball widths either side, out of `blob`."""
        cols = np.arange(-3 * self.ka, 3 * self.ka + 1) + round(spot.theta / self.grid.bin_radians)
        blob[row0:row1, cols % blob.shape[1]] = -1.0

    def _learn_rotor(
        self, w: FloatArray, rotor_bins: float | None, gain: float, sink: float
    ) -> None:
        if rotor_bins is None:
            return
        seen = shift_columns(w[: self.rotor_rows], -rotor_bins) / gain
        if self.envelope is None:
            self.envelope = seen
            return
        # Rise fast to anything brighter, sink slowly: the envelope is the upper edge of
        # what each spot of the rotor looks like, whatever the light and pixel phase.
        env = self.envelope
        rise = seen > env
        env += np.where(rise, _ENVELOPE_RISE, sink) * (seen - env)

    def _blobs(self, score: FloatArray, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Ball-sized bright spots minus their radial surroundings."""
        bins = int(score.shape[1])
        centre = cv2.boxFilter(score, -1, (self.ka, self.kr), borderType=cv2.BORDER_REFLECT)
        around = cv2.boxFilter(score, -1, (self.ka, 3 * self.kr), borderType=cv2.BORDER_REFLECT)
        blob: FloatArray = centre - around
        # On the track a fast ball is a faint streak: summed along its length it stands out
        # from the noise as a slow ball does. Weighed in the short box's units.
        rr = self.rotor_rows
        long = (_STREAK * self.ka, self.kr)
        streak = cv2.boxFilter(score[rr:], -1, long, borderType=cv2.BORDER_REFLECT)
        streak_around = cv2.boxFilter(
            score[rr:], -1, (long[0], 3 * self.kr), borderType=cv2.BORDER_REFLECT
        )
        np.maximum(centre[rr:], streak / _STREAK_GAIN, out=centre[rr:])
        np.maximum(blob[rr:], (streak - streak_around) / _STREAK_GAIN, out=blob[rr:])
        # An arm reaching over the bowl changes the outermost rows over a wide arc.
        assert self.still is not None
        outer = np.abs(w[-_HAND_ROWS:] - self.still[-_HAND_ROWS:]) > 25
        arm = outer.mean(axis=0) > 0.4
        self.hand = bool(arm.sum() >= self.ka)
        if self.hand:
            reach = round(25 / (360 / bins))
            bad = np.zeros(bins, bool)
            for col in np.flatnonzero(arm):
                bad[np.arange(col - reach, col + reach + 1) % bins] = True
            blob[:, bad] = -1.0
        return blob, np.asarray(centre, np.float32)

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

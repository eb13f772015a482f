"""How far the picture has moved since the wheel was placed: a shaking camera mount.

The wheel is placed once (the calibration). A camera on a mount that shakes or drifts
moves the whole picture by a few pixels, and the ball's angle around a centre that did
not move with it changes by degrees: a ball at rest then seems to roll in its pocket,
and one on the track to change speed. So every frame, the static picture beyond the
rotor's edge (the ball track, the deflectors, the bowl's rim, the table) is matched
against a reference frame, and every position is then taken from the moved wheel.

The match is Gauss-Newton on a few hundred of the reference's strongest edges, spread
around the wheel: the offset, and a gain and a level for the light (a flickering lamp).
Both pictures are matched blurred the same way (each point the mean of nine pixels
around it), first coarsely (the nine 3 pixels apart: a jump of several pixels is in
reach), then finely (1 pixel apart), and a step that matches worse is halved.
Each point's weight falls with its misfit (Huber), so the ball on the track or a
croupier's hand over part of the bowl does not pull the offset; with too little of the
picture left to judge by, the last offset is kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Ellipse, FloatArray

Frame = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]
Offset = tuple[float, float]
_RHOS = (1.06, 1.8)  # rotor radii: from just beyond the rotor's edge (which turns)
_RINGS, _ANGLES = 24, 360  # candidate points
_SECTORS, _PER_SECTOR = 24, 16  # the strongest edges of each sector are used
_BORDER = 12  # pixels from the picture's edge a point keeps clear of
_SPACINGS = (3, 1)  # pixels between the nine taps of each point: coarse, then fine
_ITERATIONS = 5  # at each spacing
_CONVERGED = 0.03  # pixels
_HUBER = 2.5  # misfits beyond this many robust sigmas weigh less
_GREY = np.full(3, 1 / 3)
_REACHED = 1.5  # a fine match this much worse than the last frame's did not reach
_MAX_SHIFT = 0.15  # of the rotor's radius: a picture moved further is a moved wheel


class _Level:
    """The reference's points blurred by nine taps `spacing` pixels apart."""

    def __init__(self, grey: FloatArray, x: FloatArray, y: FloatArray, spacing: int) -> None:
        kernel = np.zeros((2 * spacing + 1, 2 * spacing + 1), np.float32)
        kernel[::spacing, ::spacing] = 1 / 9
        blurred: FloatArray = np.asarray(cv2.filter2D(grey, cv2.CV_32F, kernel), np.float32)
        gx: FloatArray = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3) / 8, np.float32)
        gy: FloatArray = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3) / 8, np.float32)
        taps = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        self.x = np.concatenate([x + np.float32(dx * spacing) for dx, _ in taps], axis=1)
        self.y = np.concatenate([y + np.float32(dy * spacing) for _, dy in taps], axis=1)
        self.ref = _at(blurred, x, y).ravel().astype(np.float64)
        grad = [_at(g, x, y).ravel().astype(np.float64) for g in (gx, gy)]
        # d(misfit)/d(offset x, offset y, gain, level), the gain's factor aside.
        self.jac = np.stack([*grad, -self.ref, -np.ones_like(self.ref)], axis=1)

    def sample(self, frame: Frame, d: Floats) -> Floats:
        """The picture blurred as the reference is, at the points moved by `d`."""
        x, y = self.x + np.float32(d[0]), self.y + np.float32(d[1])
        bgr = cv2.remap(frame, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out: Floats = (bgr.reshape(9, -1, 3) @ _GREY).mean(axis=0)
        return out

    def misfit(self, frame: Frame, d: Floats, light: Floats) -> tuple[float, Floats]:
        """The misfit's robust spread (grey levels), and each point's."""
        r = self.sample(frame, d) - (light[0] * self.ref + light[1])
        half = len(r) // 2
        return 1.4826 * float(np.partition(np.abs(r), half)[half]) + 0.5, r

    def fit(self, frame: Frame, d: Floats, light: Floats) -> tuple[Floats, Floats, float]:
        """Gauss-Newton from (`d`, `light`), each step halved while it matches worse;
        the offset, the light and the misfit's spread there."""
        spread, r = self.misfit(frame, d, light)
        for _ in range(_ITERATIONS):
            w = np.minimum(1.0, _HUBER * spread / np.maximum(np.abs(r), 1e-9))
            # The picture's gradient is the reference's times the gain.
            scale = np.array([light[0], light[0], 1.0, 1.0])
            gw = self.jac * w[:, None]
            normal = (gw.T @ self.jac) * scale[:, None] * scale[None, :]
            try:
                step = np.linalg.solve(normal, -(gw.T @ r) * scale)
            except np.linalg.LinAlgError:
                break
            trial = self.misfit(frame, d + step[:2], light + step[2:])
            while trial[0] > spread and math.hypot(step[0], step[1]) >= _CONVERGED:
                step /= 2
                trial = self.misfit(frame, d + step[:2], light + step[2:])
            if trial[0] > spread:
                break
            d, light = d + step[:2], light + step[2:]
            spread, r = trial
            if math.hypot(step[0], step[1]) < _CONVERGED:
                break
        return d, light, spread


class CameraShift:
    """The picture's offset (pixels, x right, y down) in each frame against a reference."""

    def __init__(self, rotor: Ellipse, reference: Frame) -> None:
        height, width = reference.shape[:2]
        grey = reference.astype(np.float32).mean(axis=2)
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        thetas = np.arange(_ANGLES, dtype=np.float64) * (2 * math.pi / _ANGLES)
        rhos = np.linspace(*_RHOS, _RINGS)
        x, y = rotor.points(thetas[None, :], rhos[:, None])
        inside = (x >= _BORDER) & (x < width - _BORDER) & (y >= _BORDER) & (y < height - _BORDER)
        px = x.astype(np.float32)
        py = y.astype(np.float32)
        strength = np.hypot(_at(gx, px, py), _at(gy, px, py)) * inside
        # The strongest edges of each sector, so that every direction of motion is seen.
        sector = (np.arange(_ANGLES) * _SECTORS // _ANGLES)[None, :].repeat(_RINGS, 0)
        keep: list[int] = []
        flat = strength.ravel()
        for s in range(_SECTORS):
            idx = np.flatnonzero((sector.ravel() == s) & (flat > 0))
            keep += idx[np.argsort(flat[idx])[-_PER_SECTOR:]].tolist()
        chosen = np.array(sorted(keep), dtype=np.int64)
        cx, cy = px.ravel()[chosen][None, :], py.ravel()[chosen][None, :]
        self._levels = [_Level(grey, cx, cy, spacing) for spacing in _SPACINGS]
        self._limit = _MAX_SHIFT * max(rotor.a, rotor.b)
        self._offset = np.zeros(2)
        self._light = np.array([1.0, 0.0])  # gain and level
        self._spread = math.inf  # the misfit of the last frame matched

    def aligned(self, frames: Sequence[Frame]) -> tuple[list[Frame], float]:
        """`frames` moved back to where the reference is, and the most any had moved."""
        out: list[Frame] = []
        most = 0.0
        for frame in frames:
            dx, dy = self.update(frame)
            most = max(most, math.hypot(dx, dy))
            back = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
            flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
            size = (frame.shape[1], frame.shape[0])
            out.append(
                np.asarray(
                    cv2.warpAffine(frame, back, size, flags=flags, borderMode=cv2.BORDER_REPLICATE),
                    np.uint8,
                )
            )
        return out, most

    def update(self, frame: Frame) -> Offset:
        """How far `frame` has moved from the reference (pixels, x right, y down)."""
        coarse, fine = self._levels
        d, light, spread = fine.fit(frame, self._offset, self._light)
        if spread > _REACHED * self._spread:
            # Beyond the fine match's reach (a jump of the mount): coarsely first.
            d, light, _ = coarse.fit(frame, self._offset, self._light)
            d, light, spread = fine.fit(frame, d, light)
        if np.all(np.isfinite(d)) and math.hypot(d[0], d[1]) <= self._limit:
            self._offset, self._light, self._spread = d, light, spread
        return float(self._offset[0]), float(self._offset[1])


def _at(image: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
    out: FloatArray = np.asarray(cv2.remap(image, x, y, cv2.INTER_LINEAR), np.float32)
    return out

"""How far the picture has moved since the wheel was placed: a shaking camera mount.

The wheel is placed once (the calibration). A camera on a mount that shakes or drifts
moves the whole picture by a few pixels, and the ball's angle around a centre that did
not move with it changes by degrees: a ball at rest then seems to roll in its pocket,
and one on the track to change speed. So every frame, the static picture beyond the
rotor's edge (the ball track, the deflectors, the bowl's rim, the table) is matched
against a reference frame, and every position is then taken from the moved wheel.

The match is Gauss-Newton on a few hundred of the reference's strongest edges, spread
around the wheel: the offset, and a gain and a level for the light (a flickering lamp).
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
Offset = tuple[float, float]
_RHOS = (1.06, 1.8)  # rotor radii: from just beyond the rotor's edge (which turns)
_RINGS, _ANGLES = 24, 360  # candidate points
_SECTORS, _PER_SECTOR = 24, 16  # the strongest edges of each sector are used
_BORDER = 12  # pixels from the picture's edge a point keeps clear of
_SMOOTH = 1.2  # pixels: the reference's gradients are taken a little blurred, to reach
_ITERATIONS = 6
_CONVERGED = 0.03  # pixels
_HUBER = 2.5  # misfits beyond this many robust sigmas weigh less
_GREY = np.full(3, 1 / 3)
_MAX_SHIFT = 0.15  # of the rotor's radius: a picture moved further is a moved wheel


class CameraShift:
    """The picture's offset (pixels, x right, y down) in each frame against a reference."""

    def __init__(self, rotor: Ellipse, reference: Frame) -> None:
        height, width = reference.shape[:2]
        grey = reference.astype(np.float32).mean(axis=2)
        smooth = cv2.GaussianBlur(grey, (0, 0), _SMOOTH)
        gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8
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
        self._x = px.ravel()[chosen][None, :]
        self._y = py.ravel()[chosen][None, :]
        self._ref = _at(smooth, self._x, self._y).ravel().astype(np.float64)
        gx_at = _at(gx, self._x, self._y).ravel().astype(np.float64)
        gy_at = _at(gy, self._x, self._y).ravel().astype(np.float64)
        # d(misfit)/d(offset x, offset y, gain, level), the gain's factor aside.
        self._jac = np.stack([gx_at, gy_at, -self._ref, -np.ones_like(self._ref)], axis=1)
        self._half = len(self._ref) // 2
        self._limit = _MAX_SHIFT * max(rotor.a, rotor.b)
        self._offset = np.zeros(2)
        self._light = np.array([1.0, 0.0])  # gain and level

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
        d, light = self._offset.copy(), self._light.copy()
        for _ in range(_ITERATIONS):
            r = self._sample(frame, d) - (light[0] * self._ref + light[1])
            misfit = np.abs(r)
            sigma = 1.4826 * float(np.partition(misfit, self._half)[self._half]) + 0.5
            w = np.minimum(1.0, _HUBER * sigma / np.maximum(misfit, 1e-9))
            # The picture's gradient is the reference's times the gain.
            scale = np.array([light[0], light[0], 1.0, 1.0])
            gw = self._jac * w[:, None]
            normal = (gw.T @ self._jac) * scale[:, None] * scale[None, :]
            try:
                step = np.linalg.solve(normal, -(gw.T @ r) * scale)
            except np.linalg.LinAlgError:
                break
            d += step[:2]
            light += step[2:]
            if math.hypot(step[0], step[1]) < _CONVERGED:
                break
        if np.all(np.isfinite(d)) and math.hypot(d[0], d[1]) <= self._limit:
            self._offset, self._light = d, light
        return float(self._offset[0]), float(self._offset[1])

    def _sample(self, frame: Frame, d: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        x = self._x + np.float32(d[0])
        y = self._y + np.float32(d[1])
        bgr = cv2.remap(frame, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out: npt.NDArray[np.float64] = bgr.reshape(-1, 3) @ _GREY
        return out


def _at(image: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
    out: FloatArray = np.asarray(cv2.remap(image, x, y, cv2.INTER_LINEAR), np.float32)
    return out

"""The wheel as the camera sees it: an ellipse, and sampling grids over its annuli.

Angles are the ellipse's parametric angle. For a wheel seen from far enough away
(an affine view) that is the wheel's own angle up to a constant; the remaining
perspective error is absorbed by aligning the pocket pattern locally (see `ring`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Ellipse:
    """The rotor's outline in the image, and where the wheel's centre appears inside it.

    A wheel seen at an angle from close by is not an affine picture: rings inside the
    rotor's edge shift towards the camera and their angles bend (a pocket on the near
    side looks wider). Every projective view of a circle is one of its ellipse's affine
    pictures of a circle, turned by a projective map of the unit disc onto itself; that map
    is fixed by `boost`, the point of the disc that the wheel's centre becomes (in the
    ellipse's own axes, as fractions of its semi-axes). (0, 0) is the affine view.
    """

    cx: float
    cy: float
    a: float  # semi-axis along `angle`
    b: float  # semi-axis across it
    angle: float  # radians, direction of the `a` axis in the image
    boost: tuple[float, float] = (0.0, 0.0)

    def points(
        self, theta: npt.NDArray[np.float64], rho: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Image (x, y) of wheel angle `theta` (clockwise) at `rho` times the rotor's radius."""
        x, y = _boost(rho * np.cos(theta), rho * np.sin(theta), self.boost)
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        u, v = self.a * x, self.b * y
        return self.cx + u * ca - v * sa, self.cy + u * sa + v * ca

    def wheel_coords(self, x: float, y: float) -> tuple[float, float]:
        """Inverse of `points`: (theta, rho) of an image point."""
        dx, dy = x - self.cx, y - self.cy
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        u = np.array((dx * ca + dy * sa) / self.a)
        v = np.array((-dx * sa + dy * ca) / self.b)
        wx, wy = _boost(u, v, (-self.boost[0], -self.boost[1]))
        return math.atan2(float(wy), float(wx)), math.hypot(float(wx), float(wy))


def _boost(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], t: tuple[float, float]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The projective map of the unit disc onto itself that takes its centre to `t`."""
    speed = math.hypot(*t)
    if speed < 1e-12:
        return x, y
    nx, ny = t[0] / speed, t[1] / speed
    ch = 1 / math.sqrt(1 - speed * speed)
    sh = speed * ch
    along = x * nx + y * ny
    w = ch + sh * along
    stretch = (ch - 1) * along + sh
    return (x + stretch * nx) / w, (y + stretch * ny) / w


@dataclass(frozen=True)
class AngleWarp:
    """How the pocket pattern's angle bends away from the ellipse's parametric angle.

    Perspective (and a slightly wrong ellipse centre) make the rotor seem to turn
    faster on the near side of the wheel. `delta(theta)` is that bend as two
    harmonics; wheel angle = theta - delta(theta).
    """

    coeffs: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def delta(self, theta: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        c1, s1, c2, s2 = self.coeffs
        out: npt.NDArray[np.float64] = (
            c1 * np.cos(theta)
            + s1 * np.sin(theta)
            + c2 * np.cos(2 * theta)
            + s2 * np.sin(2 * theta)
        )
        return out

    def image_angle(self, wheel: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        theta = wheel.copy()
        for _ in range(6):
            theta = wheel + self.delta(theta)
        return theta


@dataclass(frozen=True)
class PolarGrid:
    """A (rows = rho, columns = theta) sampling grid for cv2.remap."""

    rhos: npt.NDArray[np.float64]
    thetas: npt.NDArray[np.float64]
    map_x: FloatArray
    map_y: FloatArray

    def fixed_point_maps(
        self, offset: tuple[float, float] = (0.0, 0.0)
    ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
        """The maps in cv2.remap's fast fixed-point form, for a picture moved by `offset`
        pixels (x, y)."""
        dx, dy = np.float32(offset[0]), np.float32(offset[1])
        a, b = cv2.convertMaps(self.map_x + dx, self.map_y + dy, cv2.CV_16SC2)
        return np.asarray(a, np.int16), np.asarray(b, np.uint16)

    @property
    def bins(self) -> int:
        return len(self.thetas)

    @property
    def bin_radians(self) -> float:
        return 2 * math.pi / len(self.thetas)

    def row_of(self, rho: float) -> int:
        return int(np.clip(np.searchsorted(self.rhos, rho), 0, len(self.rhos) - 1))


def polar_grid(
    ellipse: Ellipse, rho0: float, rho1: float, rows: int, bins: int, warp: AngleWarp | None = None
) -> PolarGrid:
    """Columns are evenly spaced wheel angles, rows evenly spaced radii."""
    rhos = np.linspace(rho0, rho1, rows, dtype=np.float64)
    thetas = np.arange(bins, dtype=np.float64) * (2 * math.pi / bins)
    image = warp.image_angle(thetas) if warp else thetas
    x, y = ellipse.points(image[None, :], rhos[:, None])
    return PolarGrid(rhos, thetas, x.astype(np.float32), y.astype(np.float32))

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
    cx: float
    cy: float
    a: float  # semi-axis along `angle`
    b: float  # semi-axis across it
    angle: float  # radians, direction of the `a` axis in the image

    def points(
        self, theta: npt.NDArray[np.float64], rho: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Image (x, y) of wheel angle `theta` (clockwise) at `rho` times the ellipse's size."""
        t = theta
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        u = rho * self.a * np.cos(t)
        v = rho * self.b * np.sin(t)
        return self.cx + u * ca - v * sa, self.cy + u * sa + v * ca

    def wheel_coords(self, x: float, y: float) -> tuple[float, float]:
        """Inverse of `points`: (theta, rho) of an image point."""
        dx, dy = x - self.cx, y - self.cy
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        u = (dx * ca + dy * sa) / self.a
        v = (-dx * sa + dy * ca) / self.b
        t = math.atan2(v, u)
        return t, math.hypot(u, v)


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

    def fixed_point_maps(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
        """The maps in cv2.remap's fast fixed-point form."""
        a, b = cv2.convertMaps(self.map_x, self.map_y, cv2.CV_16SC2)
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

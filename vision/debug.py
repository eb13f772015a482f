"""A picture of the calibration over a frame, for a person to check the fit."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import Calibration
from vision.geometry import polar_grid
from vision.ring import RingMatcher, redness


def _curve(
    img: npt.NDArray[np.uint8], cal: Calibration, rho: float, colour: tuple[int, int, int]
) -> None:
    grid = polar_grid(cal.rotor, rho, rho, 1, 360, cal.warp)
    pts = np.stack([grid.map_x[0], grid.map_y[0]], axis=1).round().astype(np.int32)
    cv2.polylines(img, [pts], True, colour, 1, cv2.LINE_AA)


def draw_calibration(frame: npt.NDArray[np.uint8], cal: Calibration) -> npt.NDArray[np.uint8]:
    """Rotor edge (yellow), pocket ring band (magenta), ball search limit (cyan), zero (green)."""
    img = frame.copy()
    _curve(img, cal, 1.0, (0, 255, 255))
    _curve(img, cal, cal.ring[0], (255, 0, 255))
    _curve(img, cal, cal.ring[1], (255, 0, 255))
    _curve(img, cal, 1.8, (255, 255, 0))
    grid = polar_grid(cal.rotor, cal.ring[0], cal.ring[1], 4, 360, cal.warp)
    ring = cv2.remap(frame, grid.map_x, grid.map_y, cv2.INTER_LINEAR)
    zero = RingMatcher(360).align(redness(ring)).zero
    spoke = polar_grid(cal.rotor, 0.0, 1.15, 2, 360, cal.warp)
    col = round(zero / (2 * math.pi) * 360) % 360
    p0 = (round(float(spoke.map_x[0, col])), round(float(spoke.map_y[0, col])))
    p1 = (round(float(spoke.map_x[1, col])), round(float(spoke.map_y[1, col])))
    cv2.line(img, p0, p1, (0, 255, 0), 2, cv2.LINE_AA)
    cv2.putText(img, "0", p1, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 255, 0), 2, cv2.LINE_AA)
    return img

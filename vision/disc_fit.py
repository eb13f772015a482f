"""A resting ball placed by its whole disc, where its edges cannot be read.

The locator (`vision.locate`) reads the ball from its edges against the pocket floor.
Under some lights neither edge is clean: the lit side runs into a fret-high glow and
the dim side fades into a floor as light as itself (studio 86003, valid: edges clear
in 2 of its 27 frames at rest). A disc as tall as the ball's measured height and as
wide as its radius in angle, less a ring around it, slid along the ball's row, still
finds where most of the ball is: in all 27 frames, 0.03 to 0.13 of a pocket towards
the ball's lit side from its true centre. That pull is why such a placement may only
ever read a pocket with a wider margin from its frets (`DetectorParams.disc_fret_margin`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import FloatArray

_RING = 1.4  # the ring around the disc reaches this many radii out


def disc_column(grey: FloatArray, row: float, rows_half: float, cols_half: float) -> int | None:
    """The patch column where a disc `rows_half` by `cols_half` (half-axes, in rows and
    columns) centred on `row`, less the ring around it, sums highest; None where the
    patch is too small to hold it."""
    hv, hw = int(_RING * rows_half) + 1, int(_RING * cols_half) + 1
    top, centre = round(row) - hv, round(row)
    if top < 0 or centre + hv + 1 > grey.shape[0] or 2 * hw + 1 > grey.shape[1]:
        return None
    yy, xx = np.mgrid[-hv : hv + 1, -hw : hw + 1]
    rr = np.hypot(xx / cols_half, yy / rows_half)
    disc, ring = rr <= 1.0, (rr > 1.0) & (rr <= _RING)
    template = np.zeros(rr.shape, dtype=np.float32)
    template[disc] = 1.0 / disc.sum()
    template[ring] = -1.0 / ring.sum()
    strip = np.ascontiguousarray(grey[top : centre + hv + 1], dtype=np.float32)
    sums = cv2.matchTemplate(strip, template, cv2.TM_CCORR)[0]
    return hw + int(np.argmax(sums))

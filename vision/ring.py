"""The pocket ring's colour pattern: where the green zero is, globally and near the ball.

The ring is read as one number per angle, `redness` = R - max(G, B): high on red
pockets, near zero on black ones and on white digits or silver frets, negative on the
green zero. That holds for any shade of red, black and green, so the pattern can be
matched against the standard pocket order without learning a look.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.geometry import FloatArray
from vision.pockets import POCKET_COUNT, pocket_colours

_FINE = 11  # template sub-samples per bin (odd: one sits on the bin's own angle)
_VALUES = {"red": 1.0, "black": 0.0, "green": -1.0}
_MIN_COLOUR_STEP = 8.0  # grey levels between red and black (or green and the rest) to judge by
_CLEAR = 0.7  # of the way from one colour to the other, to call it that colour


def redness(polar_bgr: npt.NDArray[Any]) -> FloatArray:
    """Per-angle redness averaged over the rows given (rows x bins x 3 -> bins)."""
    p = polar_bgr.astype(np.float32)
    r = p[..., 2] - np.maximum(p[..., 0], p[..., 1])
    out: FloatArray = r.mean(axis=0)
    return out


def greenness(polar_bgr: npt.NDArray[Any]) -> FloatArray:
    p = polar_bgr.astype(np.float32)
    g = p[..., 1] - np.maximum(p[..., 0], p[..., 2])
    out: FloatArray = g.mean(axis=0)
    return out


def zero_margin(red: FloatArray, green: FloatArray, zero: float) -> float:
    """How surely the pocket at `zero` is the green one: how much greener it is than the
    greenest other pocket or, if it is greener at all, how much less red than the least
    red other pocket, whichever is more.

    The red/black alternation fixes the rotor angle only modulo two pockets; the one
    green pocket decides which. A small margin means that choice is not safe. A zero of
    a blue-green, as much blue in it as green, is hardly greener than a black pocket
    (`uneven_light` 96004, valid: 1.2 to 4.7 grey levels, where 6 are asked for; the
    rotor was not followed and the spin refused), but it is far less red than any
    (by 20.9 grey levels at least); a black pocket stood out from the others as less
    red by 2.7 at most, and as greener by 2.9 (80 wheels, every look, 3,440 frames). A
    pocket that is no greener than every other is not the zero however little red it
    is: a blue sleeve over a black pocket is not.
    """
    per_green, per_red = _per_pocket(green, zero), _per_pocket(red, zero)
    by_green = float(per_green[0] - per_green[1:].max())
    if by_green <= 0:
        return by_green
    return max(by_green, float(per_red[1:].min() - per_red[0]))


def _per_pocket(values: FloatArray, zero: float) -> FloatArray:
    """`values` averaged over the middle of each pocket, the zero's first, as the
    pattern placed by `zero` puts them."""
    bins = len(values)
    width = bins / POCKET_COUNT
    centres = (zero / (2 * math.pi) * bins + np.arange(POCKET_COUNT) * width) % bins
    half = max(1, int(width * 0.3))
    idx = (np.round(centres)[:, None].astype(int) + np.arange(-half, half + 1)[None, :]) % bins
    out: FloatArray = values[idx].mean(axis=1)
    return out


def fine_template(bins: int) -> FloatArray:
    """The expected redness at `bins * _FINE` evenly spaced angles from 0, where the
    zero pocket's centre is."""
    n = bins * _FINE
    theta = np.arange(n) * (2 * math.pi / n)
    index = np.round(theta / (2 * math.pi / POCKET_COUNT)).astype(int) % POCKET_COUNT
    values = np.array([_VALUES[c] for c in pocket_colours()], np.float32)
    out: FloatArray = values[index]
    return out


def template(bins: int) -> FloatArray:
    """The fine template averaged over each column's width, as a camera pixel would.

    Column j of the unwrapped ring is sampled at angle j, so it averages the fine
    samples from half a column before to half a column after it.
    """
    fine = np.roll(fine_template(bins), _FINE // 2)
    out: FloatArray = fine.reshape(bins, _FINE).mean(axis=1)
    return out


@dataclass(frozen=True)
class Alignment:
    zero: float  # wheel angle of the zero pocket's centre, radians
    score: float  # Pearson correlation of the ring with the pattern, -1..1


class RingMatcher:
    """Finds the rotor's angle by circular correlation of the ring against the pocket order."""

    def __init__(self, bins: int) -> None:
        self.bins = bins
        t = template(bins)
        t = t - t.mean()
        self._norm = float(np.linalg.norm(t))
        self._spectrum = np.conj(np.fft.rfft(t))
        self._fine = fine_template(bins)
        self._bin = 2 * math.pi / bins

    def correlation(self, signal: FloatArray) -> npt.NDArray[np.float64]:
        s = signal - signal.mean()
        norm = float(np.linalg.norm(s)) * self._norm
        if norm <= 1e-6:
            return np.zeros(self.bins)
        out: npt.NDArray[np.float64] = (
            np.fft.irfft(np.fft.rfft(s) * self._spectrum, self.bins) / norm
        )
        return out

    def align(self, signal: FloatArray) -> Alignment:
        c = self.correlation(signal)
        k = int(np.argmax(c))
        left, mid, right = c[k - 1], c[k], c[(k + 1) % self.bins]
        denom = left - 2 * mid + right
        frac = 0.5 * (left - right) / denom if denom < 0 else 0.0
        return Alignment(((k + frac) * self._bin) % (2 * math.pi), float(mid))

    def align_near(
        self, signal: FloatArray, zero: float, centre: float, *, search: float, exclude: float
    ) -> Alignment:
        """Refine `zero` within +-`search` using only the ring around `centre` (the ball).

        A tilted camera bends angles a little differently around the wheel; the pattern
        next to the ball is what says which pocket the ball is in.
        """
        n = self.bins
        angles = np.arange(n) * self._bin
        d = (angles - centre + math.pi) % (2 * math.pi) - math.pi
        weights = np.exp(-0.5 * (d / math.radians(30)) ** 2) * (np.abs(d) > exclude)
        keep = weights > 0.05
        w = weights[keep]
        s = signal[keep].astype(np.float64)
        s = s - np.average(s, weights=w)
        s_norm = (s * s * w).sum()
        fine_n = len(self._fine)

        def scores(offsets: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            pos = np.round(
                (angles[keep][None, :] - (zero + offsets)[:, None]) / (2 * math.pi) * fine_n
            ).astype(int)
            t = self._fine[pos % fine_n].astype(np.float64)
            t = t - (t * w).sum(axis=1, keepdims=True) / w.sum()
            num = (t * s * w).sum(axis=1)
            out: npt.NDArray[np.float64] = num / (np.sqrt((t * t * w).sum(axis=1) * s_norm) + 1e-9)
            return out

        # Coarse steps of half a bin first, then the template's own resolution around the best.
        coarse = np.arange(-search, search + 1e-9, self._bin / 2)
        centre_offset = coarse[int(np.argmax(scores(coarse)))]
        fine_step = self._bin / _FINE
        offsets = centre_offset + np.arange(-_FINE // 2, _FINE // 2 + 1) * fine_step
        offsets = offsets[np.abs(offsets) <= search + 1e-9]
        found = scores(offsets)
        best = int(np.argmax(found))
        return Alignment(float((zero + offsets[best]) % (2 * math.pi)), float(found[best]))


def colour_at(red: FloatArray, green: FloatArray, zero: float, theta: float) -> str | None:
    """The pocket colour of the ring at wheel angle `theta`, or None when it is not clear.

    Judged against the ring's own red, black and green pockets in the same picture
    (placed by `zero`), so no shade is assumed. Neighbouring pockets always differ in
    colour, so this tells a ball read one pocket off from one read right.
    """
    bins = len(red)
    width = bins / POCKET_COUNT
    per_red, per_green = _per_pocket(red, zero), _per_pocket(green, zero)
    kinds = np.array(pocket_colours())
    r_red = float(np.median(per_red[kinds == "red"]))
    r_black = float(np.median(per_red[kinds == "black"]))
    if r_red - r_black < _MIN_COLOUR_STEP:
        return None
    c = theta / (2 * math.pi) * bins
    window = np.round(np.arange(c - width * 0.2, c + width * 0.2 + 1e-9)).astype(int) % bins
    x_red = (float(red[window].mean()) - r_black) / (r_red - r_black)
    if x_red >= _CLEAR:
        return "red"
    # Not red: black or the green zero, told apart by greenness or, for a blue-green
    # zero hardly greener than black, by how much less red it is (`zero_margin`):
    # whichever sets the zero further from the black pockets.
    g_black = float(np.median(per_green[kinds == "black"]))
    by_green = (float(per_green[0]) - g_black, float(green[window].mean()) - g_black)
    by_red = (r_black - float(per_red[0]), r_black - float(red[window].mean()))
    step, here = max(by_green, by_red)
    if x_red > 1 - _CLEAR or step < _MIN_COLOUR_STEP:
        return None
    x_green = here / step
    if x_green >= _CLEAR:
        return "green"
    if x_green <= 1 - _CLEAR:
        return "black"
    return None

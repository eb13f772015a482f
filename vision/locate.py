"""Where exactly the resting ball lies between the frets that part the pockets.

Read at rest only, from a fine remap of the frame around the ball (a tenth of a degree
per column, a fraction of a pixel). Two things bias a plain centroid of the ball: it is
lit from one side, and its bright side pulls an intensity centroid over by up to a
third of its radius; and a silver fret touching it is as bright as the ball, so the
two merge. Here the ball's edges are found against the dark pocket floor, frets are
found above and below the ball where it does not cover them, and an edge that runs
into a fret is not trusted: the centre is then put one radius in from the clean edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.disc_fit import disc_column
from vision.geometry import AngleWarp, Ellipse, FloatArray
from vision.pockets import POCKET_COUNT

_STEP = math.radians(0.1)  # patch column width
_HALF = math.radians(12.0)  # patch half-width: the ball's pocket and both its frets
_RHO_STEP = 0.004  # patch row height, rotor radii
_RHO_HALF = 0.1
_EDGE = 0.3  # of the way from the pocket floor to the ball's brightest: its edge
_MIN_BALL = 40.0  # grey levels the ball must stand above the pocket floor
_FRET_CONTRAST = 25.0  # grey levels a fret stands above the floor next to it
_FRET_WIDTH = math.radians(3.0)  # wider bright runs are not frets
# An edge this far inside a fret's near side, or this far beyond its far side (blurred
# together with it), may be the fret's edge rather than the ball's.
_FRET_SLACK_IN = math.radians(0.4)
_FRET_SLACK_OUT = math.radians(1.0)
_CENTRE_ROWS = 0.15  # of the ball's half-height either side of its centre row
_FLOOR_REACH = math.radians(1.5)  # outside an edge, where the pocket floor is looked for
_TALLEST = 1.35  # a column window this much taller than the median one met something else
_WIDTH = (0.75, 1.3)  # a clean ball's half-width over its half-height
_BOUNDARY_SLACK = math.radians(1.5)  # a fret must lie this near a pocket boundary
_RADIAL_WINDOW = math.radians(0.5)  # column windows in which the ball's height is measured
_BAND = (0.01, 0.035)  # rows this far beyond the ball's top and bottom show the frets
_SHARP = 0.5  # of the ball's brightest that it stands out half a radius inside an edge
_SHOULDER = 0.7  # of the ball's brightest: how soon inside its edge it gets there
_MATCH = 0.1  # of the ball's brightest: a band's misfit away from the ball, at most
_AGREE = 0.25  # of a radius: the middle of two edges this near where the sharper puts it
_BEYOND = 0.05  # of the ball's brightest: it shows beyond a fret it ends at
_LIT = 0.75  # a lit side's edge builds up to the shoulder within this much of the dim side's
_DIM_REACH = 0.5  # of a radius beyond a fret's far side: how far a dim side on it is looked for
_FLOOR_ROWS = 0.06  # rotor radii above and below the ball's brightest row: its own floor
_OFF_SIGHTING = 1.5  # radii: the farthest a ball's centre lies from where it was sighted
_ONE_EDGE_OFF = 0.75  # radii: the farthest one clean edge's reading lies from the sighting
_POCKET = 2 * math.pi / POCKET_COUNT


@dataclass(frozen=True)
class BallFix:
    theta: float  # the ball's centre, wheel angle
    radius: float  # the ball's angular radius, radians
    fret: float | None  # wheel angle of a fret the ball reaches or lies across
    frets_seen: bool  # frets show next to the ball at all (some wheels' are not bright)
    by_disc: bool = False  # placed by its whole disc (`vision.disc_fit`), no edge clean
    # How far either way from `theta` the ball may lie: a ball merged with both frets of
    # its pocket by a long shutter lies somewhere between them (`_between`).
    spread: float = 0.0


@dataclass(frozen=True)
class _Fret:
    theta: float  # patch-relative angle of its centre
    half: float  # half its width


class BallLocator:
    def __init__(self, ellipse: Ellipse, warp: AngleWarp) -> None:
        self.ellipse, self.warp = ellipse, warp
        n = round(_HALF / _STEP)
        m = round(_RHO_HALF / _RHO_STEP)
        self.offsets: npt.NDArray[np.float64] = np.arange(-n, n + 1, dtype=np.float64) * _STEP
        self.rho_offsets: npt.NDArray[np.float64] = (
            np.arange(-m, m + 1, dtype=np.float64) * _RHO_STEP
        )

    def locate(
        self,
        frame: npt.NDArray[np.uint8],
        theta: float,
        rho: float,
        zero: float,
        blur: float = 0.0,
        offset: tuple[float, float] = (0.0, 0.0),
    ) -> BallFix | None:
        """The ball sighted near (`theta`, `rho`); `zero` places the pocket boundaries.

        `blur` is the most the rotor (and the ball resting on it) can smear along the
        angle during one exposure: its angle turned in one frame interval. `offset` is
        how far the picture has moved since the wheel was placed (pixels, x and y).
        """
        grey = self._patch(frame, theta, rho, offset)
        fix = self._locate(grey, theta, rho, zero, blur, local_floor=False)
        if fix is not None:
            return fix
        # A grey ball on a light pocket floor stands out only against the floor right
        # by it: the darkest tenth of its columns is the darker ring beyond the pocket,
        # and the ball seems no brighter than its floor. Read against the floor by it,
        # the light ring next to the ball could pass for the ball's own edge too, so
        # such a reading is taken only where the ball is clear of every fret (`_fix`).
        fix = self._locate(grey, theta, rho, zero, blur, local_floor=True)
        return fix if fix is not None else self._by_disc(grey, theta, rho, zero)

    def _locate(
        self,
        grey: FloatArray,
        theta: float,
        rho: float,
        zero: float,
        blur: float,
        local_floor: bool,
    ) -> BallFix | None:
        first = self._height(grey, [], local_floor)
        if first is None:
            return None
        # A long shutter smears the frets with the rotor, wider than a fret can be; the
        # ball is looked for against the frets seen as they are first, and against the
        # smeared ones only where that found no clean ball: readings that needed no
        # smeared fret stay what they were.
        fix = self._fix(grey, first, theta, rho, zero, blur, 0.0, local_floor)
        if fix is None and blur > 0:
            fix = self._fix(grey, first, theta, rho, zero, blur, blur, local_floor)
        return fix

    def _fix(
        self,
        grey: FloatArray,
        first: tuple[float, float, int, float],
        theta: float,
        rho: float,
        zero: float,
        blur: float,
        smear: float,
        local_floor: bool,
    ) -> BallFix | None:
        """The ball in its patch, with frets up to `smear` wider than a fret can be."""
        frets = self._frets(grey, first[0], first[1], theta, zero, smear)
        # `blur` assumes the shutter open for the whole frame interval. A smear makes
        # every fret at least as wide as itself: the frets seen bound it (a short
        # shutter's sharp frets leave the ball no room to have smeared). The widest:
        # a smear that steps (a few exposures' worth) may show a fret in pieces.
        if frets:
            blur = min(blur, max(2 * f.half for f in frets))
        height = self._height(grey, frets, local_floor)
        if height is None:
            return None
        row, half_height, column, floor = height
        r_ang = self._radius(row, half_height, rho)
        if r_ang is None:
            return None
        r_cols = r_ang / _STEP
        # Only the rows through the centre: chords higher up are shorter and blur the edges.
        mid = round(row)
        k = round(_CENTRE_ROWS * half_height / _RHO_STEP)
        profile = grey[max(0, mid - k) : mid + k + 1].mean(axis=0)
        peak = float(profile[column])
        if peak - floor < _MIN_BALL:
            return None
        level = floor + _EDGE * (peak - floor)
        # Against the floor above and below the ball (not `local_floor`), a light pocket
        # ring may be taken for the ball as a whole: no dip then bounds a ball that size.
        rough = (
            _dipped(profile, column, level, r_cols, blur)
            if local_floor
            else _run(profile, column, level)
        )
        if rough is None:
            return None
        ends: list[float | None] = []
        walls: list[_Fret | None] = []
        for side, end in ((-1, rough[0]), (1, rough[1])):
            edge = float(np.interp(end, np.arange(len(self.offsets)), self.offsets))
            wall = next(
                (
                    f
                    for f in frets
                    if -_FRET_SLACK_IN
                    <= side * (edge - f.theta) + f.half
                    <= _FRET_SLACK_OUT + 2 * f.half + _tail(f, smear)
                ),
                None,
            )
            walls.append(wall)
            # Clear of the fret's far side (by more than a fret's edge is soft), the
            # edge may be the ball's own: it lies across the fret.
            across = wall is None or side * (edge - wall.theta) > wall.half + _FRET_SLACK_IN
            ends.append(self._edge(profile, end, side, r_cols) if across else None)
        left, right = (None if w is not None else e for e, w in zip(ends, walls, strict=True))
        beside = None
        if walls[0] is not None or walls[1] is not None:
            # A fret merges with the ball's edge in the profile; above and below the ball
            # it shows as it is, so what the ball adds to it tells where the ball ends.
            bands = self._bands(grey, row, half_height)
            if bands:
                beside = self._beside(profile, bands, rough, r_cols, blur, theta, zero, frets)
        spread = 0.0
        centre: float | None
        if beside is not None:
            centre = beside
        elif walls[0] is not None and walls[1] is not None:
            if abs(walls[1].theta - walls[0].theta - _POCKET) > _BOUNDARY_SLACK:
                return None
            if not smear:
                # A ball as wide as its pocket fills it from fret to fret.
                centre = (walls[0].theta + walls[1].theta) / 2
            else:
                # Smeared as wide, it may lie anywhere the smear lets it reach both.
                between = _between(walls[0], walls[1], r_ang, blur)
                if between is None:
                    return None
                centre, spread = between
        elif left is not None and right is not None:
            centre = (left + right) / 2
            if not _disc(left, right, r_ang, blur):
                # Something else merged with the ball (a number, a glint) makes it wider
                # than a disc. A ball lit from one side whose dim side fades into a floor
                # as light as it (low_contrast 86010, valid: its dim edge found up to half a
                # radius in, in half the frames at rest) is narrower: it lies a radius in
                # from its lit side's edge, if one side is clearly the lit one.
                if (right - left) / 2 >= _WIDTH[0] * r_ang:
                    return None
                shoulder = floor + _SHOULDER * (peak - floor)
                up_left = _build_up(profile, rough[0], -1, column, shoulder)
                up_right = _build_up(profile, rough[1], 1, column, shoulder)
                if min(up_left, up_right) > _LIT * max(up_left, up_right):
                    return None
                centre = left + r_ang if up_left < up_right else right - r_ang
        elif left is not None and walls[1] is not None:
            centre = _one_edge(left + r_ang, walls[1], ends, r_ang, blur)
        elif right is not None and walls[0] is not None:
            centre = _one_edge(right - r_ang, walls[0], ends, r_ang, blur)
        else:
            # An edge that is neither clean nor at a fret: the ball merged with something
            # else there (studio 87020, valid: a light floor on past the next fret, the
            # ball put a radius in from the fret's outer edge, 3 deg off).
            return None
        # The sighting is the middle of the spot the ball makes, as smeared as the ball:
        # within a quarter of a radius of its centre (its lit side pulls the spot over).
        # A centre much further off is another edge taken for the ball's (a smeared
        # fret's); so is a fret that far, which a ball lying on it would cover (motion_blur
        # 86015, valid: placed on its pocket's far fret, 1.7 radii from the sighting, a
        # doubt in two of five frames that refused it).
        if centre is None or abs(centre) > _OFF_SIGHTING * r_ang:
            return None
        if local_floor and any(abs(centre - f.theta) < r_ang + f.half + spread for f in frets):
            return None  # never a number for a ball that may lie on a fret
        return self._fixed(theta, centre, r_ang, frets, by_disc=False, spread=spread)

    def _by_disc(self, grey: FloatArray, theta: float, rho: float, zero: float) -> BallFix | None:
        """The ball placed by its whole disc where no edge of it is clean (`BallFix.by_disc`),
        its height measured against the floor right by it first: where no edge stood
        out, the floor beside the ball is the light one (`locate`)."""
        height = self._height(grey, [], True) or self._height(grey, [], False)
        if height is None:
            return None
        row, half_height, _, _ = height
        r_ang = self._radius(row, half_height, rho)
        if r_ang is None:
            return None
        column = disc_column(grey, row, half_height / _RHO_STEP, r_ang / _STEP)
        if column is None:
            return None
        centre = float(self.offsets[column])
        if abs(centre) > _OFF_SIGHTING * r_ang:
            return None
        frets = self._frets(grey, row, half_height, theta, zero, 0.0)
        return self._fixed(theta, centre, r_ang, frets, by_disc=True)

    def _radius(self, row: float, half_height: float, rho: float) -> float | None:
        """The ball's angular radius from its height at patch row `row`; None if that makes
        it wider than a pocket: that is the light ring around the pockets, its height
        measured against the dark beyond it."""
        rhos = rho + self.rho_offsets
        r_ang = half_height / float(np.interp(row, np.arange(len(rhos)), rhos))
        return None if 2 * r_ang > _POCKET else r_ang

    def _fixed(
        self,
        theta: float,
        centre: float,
        r_ang: float,
        frets: list[_Fret],
        by_disc: bool,
        spread: float = 0.0,
    ) -> BallFix:
        """The fix for a ball centred `centre` from the sighting, with the fret it reaches;
        one that may lie up to `spread` either way reaches none: its frets bound it."""
        if spread:
            return BallFix((theta + centre) % (2 * math.pi), r_ang, None, True, by_disc, spread)
        reach = (centre - r_ang - _FRET_SLACK_IN, centre + r_ang + _FRET_SLACK_IN)
        reached = [
            f for f in frets if reach[0] <= f.theta + f.half and f.theta - f.half <= reach[1]
        ]
        fret = min(reached, key=lambda f: abs(f.theta - centre), default=None)
        return BallFix(
            (theta + centre) % (2 * math.pi),
            r_ang,
            None if fret is None else (theta + fret.theta) % (2 * math.pi),
            bool(frets),
            by_disc,
        )

    def _edge(self, profile: FloatArray, end: float, side: int, r_cols: float) -> float | None:
        """The edge near `end`, where the profile is halfway from the floor outside it to the
        ball just inside it: the ball is lit from one side, so each side has its own step."""
        n = len(profile)
        inside = round(end - side * 0.5 * r_cols)
        out = np.arange(round(end), round(end + side * _FLOOR_REACH / _STEP), side)
        if not 0 <= inside < n or out.size == 0 or not (out.min() >= 0 and out.max() < n):
            return None
        level = (float(profile[inside]) + float(profile[out].min())) / 2
        i = inside
        while 0 <= i + side < n and profile[i + side] >= level:
            i += side
        j = i + side
        if not 0 <= j < n or profile[i] == profile[j]:
            return None
        crossing = i + side * (profile[i] - level) / (profile[i] - profile[j])
        return float(np.interp(crossing, np.arange(n), self.offsets))

    def _beside(
        self,
        profile: FloatArray,
        bands: list[FloatArray],
        rough: tuple[float, float],
        r_cols: float,
        blur: float,
        theta: float,
        zero: float,
        frets: list[_Fret],
    ) -> float | None:
        """The centre of a ball that meets a fret, from what it adds to the frets and floor
        as they show just above or below it; None where neither band shows them as they
        are along the ball's centre rows, or no edge of the ball stands out there.

        A ball is lit from one side: its dim side fades into the floor (its edge found
        too far in) and may add nothing to a bright fret. The middle of its two edges is
        taken where it lies a radius in from the sharper edge (the ball builds up to
        most of its brightness soonest inside it), or up to half the rotor's turn in a
        frame interval (`blur`) further, if a long shutter smeared it; otherwise that
        range, whose end nearer a fret is taken, and the fret itself if the range
        reaches it, so that a ball which may lie by a fret is judged as if it did. A ball
        whose dim side hides a fret it meets, darker than it, lies across it: on the fret;
        so does one placed short of the middle of a fret whose far half it covers.
        """
        n = len(profile)
        lo, hi = max(0, math.floor(rough[0])), min(n, math.ceil(rough[1]) + 1)
        if hi - lo < 2:
            return None
        clear = np.ones(n, dtype=bool)
        clear[lo:hi] = False
        if clear.sum() < _FLOOR_REACH / _STEP:
            return None
        # The band that shows the frets and floor as the centre rows do away from the ball.
        excess = min((profile - band for band in bands), key=lambda e: np.median(np.abs(e[clear])))
        top = lo + int(np.argmax(excess[lo:hi]))
        brightest = float(excess[top])
        if brightest < _MIN_BALL or np.median(np.abs(excess[clear])) > _MATCH * brightest:
            return None
        run = _run(excess, top, _EDGE * brightest)
        if run is None:
            return None
        r_ang = r_cols * _STEP
        covered: list[_Fret] = []
        for side, end in ((-1, run[0]), (1, run[1])):
            edge = float(np.interp(end, np.arange(n), self.offsets))
            for f in frets:
                if abs(edge - f.theta) > f.half + r_ang:
                    continue
                # The ball may lie on a fret as bright as itself: it adds nothing there
                # (or less than nothing, its dim side), and shows again beyond it, if
                # only a little (its dim side on a light floor).
                a, b = f.theta + side * f.half, f.theta + side * (f.half + r_ang)
                beyond = excess[(self.offsets >= min(a, b)) & (self.offsets <= max(a, b))]
                if beyond.size and float(beyond.mean()) >= _BEYOND * brightest:
                    return None
                # A ball whose dim side is darker than the fret (a grey ball, a light
                # fret) hides the fret: where the ball's rows stay darker than the fret
                # and floor from the fret's middle to beyond its far side, by more than
                # the bands' misfit away from the ball allows, its dim side lies across
                # the fret and its lit side before it. The lit side alone, taken for the
                # ball, put it about a radius into the pocket it only half lies in.
                c = f.theta + side * (f.half + _DIM_REACH * r_ang)
                dim = excess[(self.offsets >= min(f.theta, c)) & (self.offsets <= max(f.theta, c))]
                if dim.size and float(dim.mean()) <= -_MATCH * brightest:
                    return f.theta
                # Darker in the ball's rows than above and below it, the fret's far half
                # is covered by the ball's dim side, however light the floor beyond it
                # (which the mean above takes in).
                far_half = excess[
                    (self.offsets >= min(f.theta, a)) & (self.offsets <= max(f.theta, a))
                ]
                if far_half.size and float(np.median(far_half)) <= -_MATCH * brightest:
                    covered.append(f)
        centre = self._placed(excess, run, top, r_cols, blur, theta, zero, frets)
        # A ball placed so that it ends short of the middle of a fret its dim side covers
        # is read from its lit side alone, its height (hence its radius) measured on that
        # side too: a grey ball on a light floor. It lies by the fret at least, and
        # may lie on it: judged as if it did.
        for f in covered:
            if centre is not None and abs(centre - f.theta) > r_ang:
                return f.theta
        return centre

    def _placed(
        self,
        excess: FloatArray,
        run: tuple[float, float],
        top: int,
        r_cols: float,
        blur: float,
        theta: float,
        zero: float,
        frets: list[_Fret],
    ) -> float | None:
        """The centre from the edges of what the ball adds (`_beside`)."""
        n = len(excess)
        brightest = float(excess[top])
        r_ang = r_cols * _STEP
        edges: list[tuple[float, float, int]] = []  # (edge, how soon the ball builds up, side)
        for side, end in ((-1, run[0]), (1, run[1])):
            inside = round(end - side * 0.5 * r_cols)
            if not 0 <= inside < n or excess[inside] < _SHARP * brightest:
                continue
            found = self._edge(excess, end, side, r_cols)
            if found is None:
                continue
            edges.append((found, _build_up(excess, end, side, top, _SHOULDER * brightest), side))
        if not edges:
            return None
        edge, _, side = min(edges, key=lambda e: e[1])
        near, far = edge - side * r_ang, edge - side * (r_ang + blur / 2)
        span = (min(near, far) - _AGREE * r_ang, max(near, far) + _AGREE * r_ang)
        if len(edges) == 2 and _disc(edges[0][0], edges[1][0], r_ang, blur):
            middle = (edges[0][0] + edges[1][0]) / 2
            if span[0] <= middle <= span[1]:
                return middle
        span = (min(near, far), max(near, far))
        walls = [f.theta for f in frets] + self._boundaries(theta, zero, span)
        reached = [w for w in walls if span[0] <= w <= span[1]]
        if reached:
            return min(reached, key=lambda w: abs(w - (near + far) / 2))
        return min(span, key=lambda x: min(abs(x - w) for w in walls))

    def _boundaries(self, theta: float, zero: float, span: tuple[float, float]) -> list[float]:
        """Patch angles of the pocket boundaries the pattern puts nearest either end of `span`."""
        out = []
        for x in span:
            k = round((theta + x - zero) / _POCKET - 0.5)
            out.append(x + ((k + 0.5) * _POCKET - (theta + x - zero)))
        return out

    def _patch(
        self, frame: npt.NDArray[np.uint8], theta: float, rho: float, offset: tuple[float, float]
    ) -> FloatArray:
        wheel = theta + self.offsets
        x, y = self.ellipse.points(
            self.warp.image_angle(wheel)[None, :], (rho + self.rho_offsets)[:, None]
        )
        patch = cv2.remap(
            frame,
            (x + offset[0]).astype(np.float32),
            (y + offset[1]).astype(np.float32),
            cv2.INTER_LINEAR,
        )
        out: FloatArray = np.min(patch, axis=2).astype(np.float32)
        return out

    def _height(
        self, grey: FloatArray, frets: list[_Fret], local_floor: bool
    ) -> tuple[float, float, int, float] | None:
        """The ball's centre row, half-height (rotor radii), centre column and pocket floor.

        Measured in narrow column windows across the ball: the tallest one passes through
        its centre. Windows on a fret run along it, so they are left out, and so is any
        window much taller than the rest (one that met a fret not yet known). The floor
        is the darkest tenth of a window, or with `local_floor` the brighter of its
        darkest rows within `_FLOOR_ROWS` above and below the ball's brightest row.
        """
        rows, cols = grey.shape
        mid_row, mid_col = rows // 2, cols // 2
        width = max(1, round(_RADIAL_WINDOW / _STEP))
        reach = round(0.03 / _RHO_STEP)
        found: list[tuple[float, float, int, float]] = []
        for c in range(mid_col - 6 * width, mid_col + 6 * width + 1, width):
            offset = float(self.offsets[c])
            if any(abs(offset - f.theta) <= f.half + _RADIAL_WINDOW for f in frets):
                continue
            radial = grey[:, c - width // 2 : c + width // 2 + 1].mean(axis=1)
            top = mid_row - reach + int(np.argmax(radial[mid_row - reach : mid_row + reach + 1]))
            peak = float(radial[top])
            # The floor of the ball's own pocket, above and below it in these columns.
            if local_floor:
                n = round(_FLOOR_ROWS / _RHO_STEP)
                above, below = radial[max(0, top - n) : top], radial[top + 1 : top + n + 1]
                if not len(above) or not len(below):
                    continue
                floor = max(float(above.min()), float(below.min()))
            else:
                floor = float(np.percentile(radial, 10))
            if peak - floor < _MIN_BALL:
                continue
            run = _run(radial, top, floor + _EDGE * (peak - floor))
            if run is not None:
                found.append(((run[0] + run[1]) / 2, (run[1] - run[0]) / 2 * _RHO_STEP, c, floor))
        if not found:
            return None
        usual = float(np.median([f[1] for f in found]))
        return max((f for f in found if f[1] <= _TALLEST * usual), key=lambda f: f[1])

    def _bands(self, grey: FloatArray, row: float, half_height: float) -> list[FloatArray]:
        """The mean rows of the bands just beyond the ball's top and bottom: the frets and
        the pocket floor as they are by the ball, where it does not cover them."""
        rows = grey.shape[0]
        k = half_height / _RHO_STEP
        bands: list[FloatArray] = []
        for sign in (-1, 1):
            a = round(row + sign * (k + _BAND[0] / _RHO_STEP))
            b = round(row + sign * (k + _BAND[1] / _RHO_STEP))
            lo, hi = max(0, min(a, b)), min(rows, max(a, b) + 1)
            if hi - lo >= 2:
                bands.append(grey[lo:hi].mean(axis=0))
        return bands

    def _frets(
        self,
        grey: FloatArray,
        row: float,
        half_height: float,
        theta: float,
        zero: float,
        smear: float,
    ) -> list[_Fret]:
        """Frets in the bands just beyond the ball's top and bottom, at pocket boundaries,
        up to `smear` wider than a fret can be (smeared along the angle with the rotor)."""
        frets: list[_Fret] = []
        for band in self._bands(grey, row, half_height):
            # Smeared, the frets may fill half the band: its floor is then lower down.
            base = float(np.percentile(band, 25 if smear else 50))
            bright = band >= base + max(_FRET_CONTRAST, 0.5 * (float(band.max()) - base))
            for start, stop in _true_runs(bright):
                if smear:
                    start, stop = _smeared(band, start, stop, round((_FRET_WIDTH + smear) / _STEP))
                    centre = float(self.offsets[start] + self.offsets[stop - 1]) / 2
                else:
                    w = band[start:stop] - base
                    centre = float((self.offsets[start:stop] * w).sum() / w.sum())
                width = (stop - start) * _STEP
                if width > _FRET_WIDTH + smear:
                    continue
                boundary = (theta + centre - zero) / _POCKET - 0.5
                if abs(boundary - round(boundary)) * _POCKET > _BOUNDARY_SLACK:
                    continue
                if all(abs(f.theta - centre) > math.radians(1.0) for f in frets):
                    frets.append(_Fret(centre, width / 2))
        return frets


def _smeared(band: FloatArray, start: int, stop: int, reach: int) -> tuple[int, int]:
    """The whole of a smeared fret whose brightest part runs from `start` to `stop`
    (exclusive): as far either way as the band stays halfway up from the floor beside
    it (the higher of the darkest within `reach` either side) to its brightest.

    A fret smeared with the rotor is brighter at one end than the other (its highlight
    on the side towards the light), and its brightest part alone put it up to 1.4 deg
    off its middle (`motion_blur` 85003): the middle of the smear is where the fret
    was halfway through the exposure, as the pocket pattern sees it.
    """
    n = len(band)
    left = band[max(0, start - reach) : start]
    right = band[stop : min(n, stop + reach)]
    if not left.size or not right.size:
        return start, stop
    level = (float(band[start:stop].max()) + max(float(left.min()), float(right.min()))) / 2
    while start > 0 and band[start - 1] >= level:
        start -= 1
    while stop < n and band[stop] >= level:
        stop += 1
    return start, stop


def _disc(left: float, right: float, r_ang: float, blur: float) -> bool:
    """Edges as far apart as a ball's disc, smeared by at most `blur` (a number or a
    glint merged with the ball makes it wider)."""
    return _WIDTH[0] * r_ang <= (right - left) / 2 <= _WIDTH[1] * r_ang + blur / 2


def _tail(fret: _Fret, smear: float) -> float:
    """How far a fret smeared by up to `smear` runs on beyond its measured half-width:
    its smear's soft end, half of it (the smear is at most the fret's measured width)."""
    return min(smear, 2 * fret.half) / 2


def _between(left: _Fret, right: _Fret, r_ang: float, blur: float) -> tuple[float, float] | None:
    """Where a ball whose edges both run into the frets of its pocket may lie: the middle
    of that range and how far either way from it; None if it cannot reach both.

    Smeared by a long shutter (by `s`), ball and frets are each `s` wider than they
    are and their edges soft over `s`. A ball's edge runs into a fret's at most when
    its centre is `r + half + s/2` from the fret's (`half` the fret's measured
    half-width, at least `s/2`; `s` at most `blur`) and a gap a soft lens bridges
    (`_FRET_SLACK_OUT`); the ball taken `_WIDTH[1]` times as wide as its height says
    (a profile model of box-shaped ball and fret, smeared and blurred by a lens of up
    to 0.5 deg, merges them at most 0.6 deg short of that reach). Reaching both frets,
    the ball lies between them, but anywhere in that range, up to the frets themselves.
    """

    def reach(fret: _Fret) -> float:
        return _WIDTH[1] * r_ang + fret.half + min(blur, 2 * fret.half) / 2 + _FRET_SLACK_OUT

    pocket = right.theta - left.theta
    nearest, furthest = pocket - reach(right), reach(left)  # from the left fret
    if nearest > furthest:
        return None
    low, high = max(0.0, nearest), min(pocket, furthest)
    return left.theta + (low + high) / 2, (high - low) / 2


def _one_edge(
    centre: float, wall: _Fret, ends: list[float | None], r_ang: float, blur: float
) -> float | None:
    """The centre of a ball with one clean edge, put one radius in from it (`centre`),
    unless the other edge, beyond a fret's far side, may be the ball's own; None if
    that radius in is further from the sighting than a ball lies from it.

    A long shutter smears the ball past the frets of its pocket, and the end of the
    smear beyond one of them passes for a clean edge: a radius in from it is a fret or
    more from the ball (motion_blur 92001, valid: 3.2 to 3.6 deg from the sighting, 0.5
    deg from a fret). Of 41 such readings at rest in 310 valid spins (seeds 92000), the
    28 within 1.5 deg of the truth lay at most 0.54 radius from the sighting, and the 8
    further from it than 0.75 radius were all 3.3 to 4.7 deg off.

    An edge that runs beyond a fret may be the fret's blurred with the ball (the ball
    touches it) or the ball's (it lies across the fret). One radius in from the clean
    edge is too far from the fret by as much as the ball is smeared along the rotor in
    one exposure (a long shutter: the clean edge is the smear's end), so a ball lying on
    the fret would be read in the pocket beside it. Which is true is not known: of the
    two places the one nearer the fret, and the fret itself if they lie either side of it.
    """
    if abs(centre) > _ONE_EDGE_OFF * r_ang:
        return None
    left, right = ends
    if left is None or right is None or not _disc(left, right, r_ang, blur):
        return centre
    one, across = centre - wall.theta, (left + right) / 2 - wall.theta
    if one * across <= 0:
        return wall.theta
    return wall.theta + (one if abs(one) <= abs(across) else across)


def _build_up(profile: FloatArray, end: float, side: int, top: int, shoulder: float) -> float:
    """How far in from its edge at `end` (on `side` of its brightest column `top`) the
    ball gets to `shoulder`: its lit side builds up soonest."""
    i = round(end)
    while 0 <= i - side < len(profile) and i != top and profile[i] < shoulder:
        i -= side
    return abs(i - end)


def _run(profile: FloatArray, start: int, level: float) -> tuple[float, float] | None:
    """Sub-sample crossings of `level` on both sides of `start`; None if the run is open."""
    if profile[start] < level:
        return None
    lo, hi = _crossing(profile, start, level, -1), _crossing(profile, start, level, 1)
    return None if lo is None or hi is None else (lo, hi)


def _dipped(
    profile: FloatArray, column: int, level: float, r_cols: float, blur: float
) -> tuple[float, float] | None:
    """Where the ball ends either side of `column`: where the profile falls to `level`.

    A light pocket floor beside the ball (lighter along the ball's rows than above and
    below it, where `level` was set) and a lighter floor in the next pocket may keep
    the profile above `level` all the way out: on such a side the ball ends at the
    first dip (the floor between it and a fret) as far out as a ball's edge can be, if
    that is as far below the ball as a ball stands out at all.
    """
    near = round(_WIDTH[0] * r_cols)
    far = round(_WIDTH[1] * r_cols + (blur / 2 + _FLOOR_REACH) / _STEP)
    ends: list[float] = []
    for side in (-1, 1):
        end = _crossing(profile, column, level, side)
        if end is None:
            end = _dip(profile, column + side * near, column + side * far)
            if end is None:
                return None
            i = round(end)
            ball = profile[min(i, column) : max(i, column) + 1]
            if float(ball.max()) - float(profile[i]) < _MIN_BALL:
                return None
        ends.append(end)
    return ends[0], ends[1]


def _crossing(profile: FloatArray, start: int, level: float, side: int) -> float | None:
    """The sub-sample crossing of `level` to `side` of `start`; None if there is none."""
    i = start
    while 0 <= i + side < len(profile) and profile[i + side] >= level:
        i += side
    j = i + side
    if not 0 <= j < len(profile):
        return None
    return float(i + side * (profile[i] - level) / (profile[i] - profile[j]))


def _dip(profile: FloatArray, a: int, b: int) -> float | None:
    """The first dip from `a` out to `b`: the darkest column so far where the profile
    rises again beyond it by as much as a fret stands out; None if it does not."""
    side = 1 if b >= a else -1
    low = None
    for i in range(a, b + side, side):
        if not 0 <= i < len(profile):
            return None
        if low is None or profile[i] < profile[low]:
            low = i
        elif profile[i] >= profile[low] + _FRET_CONTRAST:
            return float(low)
    return None


def _true_runs(mask: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """(start, stop) of each run of True, stop exclusive."""
    padded = np.concatenate([[False], mask, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(a), int(b)) for a, b in zip(changes[::2], changes[1::2], strict=True)]

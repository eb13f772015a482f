"""One spin after another: launch, revolutions on the track, drop, bounces, rest, the verdict.

The tracker only decides; it is told each frame where the rotor's zero and the ball
are. A number is given only when every check has passed; anything doubtful is a
no-result with its reason.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.ball import BallSighting, Sightings
from vision.locate import BallFix
from vision.observations import (
    BallSpeed,
    NoResult,
    NoResultReason,
    Observation,
    Phase,
    PhaseChange,
    SpinFacts,
    SpinResult,
)
from vision.params import DetectorParams
from vision.pockets import (
    POCKET_COUNT,
    POCKET_DEGREES,
    POCKET_ORDER,
    colour_of,
    pockets_between,
)
from vision.rotor import RotorState, wrap

_POCKET = math.radians(POCKET_DEGREES)
_TRACK_RHO = 1.04  # beyond the rotor's edge: the ball is on the track (or the deflectors)
_ON_ROTOR_RHO = 1.0
# Rotor radii a second the ball comes down at, at most (the renderer's falls and hops:
# 2.9 at most over 40 spins; a sighting's radius is off by up to `_LAUNCH_RHO_SPREAD`).
_MAX_FALL_SPEED = 4.0
_LAUNCH_SIGHTINGS = 3
_LAUNCH_SPEED_RATIO = 1.6
_LAUNCH_RHO_SPREAD = 0.1  # rotor radii
_CONFIRM_SECONDS = 1.0
# A ball unseen longer than this before a spot shows on the rotor could have fallen
# anywhere: the spot is not where it fell. Over a chrome bowl a slow ball fades, unseen
# for up to 0.56 s before it shows on the rotor (chrome 87015, valid).
_DROP_GAP_SECONDS = 0.6
# A spot on the rotor seen twice in one place of the picture while the ball went round on
# the track, this recently, is a lamp's reflection on the turning cone, not the ball.
_GHOST_SECONDS = 1.5
_GHOST_RAD = math.radians(5.0)  # such a reflection wanders this far (chrome 85003: 3 deg)
_GHOST_RHO = 0.05  # rotor radii
_GHOST_GAIN = 1.5  # a spot this much brighter than the reflection was there is more
_MIN_TRACK_RPS, _MAX_TRACK_RPS = 0.3, 6.0
_MAX_HOP_DEG_PER_S = 500.0  # how fast a bouncing ball moves relative to the rotor, at most
_LEAVING_RHO = 0.15  # this far beyond the ball's usual track radius, it is leaving the wheel
_RECENT_SIGHTINGS = 64  # track sightings kept: _HAND_SECONDS and a launch, at 60 fps
_MAX_RELEASE_SECONDS = 0.6  # the ball is first seen going round this soon after its release
_STILL_RAD = math.radians(3.0)  # a hand holding still on the track moves less than this
# A spot beyond the track that moved less than this from one sighting to the next is not
# the ball flying off (which goes out 0.03 rotor radii a frame at 60 fps, and more).
_STILL_SPOT_RAD = math.radians(1.0)
_STILL_SPOT_RHO = 0.01
_HAND_RHO = 0.1  # rotor radii beyond the ball's track: an arm reaching in, not the ball
_HAND_SECONDS = 0.6  # how long before the launch the hand is looked for
_STILL_ROTOR = _POCKET / 2  # a rotor that went less far than this in a spin was not seen turning
_MIN_DECEL = 0.02  # rev/s^2: a ball slowing down less than this gives no expected drop
_DECEL_SPAN = 0.5  # seconds of track a deceleration is fitted on, at least
# The ball on the track only slows down (friction), and not faster than this: a track
# sighting that would make it speed up or brake harder is something else (a glint, the
# bright bowl a hand uncovered), and must neither move it nor slow it down.
_MAX_DECEL = 2 * math.pi * 3.0  # rad/s^2 (3 rev/s^2: more than any throw slows down)
_SPEED_SLACK = 0.15  # the speed estimate's error, relative
_ANGLE_SLACK = math.radians(4.0)  # a sighting's angle error, at most
# A sighting after a gap whose window of possible places is wider than this is held
# until the next one confirms it: a ghost in the window would otherwise move the ball.
_DIRECT_WINDOW = math.pi / 2
_PAIR_SECONDS = 0.25  # a held sighting is confirmed only by one this soon after it
# A launch seen only faintly (`Sightings.faint`) needs this many sightings in a row, each
# the frame after the last, going round steadily along one track.
_FAINT_RUN = 6
_BACK_SPEED_SPAN = 0.2  # seconds of spots followed back a launch over which its speed is taken


def _direction(sign: int) -> str | None:
    return None if sign == 0 else ("clockwise" if sign > 0 else "counterclockwise")


@dataclass(frozen=True)
class PocketReading:
    """The rotor read right next to the ball, in one frame."""

    ring_zero: float  # wheel angle of the zero pocket, followed over the whole ring
    zero: float  # the same, from the pattern next to the ball
    score: float  # how well that pattern matched
    colour: str | None  # the ring's colour at the ball's angle; None when not clear
    fix: BallFix | None  # the ball's centre and the frets by it; None when not clean


# Reads the pocket pattern around a ball sighting in the current frame.
ReadPocket = Callable[[BallSighting], PocketReading]


@dataclass(frozen=True)
class _TrackPoint:
    """A sighting on the track while no spin is in play, with the rotor as it was then."""

    t: float
    theta: float
    rho: float
    rotor_zero: float | None
    rotor_speed: float  # rad/s
    before: float  # time of the frame before this one


@dataclass(frozen=True)
class _Refusal:
    reason: NoResultReason
    detail: str
    unclear: bool = False  # for want of clear frames: more of them may yet read the ball


@dataclass(frozen=True)
class _Reading:
    result: SpinResult
    from_fret: float  # rad from the ball's centre to the nearer fret


@dataclass
class _RestSample:
    frame: int
    t: float
    phi: float  # ball angle relative to the rotor's zero
    rho: float
    contrast: float
    rivals: tuple[tuple[float, float], ...]  # other spots on the rotor: (phi, contrast)
    reading: PocketReading | None


class SpinTracker:
    def __init__(self, params: DetectorParams) -> None:
        self.p = params
        self.spin = 0
        self.phase = Phase.IDLE
        self._candidates: deque[_TrackPoint] = deque(maxlen=6)
        # Faint sightings too, frame after frame: a launch the threshold missed.
        # Each frame's spots: the best and, by a hand, the next best (`_launch_run`).
        self._faint_run: deque[tuple[_TrackPoint, ...]] = deque(maxlen=_FAINT_RUN)
        # The last track sightings while no spin is in play: where the croupier's hand was.
        self._recent: deque[_TrackPoint] = deque(maxlen=_RECENT_SIGHTINGS)
        # ... and every spot off the rotor, faint ones too: the ball before its launch is found.
        self._idle_spots: deque[_TrackPoint] = deque(maxlen=_RECENT_SIGHTINGS)
        self._frame_t = -math.inf  # the previous frame's time
        self._last_track_t = -math.inf
        self._armed = True
        self.ball: BallSighting | None = None
        self._reset_spin()

    def _reset_spin(self) -> None:
        self._launch_t = 0.0
        self._start_theta = 0.0
        self._theta = 0.0  # unwrapped
        self._theta_t = 0.0
        self._speed = 0.0
        self._peak_speed = 0.0
        self._track_rhos: list[float] = []
        self._rotor_dirs: list[int] = []
        self._rotor_zero: float | None = None  # the rotor's zero in the previous frame
        self._rotor_travel = 0.0  # rad, unwrapped, since the launch
        # The ball's unwrapped angle on the track, for its speed and deceleration.
        self._path: deque[tuple[float, float]] = deque()
        self._speed_t = -math.inf  # when its speed was last reported
        self._rpms: list[float] = []
        self._last_seen = 0.0
        self._last_rho = math.inf
        self._drop_votes = 0
        # When and where on the rotor (rad from its zero) the ball was last seen coming down.
        self._down: tuple[float, float] | None = None
        self._stalled = 0  # track sightings in a row that leave the ball going round too slowly
        self._drop_t = math.inf
        self._leaving = 0
        self._left_at: BallSighting | None = None  # the last sighting beyond the track
        self._rest: list[_RestSample] = []
        self._low_rho = math.inf  # the lowest the ball has been seen on the rotor
        self._rest_announced = False
        self._phi: float | None = None  # last rotor-relative angle of the ball on the rotor
        self._phi_t = 0.0
        self._revolutions = 0.0
        self._ball_dir = 0
        self._release_pocket: int | None = None  # the number under the ball at its release
        # Track sightings the ball's course did not explain, kept until three of them
        # go round as the ball does (then the ball is found again) or grow old.
        self._held: list[tuple[float, BallSighting]] = []
        # Track sightings, faint ones too, in the frames after one another since the
        # ball was last found: `_FAINT_RUN` of them going round as it does find it again.
        self._faint_held: list[tuple[float, BallSighting]] = []
        # Spots on the rotor and off it, the ball's aside, while it was seen on the track
        # (`_is_ghost`).
        self._ghosts: deque[tuple[float, BallSighting]] = deque()

    @property
    def revolutions(self) -> float:
        return self._revolutions

    @property
    def ball_on_rotor(self) -> bool:
        """The ball is (or is about to be) on the rotor: its picture must not learn the ball."""
        if self.phase in (Phase.BOUNCING, Phase.AT_REST):
            return True
        return self.phase in (Phase.LAUNCHED, Phase.ON_TRACK) and (
            self._drop_votes > 0 or self._last_rho < _TRACK_RHO + 0.06
        )

    @property
    def resting_phi(self) -> float | None:
        """Where on the rotor (from its zero) the ball has come to rest, if it has: it
        rests once it has been seen twice in a row in the same place."""
        if self.phase in (Phase.BOUNCING, Phase.AT_REST) and len(self._rest) >= 2:
            return self._rest[-1].phi
        return None

    @property
    def in_play(self) -> bool:
        return self.phase in (Phase.LAUNCHED, Phase.ON_TRACK, Phase.BOUNCING, Phase.AT_REST)

    def _to(self, phase: Phase, frame: int, t: float) -> list[Observation]:
        if phase == self.phase:
            return []
        self.phase = phase
        return [PhaseChange(self.spin, phase, frame, t)]

    def _rotor_sense(self) -> int:
        """Which way the rotor went since the launch: the sign of how far it turned."""
        if abs(self._rotor_travel) < _STILL_ROTOR:
            return 0
        return 1 if self._rotor_travel > 0 else -1

    def _facts(self, frame: int, t: float, rest: _RestSample | None) -> SpinFacts:
        return SpinFacts(
            spin=self.spin,
            ball_direction=_direction(self._ball_dir),
            rotor_direction=_direction(self._rotor_sense()),
            ball_revolutions=round(self._revolutions, 2),
            rotor_rpm=round(float(np.median(self._rpms)), 1) if self._rpms else 0.0,
            release_pocket=self._release_pocket,
            rest_frame=rest.frame if rest else None,
            rest_time=round(rest.t, 4) if rest else None,
            declared_frame=frame,
            declared_time=round(t, 4),
        )

    def _follow_rotor(self, rotor: RotorState) -> None:
        """How far the rotor turned: its direction is judged on that, not on one frame's
        speed (a slow rotor's speed estimate drifts through zero and back)."""
        if rotor.zero is None:
            self._rotor_zero = None  # what it turned unseen is not counted
            return
        if self._rotor_zero is not None:
            self._rotor_travel += wrap(rotor.zero - self._rotor_zero)
        self._rotor_zero = rotor.zero
        self._rotor_dirs.append(rotor.direction)
        self._rpms.append(rotor.rpm)

    def _looks_same_way(self) -> bool:
        """Ball and rotor seem to turn the same way, on whatever was seen of them."""
        sense = self._rotor_sense()
        return sense != 0 and sense == self._ball_dir

    def _surely_same_way(self) -> bool:
        """Ball and rotor turn the same way, certainly.

        Certain only once both have gone far enough since the launch
        (`direction_ball_turns`, `direction_rotor_turns`) and the rotor's frame-by-frame
        speed agrees with how far it turned: a croupier's hand, a slow rotor or a few
        frames of bad tracking then cannot make a spin against the rotor look like one
        with it.
        """
        rotor_turns = abs(self._rotor_travel) / (2 * math.pi)
        return (
            self._looks_same_way()
            and self._revolutions >= self.p.direction_ball_turns
            and rotor_turns >= self.p.direction_rotor_turns
            and int(np.sign(sum(self._rotor_dirs))) == self._rotor_sense()
        )

    def _turns_detail(self) -> str:
        rotor_turns = abs(self._rotor_travel) / (2 * math.pi)
        return f"ball {self._revolutions:.2f} and rotor {rotor_turns:.2f} turns since the launch"

    def _ball_speed(self, frame: int, t: float) -> BallSpeed | None:
        """The ball's speed now and when it is expected to drop, from the recent track.

        The ball's angle over the last `speed_fit_seconds` is fitted with a constant
        deceleration (a parabola in time); the drop is expected when that deceleration
        has brought it down to the wheel's `drop_revs_per_s`.
        """
        while self._path and self._path[0][0] < t - self.p.speed_fit_seconds:
            self._path.popleft()
        if len(self._path) < 3:
            return None
        times = np.array([p[0] - t for p in self._path])
        angles = np.array([p[1] for p in self._path])
        span = float(-times[0])
        if span >= _DECEL_SPAN and len(self._path) >= 5:
            curve, slope, _ = np.polyfit(times, angles, 2)
        else:
            (slope, _), curve = np.polyfit(times, angles, 1), 0.0
        revs = abs(float(slope)) / (2 * math.pi)
        decel = -2 * float(curve) * math.copysign(1.0, float(slope)) / (2 * math.pi)
        drop = None
        if span >= _DECEL_SPAN and decel >= _MIN_DECEL:
            drop = max(0.0, (revs - self.p.drop_revs_per_s) / decel)
        return BallSpeed(self.spin, frame, t, revs, drop)

    def void(self, reason: NoResultReason, detail: str, frame: int, t: float) -> list[Observation]:
        rest = self._rest[0] if self._rest_announced and self._rest else None
        out: list[Observation] = [NoResult(self._facts(frame, t, rest), reason, detail)]
        out += self._to(Phase.VOID, frame, t)
        self._armed = False
        return out

    def step(
        self,
        frame: int,
        t: float,
        rotor: RotorState,
        seen: Sightings,
        read_pocket: ReadPocket,
    ) -> list[Observation]:
        before, self._frame_t = self._frame_t, t
        if self.in_play:
            self._follow_rotor(rotor)
        if seen.track is not None:
            self._last_track_t = t
        if not self._armed and t - self._last_track_t >= self.p.rearm_seconds:
            self._armed = True
        self.ball = seen.track or next(iter(seen.rotor), None)
        if not self.in_play:
            return self._wait_for_launch(frame, t, seen, rotor, before)
        if self.phase is Phase.LAUNCHED and t - self._launch_t >= _CONFIRM_SECONDS:
            # Never seen going round: not a launch (a hand, a glint). No spin to judge.
            return self._unlaunch(frame, t)
        if self.phase is Phase.BOUNCING and t - self._drop_t >= self.p.max_bounce_seconds:
            # A ball on the rotor settles within seconds; what is still followed is not it.
            return self.void(
                NoResultReason.BALL_LOST,
                f"ball not at rest {t - self._drop_t:.1f} s after it dropped",
                frame,
                t,
            )
        ball: BallSighting | None
        faint_spot = False
        if self.phase in (Phase.LAUNCHED, Phase.ON_TRACK):
            # On the track unless it is seen falling onto the rotor.
            track = seen.track if seen.track and self._follows_track(seen.track, t) else None
            down = next(
                (
                    b
                    for b in seen.rotor
                    if (self._follows_track(b, t) or self._hopped_on(b, t, rotor))
                    and not self._is_ghost(b, t)
                ),
                None,
            )
            if down is not None and self._still_up(seen.track, down, t):
                down = None
            ball = track or down
            if track and down and self._below_track(track.rho) and down.contrast > track.contrast:
                # Below its track the ball is falling, and the rotor's rim glints there
                # too: of the two, the brighter is the ball.
                ball = down
            if ball is None:
                # A faint ball, or one a hand outshines (`Sightings.others`), where its
                # course puts it.
                faint = (b for b in (seen.faint, *seen.others) if b is not None)
                ball = next((b for b in faint if self._faint_goes_on(b, t)), None)
                faint_spot = ball is not None
            spot = seen.track or seen.faint
            if ball is None and spot is not None and self._found_in_a_run(spot, t, before):
                ball = spot
            if ball is not None and ball.rho > _TRACK_RHO:
                self._remember_ghosts(seen, t)
        else:
            ball = self._follow_on_rotor(seen, rotor, t) or self._still_there(seen, rotor)
        if ball is None and self.phase is Phase.LAUNCHED:
            pts = self._launch_run(t, seen, rotor, before)
            if pts is not None:
                # What launched was not the ball (a hand, a glint): this goes round as a
                # launched ball does, where the launch's course does not go.
                return self._unlaunch(frame, t) + self._launch(pts, frame, t)
        self.ball = ball
        if ball is None:
            if t - self._last_seen >= self.p.lost_seconds:
                if self.phase in (Phase.LAUNCHED, Phase.ON_TRACK) and self._leaving:
                    return self.void(
                        NoResultReason.BALL_LEFT_WHEEL, "ball went over the bowl's rim", frame, t
                    )
                return self.void(
                    NoResultReason.BALL_LOST,
                    f"ball unseen for {t - self._last_seen:.1f} s",
                    frame,
                    t,
                )
            return []
        self._last_seen = t
        self._last_rho = ball.rho
        if self.phase in (Phase.LAUNCHED, Phase.ON_TRACK):
            return self._on_track(frame, t, rotor, ball, faint_spot)
        rivals = tuple(b for b in seen.rotor if b is not ball)
        return self._on_rotor(frame, t, rotor, ball, rivals, read_pocket)

    def _wait_for_launch(
        self, frame: int, t: float, seen: Sightings, rotor: RotorState, before: float
    ) -> list[Observation]:
        # After a spin the ball must first have left the track (at rest, or picked up).
        if not self._armed:
            return []
        pts = self._launch_run(t, seen, rotor, before)
        return [] if pts is None else self._launch(pts, frame, t)

    def _launch_run(
        self, t: float, seen: Sightings, rotor: RotorState, before: float
    ) -> list[_TrackPoint] | None:
        """The sightings of a launch, if this frame's makes one."""
        ball = seen.track if seen.track is not None else seen.faint
        if ball is None or ball.rho <= _TRACK_RHO:
            self._faint_run.clear()
            return None
        point, *others = (
            _TrackPoint(t, b.theta, b.rho, rotor.zero, rotor.speed, before)
            for b in (ball, *seen.others)
            if b.rho > _TRACK_RHO
        )
        # A hand holding still on the track, or its trace in the still picture, can
        # outshine the faint ball for a second after it let it go (motion_blur 85042 at
        # 25 fps: found 1.3 s late, refused for too few turns): beside a hand, the next
        # best spots may be the ball.
        spots = (point, *others) if self._by_a_hand([point, *others]) else (point,)
        run = self._faint_run
        if run and run[-1][0].t != before:
            run.clear()
        run.append(spots)
        # Only the best: the run alone proves the ball among the others (`_seen_before`
        # followed back through them counts turns through noise: shake 86019, 0.59 turns
        # before its release).
        self._idle_spots.append(point)
        pts: list[_TrackPoint] | None = None
        if seen.track is not None:
            c = self._candidates
            if c and t - c[-1].t > 0.25:
                c.clear()
            c.append(point)
            self._recent.append(point)
            if len(c) >= _LAUNCH_SIGHTINGS and _launches(list(c)[-_LAUNCH_SIGHTINGS:]):
                pts = list(c)[-_LAUNCH_SIGHTINGS:]
        if pts is None and len(run) == _FAINT_RUN:
            pts = _steady_run(list(run))
        return pts

    def _by_a_hand(self, spots: list[_TrackPoint]) -> bool:
        """Is one of this frame's spots where something held still (seen twice at one
        angle and radius) lately?"""
        since = spots[0].t - _HAND_SECONDS
        lately = list(itertools.takewhile(lambda q: q.t >= since, reversed(self._idle_spots)))
        return any(sum(1 for q in lately if _same_place(q, p)) >= 2 for p in spots)

    def _launch(self, pts: list[_TrackPoint], frame: int, t: float) -> list[Observation]:
        self.spin += 1
        self._reset_spin()
        self._launch_t = t
        self._theta = pts[0].theta
        self._start_theta = self._theta - _seen_before(list(self._idle_spots), pts)
        self._theta_t = pts[0].t
        for p in pts[1:]:
            self._advance(p.theta, p.t)
        self._track_rhos = [p.rho for p in pts]
        self._release_pocket = _release_pocket(list(self._recent), pts)
        self._last_seen = t
        self._candidates.clear()
        self._faint_run.clear()
        self.phase = Phase.IDLE
        return self._to(Phase.LAUNCHED, frame, t)

    def _unlaunch(self, frame: int, t: float) -> list[Observation]:
        """What launched was no ball; the next launch keeps the spin's number."""
        self.spin -= 1
        self._armed = True
        return self._to(Phase.IDLE, frame, t)

    def _follow_on_rotor(self, seen: Sightings, rotor: RotorState, t: float) -> BallSighting | None:
        """The brightest candidate on the rotor where the ball could have got to since last seen.

        What the rotor's picture leaves of white numbers and glinting frets can look like
        a ball too; the ball is the one that came down from the track and moved on from there.
        """
        if rotor.zero is None:
            return None
        if self._phi is None:
            self._phi = wrap(self._theta - rotor.zero)
            self._phi_t = self._theta_t
        zero, phi, dt = rotor.zero, self._phi, t - self._phi_t
        reach = math.radians(45) + math.radians(_MAX_HOP_DEG_PER_S) * dt
        near = [
            b
            for b in seen.rotor
            if abs(wrap(b.theta - zero - phi)) <= reach and not self._is_ghost(b, self._drop_t)
        ]
        # The ball outshines what is left of the rotor's own markings.
        best = max(near, key=lambda b: b.contrast, default=None)
        if best is None:
            return None
        self._phi, self._phi_t = wrap(best.theta - zero), t
        return best

    def _still_there(self, seen: Sightings, rotor: RotorState) -> BallSighting | None:
        """The faint spot where the ball rests, when nothing brighter is where it could be."""
        ball, phi = seen.resting, self.resting_phi
        if ball is None or phi is None or rotor.zero is None:
            return None
        if abs(wrap(ball.theta - rotor.zero - phi)) > math.radians(self.p.rest_tolerance_deg):
            return None
        return ball

    def _remember_ghosts(self, seen: Sightings, t: float) -> None:
        ghosts = self._ghosts
        ghosts.extend((t, b) for b in (*seen.rotor, *seen.others))
        while ghosts and t - ghosts[0][0] > _GHOST_SECONDS:
            ghosts.popleft()

    def _is_ghost(self, spot: BallSighting, t: float) -> bool:
        """Was this spot seen in this place in two frames while the ball was on the track,
        the ball elsewhere? Then it is no ball falling, nor flying off: a reflection that
        stays in the picture while the rotor turns under it (chrome 85003 and 86045 at 25
        fps: a drop seen at 2.6 turns), or a mark of the bowl."""
        seen = [
            (gt, g.contrast)
            for gt, g in self._ghosts
            if t - gt <= _GHOST_SECONDS
            and abs(wrap(g.theta - spot.theta)) <= _GHOST_RAD
            and abs(g.rho - spot.rho) <= _GHOST_RHO
        ]
        # The ball falling right there outshines the reflection (motion_blur 85043: a
        # reflection at 13 to 25 grey levels, the ball on it at 49 to 74).
        return len({gt for gt, _ in seen}) >= 2 and spot.contrast <= _GHOST_GAIN * max(
            c for _, c in seen
        )

    def _follows_track(self, ball: BallSighting, t: float) -> bool:
        """Is this sighting where the ball on the track can be now (or just fallen from it)?"""
        dt = t - self._theta_t
        step = abs(self._speed * dt)
        miss = abs(wrap(ball.theta - self._theta - self._speed * dt))
        if ball.rho > _TRACK_RHO:
            usual = self._usual_track_rho()
            if usual is not None and ball.rho > usual + _LEAVING_RHO:
                # Flying off the wheel it goes outwards more than round: it can lag its
                # prediction by up to a whole step. A ball just seen coming down onto
                # the rotor, or below its track on the way there, is not flying off from
                # the track (shake 85028, on a fret: seen at 1.02 rotor radii, then a spot
                # on the bowl at 1.71 was taken for it, refused `ball_left_wheel`).
                falling = self._drop_votes or self._last_rho < usual - _LEAVING_RHO
                return not falling and miss < math.radians(30) + step
            return self._goes_on(ball, t)
        # A ball drops only once it has lost much of its launch speed, and straight from
        # where it was just seen (a ball lost for a while could be anywhere); one last seen
        # flying outwards past its track is leaving the wheel, whatever shows on the rotor.
        # Nor faster than a ball comes down from where it was last on its track (chrome
        # 97002, valid: a faint ball over the bowl lost at 1.43 rotor radii, a glint on
        # the rotor's rim at 1.02 in the next frame taken for it coming down, dropped
        # 0.9 s and 1.4 turns early).
        fell = self._track_rhos[-1] - ball.rho if self._track_rhos else 0.0
        return (
            not self._leaving
            and t - self._last_going_round() <= _DROP_GAP_SECONDS
            and miss < math.radians(70)
            and abs(self._speed) < 0.6 * self._peak_speed
            and fell <= _MAX_FALL_SPEED * dt + _LAUNCH_RHO_SPREAD
        )

    def _hopped_on(self, spot: BallSighting, t: float, rotor: RotorState) -> bool:
        """Is this spot on the rotor where the ball, just seen coming down onto it, can
        have hopped to since? Down there it is carried by the rotor and hops, no longer on
        its track's course (studio 97000, valid: seen coming down twice, then unseen in
        the air for 0.27 s and seen again on the rotor 150 deg from where the track would
        have taken it; never a third sighting to drop it, refused `ball_lost`)."""
        if self._down is None or rotor.zero is None or self._leaving:
            return False
        down_t, phi = self._down
        dt = t - down_t
        reach = math.radians(_MAX_HOP_DEG_PER_S) * dt
        return dt <= _DROP_GAP_SECONDS and abs(wrap(spot.theta - rotor.zero - phi)) <= reach

    def _last_going_round(self) -> float:
        """When the ball was last seen going round: followed, or as the later of two
        sightings after a gap that go round steadily its way, held until a third confirms
        them (`_goes_on`). A slow ball fading over a chrome bowl is found again only as it
        comes down, in two frames on its way to the rotor: its drop is taken from there
        (chrome 94020, valid: unseen for 0.57 s, then seen at 1.17 and 1.09 rotor radii
        and on the rotor 0.63 s after it was last followed; refused `ball_lost`)."""
        if len(self._held) >= 2:
            return max(self._last_seen, self._held[-1][0])
        return self._last_seen

    def _still_up(self, spot: BallSighting | None, down: BallSighting, t: float) -> bool:
        """Is this spot, at or beyond the ball's usual track where its course puts it and
        brighter than `down` on the rotor, the ball still up there? It leaves its track
        inwards to drop, outwards to fly off: seen so, `down` is not it dropping (plain
        89002 and wood 87045, the ball left the wheel: as it flew out, a faint glint on
        the rotor 7 and 33 deg away was taken for its drop, and the ball was no longer
        followed outwards; refused `ball_lost` and `camera_fault`). A fainter spot out
        there is not (shake 70006: a spot by the bowl's rim as the ball came down)."""
        usual = self._usual_track_rho()
        if spot is None or usual is None or spot.rho < usual or spot.contrast <= down.contrast:
            return False
        step = abs(self._speed * (t - self._theta_t))
        return abs(wrap(spot.theta - self._theta)) < math.radians(30) + step

    def _window(self, dt: float) -> tuple[float, float]:
        """How far (rad, the ball's way) the ball on the track can have gone in `dt`:
        no faster than it went, slowing down no harder than `_MAX_DECEL`. Never less
        than half its step: a spot that stays put is not the ball going round."""
        v = abs(self._speed)
        slowest = max(0.0, v - _MAX_DECEL * dt) * dt * (1 - _SPEED_SLACK)
        return slowest - min(_ANGLE_SLACK, 0.5 * v * dt), v * dt * (1 + _SPEED_SLACK) + _ANGLE_SLACK

    def _goes_on(self, ball: BallSighting, t: float) -> bool:
        """Is this track sighting the ball going on round, having only slowed down?

        Right after the last sighting the window of places it can be in is narrow, and
        a sighting in it is the ball. After a gap the window is wide (the ball may have
        gone round unseen, once or more), and a spot in it proves nothing: the ball is
        found again only when three sightings go round its way at one steady speed, no
        faster than it went before (`_steady`), and the turns it made unseen are then
        counted at least (`_bridge`).
        """
        dt = t - self._theta_t
        sense = 1.0 if self._speed >= 0 else -1.0
        lo, hi = self._window(dt)
        if dt > 0 and hi - lo <= _DIRECT_WINDOW:
            predicted = self._speed * dt
            along = sense * (wrap(ball.theta - self._theta - predicted) + predicted)
            if lo <= along <= hi:
                self._held.clear()
                return True
        run = [(ht, h) for ht, h in self._held if t - ht <= _PAIR_SECONDS] + [(t, ball)]
        while len(run) > 1 and not self._steady(run):
            del run[0]
        self._held = run[-(_LAUNCH_SIGHTINGS - 1) :]
        if len(run) < _LAUNCH_SIGHTINGS or not self._bridge(run):
            return False
        self._held.clear()
        return True

    def _faint_goes_on(self, ball: BallSighting, t: float) -> bool:
        """Is this faint spot the ball going on round? Only where its course puts it
        now, on its track: right after the last sighting, in a narrow window; never
        once it was last seen flying off past its track (shake 85017: a faint spot of
        noise in the window, 5 frames after the ball was seen leaving, held it on the
        track until it was lost), nor once it was last seen off the rotor below its
        track: spiralling down, it does not climb back (sensor_noise 85028: a faint spot
        of noise on the track in the window, the ball seen down to 1.02 rotor radii and
        then on the rotor, added 0.07 turns it never made). Not a spot on the rotor
        alone: a glint taken for the ball dropping (chrome 85003) must not lose it."""
        if self._leaving or self._below_track(self._track_rhos[-1]):
            return False
        usual = self._usual_track_rho()
        track = usual if usual is not None else float(np.median(self._track_rhos))
        if ball.rho <= _TRACK_RHO or abs(ball.rho - track) > _LAUNCH_RHO_SPREAD:
            return False
        dt = t - self._theta_t
        lo, hi = self._window(dt)
        if dt <= 0 or hi - lo > _DIRECT_WINDOW:
            return False
        predicted = self._speed * dt
        sense = 1.0 if self._speed >= 0 else -1.0
        along = sense * (wrap(ball.theta - self._theta - predicted) + predicted)
        return lo <= along <= hi

    def _found_in_a_run(self, spot: BallSighting, t: float, before: float) -> bool:
        """After a gap, is this spot the last of `_FAINT_RUN` sightings, one a frame,
        that go round as the ball does? Then its course is joined to them (`_bridge`)."""
        run = self._faint_held
        if run and run[-1][0] != before:
            run.clear()
        if spot.rho <= _TRACK_RHO:
            run.clear()
            return False
        run.append((t, spot))
        del run[:-_FAINT_RUN]
        if len(run) < _FAINT_RUN or not self._steady(run) or not self._bridge(run):
            return False
        run.clear()
        self._held.clear()
        return True

    def _steady(self, run: list[tuple[float, BallSighting]]) -> bool:
        """Sightings that go round the ball's way at one speed, no faster than it went,
        along one track."""
        sense = 1.0 if self._speed >= 0 else -1.0
        speeds = []
        for (ta, a), (tb, b) in itertools.pairwise(run):
            moved = sense * wrap(b.theta - a.theta)
            if tb <= ta or moved <= 0 or moved > self._window(tb - ta)[1]:
                return False
            speeds.append(moved / (tb - ta))
        rhos = [b.rho for _, b in run]
        return max(rhos) - min(rhos) <= _LAUNCH_RHO_SPREAD and max(
            speeds, default=0.0
        ) <= _LAUNCH_SPEED_RATIO * min(speeds, default=0.0)

    def _bridge(self, run: list[tuple[float, BallSighting]]) -> bool:
        """Join the ball's course to a run of sightings after a gap, if it can be.

        The ball only slows down: in the gap it went at least as fast as the run shows
        it going now, so it went round at least that speed times the gap. Of the turns
        the angles allow, the fewest at least that far are counted, never more (a gap
        short enough for the speeds before and after to leave one count gets that one).
        More than it can have gone at its speed before the gap: not the ball.
        """
        sense = 1.0 if self._speed >= 0 else -1.0
        (t0, first), (t2, _) = run[0], run[-1]
        span = sense * sum(wrap(b.theta - a.theta) for (_, a), (_, b) in itertools.pairwise(run))
        now = max(0.0, span - _ANGLE_SLACK) / (t2 - t0)  # rad/s, at least
        gap = t0 - self._theta_t
        if gap <= 0:
            return False
        seen = (sense * (first.theta - self._theta)) % (2 * math.pi)
        went = _fewest_turns(seen, min(now, abs(self._speed)) * gap)
        if went > self._window(gap)[1]:
            return False
        self._move(sense * went, t0)
        for tb, b in run[1:-1]:
            self._advance(b.theta, tb)
        return True

    def _below_track(self, rho: float) -> bool:
        usual = self._usual_track_rho()
        return usual is not None and rho < usual - _LEAVING_RHO

    def _usual_track_rho(self) -> float | None:
        return float(np.median(self._track_rhos)) if len(self._track_rhos) >= 5 else None

    def _advance(
        self, theta: float, t: float, on_track: bool = True, keep_speed: bool = False
    ) -> None:
        dt = max(1e-6, t - self._theta_t)
        predicted = self._speed * dt
        self._move(wrap(theta - self._theta - predicted) + predicted, t, on_track, keep_speed)

    def _move(self, step: float, t: float, on_track: bool = True, keep_speed: bool = False) -> None:
        """The ball went `step` (rad, unwrapped) since it was last seen; those are turns
        on the track only while it is there, not once it spirals down to the rotor.

        A faint spot's angle (`keep_speed`) says where the ball is, but its step is no
        measure of its speed: a faint spot of noise 5 deg behind the ball, in the window
        where its course put it, slowed its speed by an eighth, and the ball seen again
        5 frames later lay just past where it could be (motion_blur 92024, valid, 60 fps:
        never found again, refused `ball_lost` at 0.85 of 6.32 turns)."""
        dt = max(1e-6, t - self._theta_t)
        if not keep_speed:
            self._speed = 0.5 * self._speed + 0.5 * step / dt if self._speed else step / dt
        self._theta += step
        self._theta_t = t
        self._path.append((t, self._theta))
        self._peak_speed = max(self._peak_speed, abs(self._speed))
        travelled = self._theta - self._start_theta
        if on_track:
            self._revolutions = abs(travelled) / (2 * math.pi)
        self._ball_dir = int(np.sign(travelled))

    def _on_track(
        self, frame: int, t: float, rotor: RotorState, ball: BallSighting, faint: bool
    ) -> list[Observation]:
        """The ball seen on the track, or falling from it; a `faint` spot where its course
        puts it moves it there, but leaves its speed as it was (`_move`)."""
        out: list[Observation] = []
        if ball.rho > _TRACK_RHO:
            self._drop_votes, self._down = 0, None
            usual = self._usual_track_rho()
            if usual is not None and ball.rho > usual + _LEAVING_RHO:
                # Flying off, the ball moves on from frame to frame; what stays put out
                # there is a hand's trace or a reflection (chrome 86008: a spot held at
                # 1.42 rotor radii, taken for the ball leaving at 0.7 turns).
                # So is a mark of the bowl seen there while the ball went round (shake
                # 96028, valid: one the camera's shake lit up now and then, the best spot
                # off the rotor as the ball came down, taken for it flying off).
                still = (
                    self._left_at is not None and _held_still(self._left_at, ball)
                ) or self._is_ghost(ball, t)
                self._left_at = ball
                if still:
                    return out
                self._leaving += 1
                if self._leaving >= 2:
                    return self.void(
                        NoResultReason.BALL_LEFT_WHEEL,
                        f"ball at {ball.rho:.2f} rotor radii, track at {usual:.2f}",
                        frame,
                        t,
                    )
                return out
            self._leaving = 0
            # Seen below its track, it is coming down: its turns across the deflectors are
            # not the track's, and must not count towards `min_revolutions`.
            self._track_rhos.append(ball.rho)
            self._advance(ball.theta, t, not self._below_track(ball.rho), keep_speed=faint)
            slow = abs(self._speed) < 2 * math.pi * _MIN_TRACK_RPS
            self._stalled = self._stalled + 1 if slow else 0
            if self.phase is Phase.LAUNCHED and self._stalled >= _LAUNCH_SIGHTINGS:
                # A launched ball goes round; one that has stopped is a hand that reached
                # in, and waiting for it to time out would miss the ball launched meanwhile.
                return self._unlaunch(frame, t)
            # Half a turn, on the track or coming down, proves a launch (studio 85007, few
            # turns: found late, it went its last half turn below its track).
            went = abs(self._theta - self._start_theta) / (2 * math.pi)
            if self.phase is Phase.LAUNCHED and went >= 0.5:
                out += self._to(Phase.ON_TRACK, frame, t)
            if self._surely_same_way():
                return out + self.void(
                    NoResultReason.BALL_SAME_DIRECTION_AS_ROTOR,
                    "ball launched the way the rotor turns: " + self._turns_detail(),
                    frame,
                    t,
                )
            if self.phase is Phase.ON_TRACK and t - self._speed_t >= self.p.speed_report_seconds:
                speed = self._ball_speed(frame, t)
                if speed is not None:
                    self._speed_t = t
                    out.append(speed)
            return out
        # Only a ball seen going round can drop (a false launch times out instead).
        if ball.rho <= _ON_ROTOR_RHO and self.phase is Phase.ON_TRACK:
            self._drop_votes += 1
            if rotor.zero is not None:
                self._down = (t, wrap(ball.theta - rotor.zero))
        if self._drop_votes < 3:
            return out
        if self._revolutions < self.p.min_revolutions:
            return self.void(
                NoResultReason.TOO_FEW_REVOLUTIONS,
                f"{self._revolutions:.2f} revolutions, at least {self.p.min_revolutions:g} needed",
                frame,
                t,
            )
        if self._looks_same_way():
            # Never certain on the track: too little was seen to refuse the throw for it.
            return self.void(
                NoResultReason.DIRECTION_UNCLEAR,
                "ball and rotor seemed to turn the same way: " + self._turns_detail(),
                frame,
                t,
            )
        self._drop_t = t
        out += self._to(Phase.BOUNCING, frame, t)
        return out

    def _on_rotor(
        self,
        frame: int,
        t: float,
        rotor: RotorState,
        ball: BallSighting,
        rivals: tuple[BallSighting, ...],
        read_pocket: ReadPocket,
    ) -> list[Observation]:
        if rotor.zero is None or ball.rho > _TRACK_RHO:
            self._rest.clear()
            return self._to(Phase.BOUNCING, frame, t)
        phi = wrap(ball.theta - rotor.zero)
        self._low_rho = min(self._low_rho, ball.rho)
        tol = math.radians(self.p.rest_tolerance_deg)
        self._rest.append(
            _RestSample(
                frame,
                t,
                phi,
                ball.rho,
                ball.contrast,
                tuple((wrap(b.theta - rotor.zero), b.contrast) for b in rivals),
                None,
            )
        )
        # Keep the longest run of recent samples that all lie within the tolerance.
        low = high = 0.0
        keep = len(self._rest) - 1
        while keep > 0:
            d = wrap(self._rest[keep - 1].phi - phi)
            if max(high, d) - min(low, d) > tol:
                break
            low, high = min(low, d), max(high, d)
            keep -= 1
        del self._rest[:keep]
        run = self._rest
        still_for = t - run[0].t
        quick = min(self.p.quick_rest_seconds, self.p.rest_seconds)
        if len(run) < 3 or still_for < quick / 2:
            self._rest_announced = False
            return self._to(Phase.BOUNCING, frame, t)
        self._rest_announced = True
        out = self._to(Phase.AT_REST, frame, t)
        # The pocket is read only once the ball has stopped: the reading is not cheap.
        run[-1].reading = read_pocket(ball)
        if still_for < quick:
            return out
        settled = still_for >= self.p.rest_seconds
        coverage = len(run) / (run[-1].frame - run[0].frame + 1)
        if coverage < self.p.min_rest_coverage:
            if still_for < 4 * self.p.rest_seconds:
                return out
            seen = f"ball seen in only {coverage:.0%} of the frames while at rest"
            # Where it was seen, it may have been by a fret, as light as itself (sensor_noise
            # 85028, on a fret: seen in half the frames, each reading within 0.9 deg of it).
            fixed = [
                (s.reading, s.reading.fix)
                for s in run
                if s.reading is not None
                and s.reading.fix is not None
                and not s.reading.fix.by_disc
                and s.reading.score >= self.p.min_local_score
            ]
            if self._by_a_fret(fixed):
                return out + self.void(NoResultReason.BALL_ON_FRET, seen + ", by a fret", frame, t)
            return out + self.void(NoResultReason.BALL_LOST, seen, frame, t)
        verdict = self._judge(frame, t, rotor)
        # Still for a moment only, a ball near a fret may yet roll over it, and a doubt
        # may clear: both wait for the whole rest.
        if isinstance(verdict, _Reading):
            if settled or (
                verdict.from_fret >= self.p.quick_rest_margin * _POCKET and self._lying(run)
            ):
                self._armed = False
                return out + [verdict.result, *self._to(Phase.RESULT, frame, t)]
            return out
        if not settled:
            return out
        # A ball whose edges were clear in half the frames may be clear in more of them:
        # a refusal costs nobody time, so it waits as long as a ball seen in too few
        # frames does (studio 86003, valid: clear in 2 or 3 of 5, read 8 or refused).
        if verdict.unclear and still_for < 4 * self.p.rest_seconds:
            return out
        return out + self.void(verdict.reason, verdict.detail, frame, t)

    def _lying(self, run: list[_RestSample]) -> bool:
        """Lying in the pocket, not at the top of a hop: a ball in the air is seen further
        out than where it has lain (its angle hardly moves at the top of a hop in place)."""
        return max(s.rho for s in run) <= self._low_rho + self.p.quick_rest_rho

    def _judge(self, frame: int, t: float, rotor: RotorState) -> _Refusal | _Reading:
        """The pocket under the resting ball, if every independent reading agrees on it."""
        run = self._rest
        rest = run[0]
        if rotor.sure_for > 1.0:
            return _Refusal(
                NoResultReason.ROTOR_NOT_TRACKED,
                f"zero pocket not seen clearly for {rotor.sure_for:.1f} s",
            )
        contrast = float(np.median([s.contrast for s in run]))
        rival = self._steady_rival(run, contrast)
        if rival is not None:
            return _Refusal(
                NoResultReason.BALL_LOST,
                f"another ball-like spot rests {math.degrees(abs(rival)):.0f} deg from the ball",
            )
        readings = [s.reading for s in run if s.reading is not None]
        good = [r for r in readings if r.score >= self.p.min_local_score]
        if len(good) < max(2, len(readings) // 2 + 1):
            worst = min((r.score for r in readings), default=0.0)
            return _Refusal(
                NoResultReason.ROTOR_NOT_TRACKED,
                f"pocket pattern next to the ball unclear (score {worst:.2f})",
            )
        fixed = [(r, r.fix) for r in good if r.fix is not None and not r.fix.by_disc]
        if len(fixed) * 2 > len(good):
            return self._read_pocket(frame, t, rest, fixed, self.p.fret_margin)
        clear = f"ball's edges clear in only {len(fixed)} of {len(good)} frames at rest"
        # Too few to read a pocket from, but enough to say why it cannot be read: a
        # ball on a fret as light as itself shows its edges in few frames (low_contrast
        # 86025, on a fret: three of seven, each on the fret).
        if self._by_a_fret(fixed):
            return _Refusal(NoResultReason.BALL_ON_FRET, clear + ", by a fret", unclear=True)
        lost = _Refusal(NoResultReason.BALL_LOST, clear, unclear=True)
        # A ball placed by its whole disc where its edges were not clean (studio 86003,
        # valid: 2 of 27) is pulled towards its lit side: it reads a pocket only with a
        # wider margin from the frets, and anything short of a reading is still for want
        # of clear edges, which more frames may bring. It is the weaker evidence: one
        # clean reading that near a fret outweighs it.
        margin = self.p.disc_fret_margin * _POCKET
        placed = [(r, r.fix) for r in good if r.fix is not None]
        if len(placed) * 2 <= len(good) or any(
            c < margin for _, c in (_pocket_of(r, f) for r, f in fixed)
        ):
            return lost
        verdict = self._read_pocket(frame, t, rest, placed, self.p.disc_fret_margin)
        return verdict if isinstance(verdict, _Reading) else lost

    def _by_a_fret(self, fixed: list[tuple[PocketReading, BallFix]]) -> bool:
        """Do too few readings to read a pocket from say why: a ball by a fret?"""
        pockets = [_pocket_of(r, f) for r, f in fixed]
        return len(pockets) >= 2 and _near_fret(pockets) < self.p.fret_margin * _POCKET

    def _read_pocket(
        self,
        frame: int,
        t: float,
        rest: _RestSample,
        fixed: list[tuple[PocketReading, BallFix]],
        margin: float,
    ) -> _Refusal | _Reading:
        # Two estimates of where the ball sits on the rotor: against the zero followed
        # over the whole ring, and against the pattern right next to the ball.
        phi_ring = _mean_angle([wrap(f.theta - r.ring_zero) for r, f in fixed])
        phi_near = _mean_angle([wrap(f.theta - r.zero) for r, f in fixed])
        gap = abs(wrap(phi_ring - phi_near))
        if gap > self.p.max_estimate_gap * _POCKET:
            return _Refusal(
                NoResultReason.ROTOR_NOT_TRACKED,
                f"whole ring and pattern next to the ball differ by {math.degrees(gap):.1f} deg",
            )
        pockets = [_pocket_of(r, f) for r, f in fixed]
        indices = sorted({i % POCKET_COUNT for i, _ in pockets if i is not None})
        if len(indices) > 1:
            return _Refusal(
                NoResultReason.BALL_ON_FRET,
                "ball read in pockets " + " and ".join(str(POCKET_ORDER[i]) for i in indices),
            )
        # A ball bounded by both frets of its pocket (`BallFix.spread`) may lie anywhere
        # between them, by a fret for all it says: where other readings place it, they
        # tell how far from a fret it lies (motion_blur 88012, valid: three readings 3.9
        # to 4.2 deg from a fret, two bounded ones 0.8 deg, refused `ball_on_fret`), and
        # until two do, more frames may (motion_blur 89024, valid: bounded in four of
        # five, refused before its rest).
        placed = [p for p, (_, f) in zip(pockets, fixed, strict=True) if not f.spread]
        from_fret = _near_fret(placed if len(placed) >= 2 else pockets)
        if from_fret < margin * _POCKET:
            return _Refusal(
                NoResultReason.BALL_ON_FRET,
                f"ball {math.degrees(from_fret):.1f} deg from a fret in a third of the frames",
                unclear=len(placed) < 2,
            )
        # Every reading on the fret itself leaves none: refused by the margin above.
        number = POCKET_ORDER[indices[0]]
        colour = colour_of(number)
        seen = [r.colour for r, _ in fixed]
        others = [c for c in seen if c is not None and c != colour]
        if others or seen.count(colour) * 2 <= len(seen):
            return _Refusal(
                NoResultReason.ROTOR_NOT_TRACKED,
                f"pocket {number} is {colour} but the ring by the ball looks "
                + "/".join(c or "unclear" for c in seen),
            )
        score = min(r.score for r, _ in fixed)
        confidence = min(1.0, score) * min(1.0, from_fret / (_POCKET / 2) * 1.5)
        facts = self._facts(frame, t, rest)
        distance = (
            pockets_between(facts.release_pocket, number, facts.rotor_direction)
            if facts.release_pocket is not None and facts.rotor_direction is not None
            else None
        )
        return _Reading(SpinResult(facts, number, colour, confidence, distance), from_fret)

    def _steady_rival(self, run: list[_RestSample], contrast: float) -> float | None:
        """Another bright spot that stays put on the rotor beside the ball, if any.

        A white number or a fret that the rotor's picture does not explain looks like a
        second ball at rest; when there is one, which of them is the ball is not certain.
        """
        tol = 2 * math.radians(self.p.rest_tolerance_deg)
        last = run[-1]
        for phi, c in last.rivals:
            if c < self.p.rival_contrast * contrast:
                continue
            hits = sum(
                any(
                    abs(wrap(p - phi)) <= tol and q >= self.p.rival_contrast * contrast
                    for p, q in s.rivals
                )
                for s in run
            )
            if hits * 2 >= len(run):
                return wrap(phi - last.phi)
        return None


def _launches(pts: list[_TrackPoint]) -> bool:
    """Sightings that go round at a ball's speed, one way, steadily, along one track."""
    speeds = [
        wrap(b.theta - a.theta) / max(1e-6, b.t - a.t) / (2 * math.pi)
        for a, b in itertools.pairwise(pts)
    ]
    if not all(_MIN_TRACK_RPS <= abs(s) <= _MAX_TRACK_RPS for s in speeds):
        return False
    if len({int(np.sign(s)) for s in speeds}) != 1:
        return False
    # A launched ball slows down gently; a hand or sleeve leaving the bowl does not
    # move at one speed ...
    if max(abs(s) for s in speeds) > _LAUNCH_SPEED_RATIO * min(abs(s) for s in speeds):
        return False
    # ... and keeps to its track, where a hand moves in or out.
    return max(p.rho for p in pts) - min(p.rho for p in pts) <= _LAUNCH_RHO_SPREAD


def _steady_run(run: list[tuple[_TrackPoint, ...]]) -> list[_TrackPoint] | None:
    """One spot a frame, the best ones first, that `_launches`. What fails it early
    fails it whatever follows, so each frame's spots extend only the runs still steady."""
    runs = [[p] for p in run[0]]
    for spots in run[1:]:
        runs = [[*r, p] for r in runs for p in spots if _launches([*r, p])]
    return runs[0] if runs else None


def _mean_angle(angles: list[float]) -> float:
    ref = angles[0]
    return wrap(ref + float(np.mean([wrap(a - ref) for a in angles])))


def _near_fret(pockets: list[tuple[int | None, float]]) -> float:
    """How near a fret the readings put the ball in a third of them, and two at least:
    within the fret margin, it may lie on the fret.

    Not the median: the readings of a ball on a fret may split between the fret and a
    pocket beside it (a grey ball read from its lit side in some frames), and the median
    of such a split falls on either side of the margin. One stray reading among three is
    no split (low_contrast 85009, valid); a third is (low_contrast 90023 at 60 fps: read
    11 from the median of four readings 2.9 to 3.3 deg from the fret and four within 1 deg).
    """
    near = sorted(c for _, c in pockets)
    return near[min(len(near) - 1, max(1, (len(near) - 1) // 3))]


def _pocket_of(reading: PocketReading, fix: BallFix) -> tuple[int | None, float]:
    """The pocket one reading puts the ball in, and how far its centre is from a fret.

    A ball placed on the fret itself (its dim side covers it: `BallLocator`) is in
    neither pocket (None): it must not make the readings beside it disagree (studio 85040
    at 50 fps: six readings 2.9 to 4.1 deg into 25 and one on the fret, counted for 17,
    refused as read in two pockets).
    """
    phi = wrap(fix.theta - reading.zero)
    if fix.fret == fix.theta:
        return None, 0.0
    if fix.fret is not None:
        # The ball touches or covers a fret: the side of it that its centre is on decides.
        # How far it is from the fret: from the fret as seen, or from where the pattern
        # puts it, whichever is nearer. A fret smeared by a long shutter may be seen by
        # its bright end, up to a degree off (motion_blur 90044, on a fret: 1.4 to 1.9
        # deg from the frets seen, 0.6 to 0.9 deg from the boundary; read 20).
        fret = wrap(fix.fret - reading.zero)
        boundary = round(fret / _POCKET - 0.5)
        d = wrap(phi - fret)
        return (boundary if d < 0 else boundary + 1), min(abs(d), _from_fret(phi))
    # No fret seen by the ball (there may be one too faint to see): the boundaries are
    # where the pattern puts them; where frets do not show at all, by either zero.
    index = round(phi / _POCKET)
    if fix.frets_seen:
        return index, max(0.0, _from_fret(phi) - fix.spread)
    return index, min(_from_fret(phi), _from_fret(wrap(fix.theta - reading.ring_zero)))


def _from_fret(phi: float) -> float:
    return _POCKET / 2 - abs(phi - round(phi / _POCKET) * _POCKET)


def _release_pocket(recent: list[_TrackPoint], launch: list[_TrackPoint]) -> int | None:
    """The rotor's pocket (its number) under the ball when it was released, or None
    when the rotor was not yet followed.

    The ball leaves the croupier's fingers where the hand is (`_hand`): the release is
    when the ball, moved back along its path at its launch speed, was at the hand's
    angle, and the rotor is moved back to that moment at its own speed (the rotor's
    pocket at the hand's angle then). The hand can hide the ball for a few frames after
    it let go, so the first sighting alone would be late by as many frames, 1.5 to 5
    pockets each. Without a hand seen (it came from beyond the picture, or was no
    brighter than the bowl), the ball left it between the frame before its first
    sighting and that sighting: the middle of that interval is the best guess.
    """
    last = launch[-1]
    if last.rotor_zero is None:
        return None
    hand = _hand(recent, launch)
    # A sighting at the hand's angle is the ball still in it (or the hand itself).
    moving = [p for p in launch if hand is None or abs(wrap(p.theta - hand.theta)) > _STILL_RAD]
    if len(moving) < 2 or not math.isfinite(moving[0].before):
        return None
    first = moving[0]
    speed = sum(wrap(b.theta - a.theta) for a, b in itertools.pairwise(moving)) / (last.t - first.t)
    if speed == 0:
        return None
    seen_for, frame = last.t - first.t, first.t - first.before
    back = math.inf
    if hand is not None:
        ahead = ((last.theta - hand.theta) * math.copysign(1.0, speed)) % (2 * math.pi)
        back = ahead / abs(speed)
        if back < seen_for - frame:  # it went round once more before it was seen
            back += 2 * math.pi / abs(speed)
    if not seen_for - frame <= back <= _MAX_RELEASE_SECONDS:
        # No hand, or not the one that let the ball go: the ball was not there that
        # soon before its first sighting.
        back = seen_for + frame / 2
    phi = (last.theta - speed * back) - (last.rotor_zero - last.rotor_speed * back)
    return POCKET_ORDER[round(wrap(phi) / _POCKET) % POCKET_COUNT]


def _seen_before(spots: list[_TrackPoint], launch: list[_TrackPoint]) -> float:
    """How far (rad, the ball's way) the ball was seen going before the sightings that
    launched it.

    A faint fast ball is found only by a run of sightings, and a hand or its trace in the
    still picture can outshine it for a second first (studio 85042 at 25 fps: found 2 turns
    late, refused for too few). Its spots before that run are followed back, each where
    the ball, no slower then than the run shows it, can have been a frame or two earlier;
    a spot elsewhere (the hand) is passed over. A gap that leaves a wide window is
    crossed only to a run of spots before it that goes round steadily, no slower than the
    ball went after it, counting the fewest turns the speeds allow (`_bridge_back`);
    anything else ends it.
    """
    first, last = launch[0], launch[-1]
    span = sum(wrap(b.theta - a.theta) for a, b in itertools.pairwise(launch))
    if last.t <= first.t or span == 0:
        return 0.0
    sense = math.copysign(1.0, span)
    v = abs(span) / (last.t - first.t)
    track = float(np.median([p.rho for p in launch]))
    earlier = [
        p
        for p in reversed(spots)
        if abs(p.rho - track) <= _LAUNCH_RHO_SPREAD and not _held_there(p, spots)
    ]
    back, cur = 0.0, first
    followed = [(first.t, 0.0)]  # each spot followed back: its time, how far back it was
    i = 0
    while i < len(earlier):
        p = earlier[i]
        i += 1
        dt = cur.t - p.t
        if dt <= 0:
            continue
        lo = v * dt * (1 - _SPEED_SLACK) - min(_ANGLE_SLACK, 0.5 * v * dt)
        hi = (v + _MAX_DECEL * dt) * dt * (1 + _SPEED_SLACK) + _ANGLE_SLACK
        went = (sense * (cur.theta - p.theta)) % (2 * math.pi)
        if hi - lo > _DIRECT_WINDOW:
            bridged = _bridge_back(cur, earlier[i - 1 : i + _LAUNCH_SIGHTINGS - 1], sense, v)
            if bridged is None:
                break
            went, v = bridged
        elif not lo <= went <= hi:
            continue
        back += went
        cur = p
        followed.append((p.t, back))
        # Earlier, the ball went faster than at its launch's sightings: the speed
        # over the spots just followed (motion_blur 89037, valid: followed back at
        # the launch's 0.93 rev/s, the ball at 1.5 rev/s fell out of the window).
        later = next((f for f in reversed(followed) if f[0] - p.t >= _BACK_SPEED_SPAN), None)
        if later is not None:
            v = max(v, (back - later[1]) / (later[0] - p.t))
    return sense * back


def _fewest_turns(seen: float, least: float) -> float:
    """How far (rad) the ball went across a gap where it was `seen` (rad, 0 to a turn)
    further round and went at least `least`: the fewest whole turns more that reach it."""
    return seen + 2 * math.pi * max(0, math.ceil((least - seen) / (2 * math.pi)))


def _bridge_back(
    cur: _TrackPoint, run: list[_TrackPoint], sense: float, v: float
) -> tuple[float, float] | None:
    """Across a gap back from `cur` (the ball then going `v` rad/s) to `run`, spots before
    it latest first: how far the ball went from the first of them to `cur`, and its speed
    there; None unless they go round its way steadily, each within `_PAIR_SECONDS` of the
    next, no slower than `v` (it only slows down) and not so much faster that it could
    not have slowed to `v` in the gap.

    In the gap it went at least `v` times the gap: of the turns the angles allow, the
    fewest at least that far (`SpinTracker._bridge`, backwards; motion_blur 88001, valid:
    seen in runs of two to five frames with gaps of up to 0.36 s between, found going
    round only at 4 s, 1.42 of 5.70 turns counted)."""
    if len(run) < _LAUNCH_SIGHTINGS or max(p.rho for p in run) - min(p.rho for p in run) > (
        _LAUNCH_RHO_SPREAD
    ):
        return None
    speeds = []
    for later, before in itertools.pairwise(run):
        dt = later.t - before.t
        moved = sense * wrap(later.theta - before.theta)
        if not 0 < dt <= _PAIR_SECONDS or moved <= 0:
            return None
        speeds.append(moved / dt)
    now = sum(speeds) / len(speeds)
    if max(speeds) > _LAUNCH_SPEED_RATIO * min(speeds) or now < v * (1 - _SPEED_SLACK):
        return None
    gap = cur.t - run[0].t
    if now > v + _MAX_DECEL * gap or now > 2 * math.pi * _MAX_TRACK_RPS:
        return None
    seen = (sense * (cur.theta - run[0].theta)) % (2 * math.pi)
    went = _fewest_turns(seen, v * gap)
    if went > now * gap * (1 + _SPEED_SLACK) + _ANGLE_SLACK:
        return None
    return went, max(v, now)


def _held_still(a: BallSighting, b: BallSighting) -> bool:
    return abs(wrap(b.theta - a.theta)) <= _STILL_SPOT_RAD and abs(b.rho - a.rho) <= _STILL_SPOT_RHO


def _held_there(p: _TrackPoint, spots: list[_TrackPoint]) -> bool:
    """Is something seen at `p`'s place again sooner than the fastest ball goes round?
    Then it held still there (a hand, or a mark of the bowl the camera's shake lights
    up now and then): not the ball."""
    return any(0 < abs(q.t - p.t) < 1 / _MAX_TRACK_RPS and _same_place(q, p) for q in spots)


def _same_place(p: _TrackPoint, q: _TrackPoint) -> bool:
    return abs(wrap(q.theta - p.theta)) <= _STILL_RAD and abs(q.rho - p.rho) <= _LAUNCH_RHO_SPREAD


def _hand(recent: list[_TrackPoint], launch: list[_TrackPoint]) -> _TrackPoint | None:
    """The last sighting before the launch of the hand that launched the ball:
    something that held still on the track (seen twice at one angle and radius),
    or that reached in from beyond the ball's track (an arm)."""
    last = launch[-1]
    track = float(np.median([p.rho for p in launch]))
    before = [p for p in recent if launch[0].t - _HAND_SECONDS <= p.t < last.t]
    for i in range(len(before) - 1, -1, -1):
        p = before[i]
        if p.rho > track + _HAND_RHO or any(_same_place(q, p) for q in before[:i]):
            return p
    return None

"""Frames of one synthetic spin, with the ground truth they were drawn from."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.pockets import colour_of
from vision.render.camera_effects import (
    CameraShake,
    apply_light,
    apply_shot_noise,
    light_map,
    shot_patterns,
)
from vision.render.look import WheelLook, random_look
from vision.render.looks import dressed
from vision.render.motion import Scenario, SpinMotion, random_motion
from vision.render.scene import (
    Canvas,
    Image,
    ball_sprite,
    draw_bowl,
    draw_hand,
    draw_rotor,
    stamp,
)
from vision.render.textures import add_chrome, add_wood, glare_map, photo_texture

_HAND_BEFORE, _HAND_AFTER = 0.6, 0.5


@dataclass(frozen=True)
class SpinTruth:
    """What happened in the rendered spin; tests and benchmarks compare the detector with this."""

    seed: int
    scenario: str
    number: int | None
    colour: str | None
    reason: str | None  # the expected no-result reason, None when a number is expected
    rest_frame: int | None
    rest_time: float | None
    launch_frame: int
    release_pocket: int  # the rotor's pocket under the ball when it left the hand
    landing_distance: int | None  # pockets from it to the number, the way the rotor turns
    revolutions: float
    ball_direction: str
    rotor_direction: str
    rotor_rpm: float
    fps: float
    frame_count: int
    width: int
    height: int
    look: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _direction(sign: int) -> str:
    return "clockwise" if sign > 0 else "counterclockwise"


def camera_homography(look: WheelLook, canvas: Canvas) -> npt.NDArray[np.float64]:
    """Canvas pixels to image pixels for a camera tilted by `tilt_deg` and turned by `yaw_deg`."""
    tau, psi, dist = math.radians(look.tilt_deg), math.radians(look.yaw_deg), look.camera_distance
    # Keep the near side of a tilted wheel inside the frame.
    radius_px = look.wheel_fill * min(look.width, look.height) / 2 / (1 + math.sin(tau) / dist)
    f = radius_px * dist
    cx = look.width / 2 + look.offset_x * look.width
    cy = look.height / 2 + look.offset_y * look.height
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])
    cam = np.array(
        [[1, 0, 0], [0, math.cos(tau), -math.sin(tau)], [0, math.sin(tau), math.cos(tau)]]
    )
    yaw = np.array(
        [[math.cos(psi), -math.sin(psi), 0], [math.sin(psi), math.cos(psi), 0], [0, 0, 1]]
    )
    m = cam @ yaw
    world = k @ np.column_stack([m[:, 0], m[:, 1], [0, 0, dist]])
    s = 1 / canvas.scale
    to_world = np.array([[s, 0, -canvas.size / 2 * s], [0, s, -canvas.size / 2 * s], [0, 0, 1]])
    out: npt.NDArray[np.float64] = world @ to_world
    return out


class SpinRenderer:
    def __init__(self, seed: int, look: WheelLook, motion: SpinMotion) -> None:
        self.seed, self.look, self.motion = seed, look, motion
        self._rng = np.random.default_rng(seed + 1_000_003)
        wheel_px = look.wheel_fill * min(look.width, look.height) / 2
        size = int(np.clip(2 * 1.12 * wheel_px * 1.15, 256, 1400)) // 2 * 2
        self.canvas = Canvas(size)
        self.bowl = draw_bowl(self.canvas, look)
        self.rotor, self.rotor_mask = draw_rotor(self.canvas, look)
        self.fret_mask = cv2.inRange(self.rotor, np.array(look.fret) - 1, np.array(look.fret) + 1)
        # The real-world looks draw from a generator of their own, so that a plain look
        # draws what it always drew and a look changes nothing but the look.
        look_rng = np.random.default_rng(seed + 2_000_029)
        self._studio_lights = self._dress(look_rng)
        self._add_track_glare()
        self.homography = camera_homography(look, self.canvas)
        half = math.ceil(look.rotor_radius * self.canvas.scale) + 2
        c = size // 2
        self._crop = (c - half, c + half)
        self._crop_mask = self.rotor_mask[c - half : c + half, c - half : c + half]
        self._sprite = ball_sprite(look.ball_radius * self.canvas.scale, look.ball)
        self._tall_sprite = ball_sprite(look.ball_radius * 1.25 * self.canvas.scale, look.ball)
        self._noise: list[tuple[Image, Image]] = []
        for _ in range(6):
            n = np.rint(self._rng.normal(0, look.noise_sigma, (look.height, look.width, 3)))
            self._noise.append(
                (np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
            )
        self._flicker_phase = float(self._rng.uniform(0, 2 * math.pi))
        self._hand_angle = motion.launch_angle - motion.ball_dir * 0.15
        self.frame_count = math.ceil(motion.duration * look.fps)
        # Drawn up front so that any frame renders the same whatever order frames are asked in.
        self._noise_order = self._rng.integers(len(self._noise), size=max(1, self.frame_count))
        self.shake = (
            CameraShake(look, look_rng, self.frame_count)
            if look.shake_px or look.drift_px
            else None
        )
        self._light = light_map(look) if look.light_falloff else None
        self._shot = shot_patterns(look, look_rng) if look.shot_noise else []

    @property
    def truth(self) -> SpinTruth:
        m, look = self.motion, self.look
        number = m.winning_number
        rest = m.rest_time if math.isfinite(m.rest_time) else None
        reasons = {
            Scenario.VALID: None,
            Scenario.FEW_REVOLUTIONS: "too_few_revolutions",
            Scenario.SAME_DIRECTION: "ball_same_direction_as_rotor",
            Scenario.BALL_LEFT_WHEEL: "ball_left_wheel",
            Scenario.BALL_ON_FRET: "ball_on_fret",
        }
        return SpinTruth(
            seed=self.seed,
            scenario=m.scenario.value,
            number=number,
            colour=colour_of(number) if number is not None else None,
            reason=reasons[m.scenario],
            rest_frame=math.ceil(rest * look.fps) if rest is not None else None,
            rest_time=rest,
            launch_frame=math.ceil(m.launch_time * look.fps),
            release_pocket=m.release_pocket,
            landing_distance=m.landing_distance,
            revolutions=round(m.track_revolutions, 3),
            ball_direction=_direction(m.ball_dir),
            rotor_direction=_direction(m.rotor_dir),
            rotor_rpm=round(m.rotor_rps * 60, 2),
            fps=look.fps,
            frame_count=self.frame_count,
            width=look.width,
            height=look.height,
            look=look.as_dict(),
        )

    def _dress(self, rng: np.random.Generator) -> Image | None:
        """The look's real-world surfaces; returns the studio lights' glare, if any."""
        look, cv = self.look, self.canvas
        if look.photo_rotor:
            picture = photo_texture(look, rng, cv.size)
            self.bowl = picture.copy()
            self.rotor = np.where(self.rotor_mask[..., None], picture, 0).astype(np.uint8)
        elif look.wood_grain:
            add_wood(cv, look, self.bowl, self.rotor, self.fret_mask > 0, rng)
        if look.chrome:
            add_chrome(cv, look, self.bowl, rng)
        if not look.studio_lights:
            return None
        return glare_map(cv, rng, look.studio_lights, look.glare, (0.15, 0.95))

    def _add_track_glare(self) -> None:
        look, cv = self.look, self.canvas
        r = (look.track_inner + 0.935) / 2
        a = float(self._rng.uniform(0, 2 * math.pi))
        gx, gy = cv.polar(r, a)
        yy, xx = np.mgrid[0 : cv.size, 0 : cv.size].astype(np.float32)
        sigma = 0.08 * cv.scale
        glare = (
            np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma * sigma)) * 70 * look.highlight
        )
        self.bowl = np.clip(self.bowl + glare[..., None], 0, 255).astype(np.uint8)
        self._glare_centre = (gx, gy)

    def _draw_rotor(self, img: Image, angle: float, swept: float) -> None:
        lo, hi = self._crop
        side = hi - lo
        c = self.canvas.size / 2
        blur_px = abs(swept) * self.look.rotor_radius * self.canvas.scale
        steps = int(min(self.look.rotor_blur_steps, 1 + blur_px // 3))
        crop = self.rotor[lo:hi, lo:hi]
        rotor: Image | None = None
        for j in range(steps):
            a = angle - swept * j / max(1, steps - 1) if steps > 1 else angle
            rot = cv2.getRotationMatrix2D((c - lo, c - lo), -math.degrees(a), 1.0)
            warped = np.asarray(
                cv2.warpAffine(crop, rot, (side, side), flags=cv2.INTER_LINEAR), np.uint8
            )
            rotor = (
                warped
                if rotor is None
                else np.asarray(
                    cv2.addWeighted(rotor, j / (j + 1), warped, 1 / (j + 1), 0), np.uint8
                )
            )
        assert rotor is not None
        self._fret_highlights(rotor, angle)
        np.copyto(img[lo:hi, lo:hi], rotor, where=self._crop_mask[..., None])

    def _fret_highlights(self, rotor: Image, angle: float) -> None:
        """Studio lights glint on the frets and turret where they pass under a fixed spot."""
        lo, hi = self._crop
        side = hi - lo
        c = self.canvas.size / 2
        rot = cv2.getRotationMatrix2D((c - lo, c - lo), -math.degrees(angle), 1.0)
        metal = cv2.warpAffine(
            self.fret_mask[lo:hi, lo:hi], rot, (side, side), flags=cv2.INTER_NEAREST
        )
        gx, gy = self._glare_centre
        # The glint sits on the rotor on the same side as the track glare.
        d = math.hypot(gx - c, gy - c)
        r_px = self.look.rotor_radius * self.canvas.scale * 0.75
        hx, hy = c + (gx - c) / d * r_px - lo, c + (gy - c) / d * r_px - lo
        w = int(0.12 * self.canvas.scale)
        x0, x1 = max(0, int(hx - w)), min(side, int(hx + w))
        y0, y1 = max(0, int(hy - w)), min(side, int(hy + w))
        if x1 <= x0 or y1 <= y0:
            return
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = (
            np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (w / 2.5) ** 2))
            * 90
            * self.look.highlight
        )
        lit = rotor[y0:y1, x0:x1].astype(np.float32) + (spot * (metal[y0:y1, x0:x1] > 0))[..., None]
        rotor[y0:y1, x0:x1] = np.clip(lit, 0, 255).astype(np.uint8)

    def _draw_ball(self, img: Image, t: float) -> None:
        m, look = self.motion, self.look
        state = m.ball(t)
        if not state.visible:
            return
        shutter = look.exposure / look.fps
        tail = m.ball(t - shutter)
        span = math.hypot(
            state.radius * math.cos(state.angle) - tail.radius * math.cos(tail.angle),
            state.radius * math.sin(state.angle) - tail.radius * math.sin(tail.angle),
        )
        steps = int(min(12, 1 + span / (look.ball_radius * 0.5)))
        centres = []
        for j in range(steps):
            s = m.ball(t - shutter * j / max(1, steps - 1)) if steps > 1 else state
            if s.visible:
                centres.append(self.canvas.polar(s.radius, s.angle))
        if not centres:
            return
        colour, alpha = self._tall_sprite if state.height > 0.5 else self._sprite
        stamp(img, colour, alpha, centres)

    def _draw_hand(self, img: Image, t: float) -> None:
        m = self.motion
        start, end = m.launch_time - _HAND_BEFORE, m.launch_time + _HAND_AFTER
        if not start <= t <= end:
            return
        if t <= m.launch_time:
            u = (t - start) / _HAND_BEFORE
        else:
            u = 1 - (t - m.launch_time) / _HAND_AFTER
        far, near = 1.5, m.track_radius - 0.03
        reach = far + (near - far) * (3 * u * u - 2 * u**3)
        draw_hand(self.canvas, img, self.look, self._hand_angle, reach)

    def render(self, index: int) -> Image:
        look, m = self.look, self.motion
        t = index / look.fps
        img = self.bowl.copy()
        swept = m.rotor_angle(t) - m.rotor_angle(t - look.exposure / look.fps)
        self._draw_rotor(img, m.rotor_angle(t), swept)
        if self._studio_lights is not None:
            img = np.asarray(cv2.add(img, self._studio_lights), np.uint8)
        self._draw_ball(img, t)
        self._draw_hand(img, t)
        frame: Image = np.asarray(
            cv2.warpPerspective(
                img,
                self.homography if self.shake is None else self.shake.moved(self.homography, index),
                (look.width, look.height),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=look.table,
            ),
            np.uint8,
        )
        if self._light is not None:
            frame = apply_light(frame, self._light)
        gain = 1 + look.flicker * math.sin(2 * math.pi * look.flicker_hz * t + self._flicker_phase)
        up, down = self._noise[int(self._noise_order[index % len(self._noise_order)])]
        lit = cv2.convertScaleAbs(frame, alpha=gain)
        frame = np.asarray(cv2.subtract(cv2.add(lit, up), down), np.uint8)
        if self._shot:
            frame = apply_shot_noise(frame, look, self._shot[index % len(self._shot)])
        if look.jpeg_quality:
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
            if ok:
                frame = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
        return frame

    def frames(self, beyond: float = 0.0) -> Iterator[tuple[int, float, Image]]:
        """The spin's frames, then `beyond` seconds more of the same scene: a camera at
        the table does not stop when the spin's video would."""
        for i in range(self.frame_count + math.ceil(beyond * self.look.fps)):
            yield i, i / self.look.fps, self.render(i)


def make_spin(
    seed: int,
    scenario: Scenario | None = None,
    *,
    resolution: tuple[int, int] | None = None,
    fps: float | None = None,
    tail: float = 1.2,
    overrides: dict[str, Any] | None = None,
    rotor_rpm: float | None = None,
    dead_stop: bool = False,
    look_name: str = "plain",
) -> SpinRenderer:
    """A spin fully determined by `seed` and `look_name`; the scenario is drawn too unless given.

    The look's name (vision/render/looks.py) changes only how the spin looks: its wheel,
    throw and truth are the plain spin's of the same seed. `rotor_rpm` and `dead_stop`
    are `random_motion`'s (the spin otherwise the same).
    """
    rng = np.random.default_rng(seed)
    look = dressed(random_look(rng, resolution, fps), look_name, seed)
    if overrides:
        look = WheelLook(**{**look.as_dict(), **overrides})
    if scenario is None:
        options = list(Scenario)
        weights = np.array([0.6, 0.1, 0.1, 0.1, 0.1])
        scenario = options[int(rng.choice(len(options), p=weights))]
    motion = random_motion(
        rng,
        scenario,
        rotor_radius=look.rotor_radius,
        track_inner=look.track_inner,
        pocket_inner=look.pocket_inner,
        number_ring=look.number_ring,
        ball_radius=look.ball_radius,
        fret_width=look.fret_width,
        tail=tail,
        rotor_rpm=rotor_rpm,
        dead_stop=dead_stop,
    )
    return SpinRenderer(seed, look, motion)

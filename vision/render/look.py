"""How a rendered wheel looks and where the camera stands: knobs the detector must not rely on."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

BGR = tuple[int, int, int]

RESOLUTIONS: tuple[tuple[int, int], ...] = ((640, 480), (960, 540), (1280, 720), (1920, 1080))


@dataclass(frozen=True)
class WheelLook:
    width: int
    height: int
    fps: float
    # camera
    tilt_deg: float
    yaw_deg: float
    camera_distance: float  # in bowl radii: smaller means stronger perspective
    wheel_fill: float  # bowl radius over half the shorter image side
    offset_x: float  # wheel centre offset, fraction of image width
    offset_y: float
    # geometry, fractions of the bowl radius
    rotor_radius: float
    track_inner: float
    ball_radius: float
    number_ring: float  # inner edge of the number ring, fraction of the rotor radius
    pocket_inner: float  # inner edge of the pockets, fraction of the rotor radius
    fret_width: float  # degrees
    # colours
    table: BGR
    bowl: BGR
    track: BGR
    deflector: BGR
    rotor_rim: BGR
    red: BGR
    black: BGR
    green: BGR
    fret: BGR
    cone: BGR
    digit: BGR
    ball: BGR
    skin: BGR
    sleeve: BGR
    pocket_shade: float  # pockets are this much darker than the number ring
    # image degradations
    noise_sigma: float
    jpeg_quality: int  # 0 means no compression round-trip
    flicker: float
    flicker_hz: float
    # Fraction of the frame time the shutter is open; ball-tracking cameras use short ones.
    exposure: float
    highlight: float  # strength of specular highlights on metal and the ball track
    # Real-world looks (vision/render/looks.py). The defaults are the plain drawn wheel,
    # so a plain look renders exactly as before these knobs existed.
    name: str = "plain"
    wood_grain: float = 0.0  # contrast of wood grain on the bowl, the rotor's rim and cone
    chrome: float = 0.0  # how much of the bowl is polished metal reflecting the room (0-1)
    photo_rotor: bool = False  # rotor and bowl textured from a photo-like top-down picture
    rotor_glints: int = 0  # glare spots in that picture: they turn with the rotor
    studio_lights: int = 0  # glare spots fixed over the wheel: the rotor turns under them
    glare: float = 0.0  # peak grey levels added by a glint or a studio light
    pocket_lift: float = 0.0  # pocket floors mixed this much towards a light grey
    shake_px: float = 0.0  # camera jitter from frame to frame, standard deviation in pixels
    drift_px: float = 0.0  # slow camera drift, amplitude in pixels
    drift_seconds: float = 6.0  # the drift's period
    shot_noise: float = 0.0  # sensor noise that grows with brightness: its sigma at white
    rotor_blur_steps: int = 3  # at most this many rotor positions blended within the exposure
    light_falloff: float = 0.0  # uneven lighting: the far side gets this much less light
    light_angle_deg: float = 0.0  # where the light comes from, in the picture

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _jitter(rng: np.random.Generator, base: BGR, spread: int) -> BGR:
    b, g, r = (int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in base)
    return (b, g, r)


def random_look(
    rng: np.random.Generator,
    resolution: tuple[int, int] | None = None,
    fps: float | None = None,
) -> WheelLook:
    """A look drawn from the whole variation range (colours, geometry, camera, degradations)."""
    width, height = resolution or RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    woods: list[BGR] = [(30, 60, 110), (20, 40, 70), (50, 90, 150), (25, 30, 45), (70, 110, 160)]
    reds: list[BGR] = [(40, 30, 190), (50, 40, 160), (30, 20, 210), (60, 50, 170)]
    blacks: list[BGR] = [(25, 25, 25), (40, 38, 35), (15, 15, 20), (55, 50, 50)]
    greens: list[BGR] = [(50, 140, 20), (60, 120, 40), (40, 160, 60), (70, 110, 30)]
    tables: list[BGR] = [(40, 100, 30), (90, 60, 30), (30, 30, 120), (50, 50, 50), (80, 110, 40)]
    skins: list[BGR] = [(120, 150, 200), (90, 120, 170), (60, 80, 120), (150, 175, 215)]
    sleeves: list[BGR] = [(20, 20, 20), (235, 235, 235), (90, 40, 30), (40, 40, 110)]
    pick = rng.integers
    bowl = _jitter(rng, woods[int(pick(len(woods)))], 15)
    rotor_radius = float(rng.uniform(0.66, 0.76))
    return WheelLook(
        width=width,
        height=height,
        fps=float(fps if fps is not None else rng.choice([25.0, 30.0, 50.0, 60.0])),
        tilt_deg=float(rng.uniform(0.0, 35.0)),
        yaw_deg=float(rng.uniform(0.0, 360.0)),
        camera_distance=float(rng.uniform(3.5, 9.0)),
        wheel_fill=float(rng.uniform(0.72, 0.95)),
        offset_x=float(rng.uniform(-0.06, 0.06)),
        offset_y=float(rng.uniform(-0.04, 0.04)),
        rotor_radius=rotor_radius,
        track_inner=float(rng.uniform(rotor_radius + 0.1, 0.86)),
        ball_radius=float(rng.uniform(0.019, 0.03)),
        number_ring=float(rng.uniform(0.8, 0.86)),
        pocket_inner=float(rng.uniform(0.6, 0.68)),
        fret_width=float(rng.uniform(0.8, 1.8)),
        table=_jitter(rng, tables[int(pick(len(tables)))], 15),
        bowl=bowl,
        track=_jitter(
            rng, (min(bowl[0] + 40, 255), min(bowl[1] + 45, 255), min(bowl[2] + 40, 255)), 20
        ),
        deflector=_jitter(rng, bowl, 15),
        rotor_rim=_jitter(rng, woods[int(pick(len(woods)))], 15),
        red=_jitter(rng, reds[int(pick(len(reds)))], 12),
        black=_jitter(rng, blacks[int(pick(len(blacks)))], 8),
        green=_jitter(rng, greens[int(pick(len(greens)))], 15),
        fret=_jitter(rng, (190, 190, 195), 25),
        cone=_jitter(rng, woods[int(pick(len(woods)))], 15),
        digit=_jitter(rng, (235, 235, 235), 15),
        ball=_jitter(rng, (235, 238, 240), 15),
        skin=_jitter(rng, skins[int(pick(len(skins)))], 15),
        sleeve=sleeves[int(pick(len(sleeves)))],
        pocket_shade=float(rng.uniform(0.6, 1.0)),
        noise_sigma=float(rng.uniform(0.5, 4.0)),
        jpeg_quality=int(rng.choice([0, 60, 75, 90])),
        flicker=float(rng.uniform(0.0, 0.06)),
        flicker_hz=float(rng.uniform(0.5, 8.0)),
        exposure=float(rng.uniform(0.03, 0.2)),
        highlight=float(rng.uniform(0.3, 1.0)),
    )

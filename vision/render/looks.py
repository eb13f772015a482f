"""Named real-world looks: each turns a drawn wheel into one a real studio camera might see.

A named look starts from the spin's plain look (`random_look`: its colours, geometry and
camera) and sets the knobs of one real-world trouble, drawn from that look's own range
by a generator of its own. So spin `seed` in look "shake" is spin `seed` in look "plain"
(same wheel, same throw, same truth) with a shaking camera, and only the look differs.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.render.look import BGR, WheelLook

Dress = Callable[[WheelLook, np.random.Generator], WheelLook]


def _plain(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    return look


def _photo(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """The rotor and bowl textured from a photo-like top-down picture of a wheel."""
    return replace(
        look,
        photo_rotor=True,
        wood_grain=float(rng.uniform(0.5, 1.0)),
        rotor_glints=int(rng.integers(1, 4)),
        studio_lights=int(rng.integers(1, 3)),
        glare=float(rng.uniform(40, 90)),
    )


def _wood(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    return replace(look, wood_grain=float(rng.uniform(0.6, 1.0)))


def _chrome(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A metal bowl mirroring the room, and studio lamps mirrored over the rotor too."""
    return replace(
        look,
        chrome=float(rng.uniform(0.75, 1.0)),
        studio_lights=int(rng.integers(1, 3)),
        glare=float(rng.uniform(30, 70)),
    )


_IVORY: list[BGR] = [(190, 212, 222), (170, 172, 175), (160, 185, 200)]


def _low_contrast(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """An ivory or grey ball on light pocket floors: the ball stands out far less."""
    b, g, r = _IVORY[int(rng.integers(len(_IVORY)))]
    spread = rng.integers(-8, 9, 3)
    ball: BGR = (int(b + spread[0]), int(g + spread[1]), int(r + spread[2]))
    return replace(look, ball=ball, pocket_lift=float(rng.uniform(0.25, 0.45)))


def _shake(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A camera on a light mount: jitter from frame to frame and a slow drift."""
    scale = look.width / 640  # the same shake of the mount is more pixels in a finer picture
    return replace(
        look,
        shake_px=float(rng.uniform(0.4, 1.2)) * scale,
        drift_px=float(rng.uniform(2.0, 6.0)) * scale,
        drift_seconds=float(rng.uniform(3.0, 8.0)),
    )


def _sensor_noise(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A small sensor at high gain: strong noise that grows with the light."""
    return replace(
        look,
        noise_sigma=float(rng.uniform(4.0, 7.0)),
        shot_noise=float(rng.uniform(8.0, 16.0)),
    )


def _motion_blur(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A long shutter (an ordinary camera indoors): the ball a streak, the rotor smeared."""
    return replace(look, exposure=float(rng.uniform(0.4, 0.8)), rotor_blur_steps=8)


def _uneven_light(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """One lamp to a side: the far side of the picture in much less light."""
    return replace(
        look,
        light_falloff=float(rng.uniform(0.35, 0.6)),
        light_angle_deg=float(rng.uniform(0.0, 360.0)),
    )


def _studio(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """Several troubles at once, each milder: a photo-like wheel, shake, light, noise."""
    photo = _photo(look, rng)
    return replace(
        photo,
        shake_px=float(rng.uniform(0.2, 0.6)) * look.width / 640,
        drift_px=float(rng.uniform(1.0, 3.0)) * look.width / 640,
        drift_seconds=float(rng.uniform(4.0, 8.0)),
        light_falloff=float(rng.uniform(0.15, 0.35)),
        light_angle_deg=float(rng.uniform(0.0, 360.0)),
        shot_noise=float(rng.uniform(3.0, 8.0)),
        exposure=float(rng.uniform(0.2, 0.4)),
    )


LOOKS: dict[str, Dress] = {
    "plain": _plain,
    "photo": _photo,
    "wood": _wood,
    "chrome": _chrome,
    "low_contrast": _low_contrast,
    "shake": _shake,
    "sensor_noise": _sensor_noise,
    "motion_blur": _motion_blur,
    "uneven_light": _uneven_light,
    "studio": _studio,
}


class UnknownLook(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown look {name!r}; looks: {', '.join(LOOKS)}")
        self.name = name


def dressed(look: WheelLook, name: str, seed: int) -> WheelLook:
    """`look` in the named real-world look, its knobs drawn from `seed`."""
    if name not in LOOKS:
        raise UnknownLook(name)
    # A generator per (seed, look name): no look's draws move another's.
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    return replace(LOOKS[name](look, rng), name=name)

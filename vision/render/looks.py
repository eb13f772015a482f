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
from typing import Any

import numpy as np

from vision.render.look import BGR, WheelLook

Dress = Callable[[WheelLook, np.random.Generator], WheelLook]


def _plain(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    return look


def _drawn(rng: np.random.Generator, **ranges: tuple[float, float]) -> dict[str, Any]:
    """Each knob drawn from its range, in the order given: uniformly, or, for integer
    bounds, an integer from the lower bound up to (not including) the upper one."""
    out: dict[str, Any] = {}
    for knob, (lo, hi) in ranges.items():
        if isinstance(lo, int) and isinstance(hi, int):
            out[knob] = int(rng.integers(lo, hi))
        else:
            out[knob] = float(rng.uniform(lo, hi))
    return out


def _in_pixels(look: WheelLook, knobs: dict[str, Any]) -> dict[str, Any]:
    """Camera movements are drawn in pixels of a picture 640 wide: the same shake of the
    mount is more pixels in a finer picture."""
    scale = look.width / 640
    return {k: v * scale if k in ("shake_px", "drift_px") else v for k, v in knobs.items()}


def _photo(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """The rotor and bowl textured from a photo-like top-down picture of a wheel."""
    knobs = _drawn(rng, wood_grain=(0.5, 1.0), rotor_glints=(1, 4), studio_lights=(1, 3))
    return replace(look, photo_rotor=True, **knobs, **_drawn(rng, glare=(40.0, 90.0)))


def _wood(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    return replace(look, **_drawn(rng, wood_grain=(0.6, 1.0)))


def _chrome(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A metal bowl mirroring the room, and studio lamps mirrored over the rotor too."""
    return replace(
        look, **_drawn(rng, chrome=(0.75, 1.0), studio_lights=(1, 3), glare=(30.0, 70.0))
    )


_IVORY: list[BGR] = [(190, 212, 222), (170, 172, 175), (160, 185, 200)]


def _low_contrast(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """An ivory or grey ball on light pocket floors: the ball stands out far less."""
    b, g, r = _IVORY[int(rng.integers(len(_IVORY)))]
    spread = rng.integers(-8, 9, 3)
    ball: BGR = (int(b + spread[0]), int(g + spread[1]), int(r + spread[2]))
    return replace(look, ball=ball, **_drawn(rng, pocket_lift=(0.25, 0.45)))


def _shake(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A camera on a light mount: jitter from frame to frame and a slow drift."""
    knobs = _drawn(rng, shake_px=(0.4, 1.2), drift_px=(2.0, 6.0), drift_seconds=(3.0, 8.0))
    return replace(look, **_in_pixels(look, knobs))


def _sensor_noise(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A small sensor at high gain: strong noise that grows with the light."""
    return replace(look, **_drawn(rng, noise_sigma=(4.0, 7.0), shot_noise=(8.0, 16.0)))


def _motion_blur(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """A long shutter (an ordinary camera indoors): the ball a streak, the rotor smeared."""
    return replace(look, rotor_blur_steps=8, **_drawn(rng, exposure=(0.4, 0.8)))


def _uneven_light(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """One lamp to a side: the far side of the picture in much less light."""
    return replace(look, **_drawn(rng, light_falloff=(0.35, 0.6), light_angle_deg=(0.0, 360.0)))


def _studio(look: WheelLook, rng: np.random.Generator) -> WheelLook:
    """Several troubles at once, each milder: a photo-like wheel, shake, light, noise."""
    photo = _photo(look, rng)
    knobs = _drawn(
        rng,
        shake_px=(0.2, 0.6),
        drift_px=(1.0, 3.0),
        drift_seconds=(4.0, 8.0),
        light_falloff=(0.15, 0.35),
        light_angle_deg=(0.0, 360.0),
        shot_noise=(3.0, 8.0),
        exposure=(0.2, 0.4),
    )
    return replace(photo, **_in_pixels(look, knobs))


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

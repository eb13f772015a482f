"""What a real camera adds to the picture: shake, uneven light, noise that grows with light."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.render.look import WheelLook
from vision.render.scene import Image

Floats = npt.NDArray[np.float32]
_SHOT_PATTERNS = 4


class CameraShake:
    """The camera's offset at each frame: a slow drift plus an independent jitter per frame."""

    def __init__(self, look: WheelLook, rng: np.random.Generator, frame_count: int) -> None:
        self.look = look
        self._jitter = rng.normal(0.0, look.shake_px, (max(1, frame_count), 2))
        self._phase = rng.uniform(0, 2 * math.pi, 2)

    def offset(self, index: int) -> tuple[float, float]:
        """Pixels the picture is moved by at frame `index` (x right, y down)."""
        look = self.look
        w = 2 * math.pi * index / look.fps / look.drift_seconds
        # The two axes drift at different rates, so the wheel wanders rather than swings.
        dx = look.drift_px * math.sin(w + self._phase[0])
        dy = look.drift_px * math.sin(0.7 * w + self._phase[1])
        jx, jy = self._jitter[index % len(self._jitter)]
        return dx + float(jx), dy + float(jy)

    def moved(self, homography: npt.NDArray[np.float64], index: int) -> npt.NDArray[np.float64]:
        dx, dy = self.offset(index)
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
        out: npt.NDArray[np.float64] = shift @ homography
        return out


def light_map(look: WheelLook) -> Floats:
    """The gain of uneven lighting at each pixel: 1 where the light comes from, less away."""
    yy, xx = np.mgrid[0 : look.height, 0 : look.width].astype(np.float32)
    a = math.radians(look.light_angle_deg)
    # 0 at the picture's edge nearest the light, 1 at the opposite edge.
    reach = abs(math.cos(a)) * look.width / 2 + abs(math.sin(a)) * look.height / 2
    along = (xx - look.width / 2) * math.cos(a) + (yy - look.height / 2) * math.sin(a)
    away = (reach - along) / (2 * reach)
    out: Floats = (1.0 - look.light_falloff * away).astype(np.float32)
    return out


def shot_patterns(look: WheelLook, rng: np.random.Generator) -> list[npt.NDArray[np.float16]]:
    """Unit noise patterns; the frame's brightness scales them (a sensor's shot noise)."""
    shape = (look.height, look.width)
    return [rng.normal(0.0, 1.0, shape).astype(np.float16) for _ in range(_SHOT_PATTERNS)]


def apply_light(frame: Image, gain: Floats) -> Image:
    out: Image = np.clip(frame * gain[..., None], 0, 255).astype(np.uint8)
    return out


def apply_shot_noise(frame: Image, look: WheelLook, pattern: npt.NDArray[np.float16]) -> Image:
    level = frame.astype(np.float32)
    sigma = look.shot_noise * np.sqrt(level / 255.0)
    out: Image = np.clip(level + sigma * pattern[..., None], 0, 255).astype(np.uint8)
    return out

"""Real-world surfaces on the drawn wheel: wood grain, a chrome bowl, metallic frets, glare.

Everything here works on the top-down canvas (vision/render/scene.py) and is drawn once
per spin from its own generator, so a spin's frames stay a pure function of its seed.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.look import WheelLook
from vision.render.scene import Canvas, Image, draw_bowl, draw_rotor

Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]

# A photo of the wheel is taken once, at its own resolution, then used as a texture at
# whatever size the spin's canvas has, as a real picture would be.
PHOTO_SIZE = 1024


def _radius_angle(canvas: Canvas) -> tuple[Floats, Floats]:
    """Every canvas pixel's distance from the centre (bowl radii) and angle (radians)."""
    yy, xx = np.mgrid[0 : canvas.size, 0 : canvas.size].astype(np.float32)
    x = (xx - canvas.size / 2) / canvas.scale
    y = (yy - canvas.size / 2) / canvas.scale
    return np.hypot(x, y), np.arctan2(y, x)


def _smooth_field(rng: np.random.Generator, size: int, cells: int) -> Floats:
    """Smooth noise in about -1..1 varying over `cells` cells across the picture."""
    coarse = rng.normal(0.0, 1.0, (cells + 1, cells + 1)).astype(np.float32)
    field = cv2.resize(coarse, (size, size), interpolation=cv2.INTER_CUBIC)
    return np.asarray(field, np.float32) / 1.5


def wood_grain(rng: np.random.Generator, size: int) -> Floats:
    """A brightness factor about 0 (-1..1) of sawn wood: warped streaks along one direction."""
    theta = float(rng.uniform(0.0, math.pi))
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    across = xx * math.cos(theta) + yy * math.sin(theta)
    warped = across + 0.05 * _smooth_field(rng, size, 4) + 0.01 * _smooth_field(rng, size, 16)
    # Grain is a profile across the streaks: slow growth rings and fine fibres.
    samples = 4096
    fibres = np.convolve(rng.normal(0.0, 1.0, samples), np.ones(5) / 5, mode="same")
    u = np.linspace(-1.5, 1.5, samples)  # `across` spans -1..1.42 whatever the direction
    rings = np.sin(2 * math.pi * u * float(rng.uniform(14, 26)))
    profile = 0.6 * np.sign(rings) * np.abs(rings) ** 0.5 + 0.6 * fibres / fibres.std()
    grain = np.interp(warped.ravel(), u, profile).reshape(size, size)
    out: Floats = np.clip(grain, -1.5, 1.5).astype(np.float32) / 1.5
    return out


def _multiply(img: Image, where: Mask, factor: Floats) -> None:
    lit = img[where].astype(np.float32) * factor[where][:, None]
    img[where] = np.clip(lit, 0, 255).astype(np.uint8)


def _wood_masks(canvas: Canvas, look: WheelLook, metal: Mask) -> tuple[Mask, Mask]:
    """Where the bowl's wood is, and where the rotor's (its rim and cone)."""
    r, _ = _radius_angle(canvas)
    rr = look.rotor_radius
    bowl = (r >= rr) & (r <= 1.0)
    rotor = (((r > rr * 0.965) & (r < rr)) | (r < rr * look.pocket_inner * 0.97)) & ~metal
    return bowl, rotor


def add_wood(
    canvas: Canvas,
    look: WheelLook,
    bowl: Image,
    rotor: Image,
    metal: Mask,
    rng: np.random.Generator,
) -> None:
    """Wood grain on the bowl and on the rotor's rim and cone (the rotor's turns with it)."""
    bowl_wood, rotor_wood = _wood_masks(canvas, look, metal)
    for img, where in ((bowl, bowl_wood), (rotor, rotor_wood)):
        grain = wood_grain(rng, canvas.size)
        _multiply(img, where, 1.0 + 0.35 * look.wood_grain * grain)


def add_chrome(canvas: Canvas, look: WheelLook, bowl: Image, rng: np.random.Generator) -> None:
    """A polished metal bowl: the room reflected in bands around it, and a hot streak or two."""
    r, a = _radius_angle(canvas)
    where = (r >= look.rotor_radius) & (r <= 1.0)
    # A turned metal surface mirrors the room: bright and dark bands that follow the angle
    # and bend a little with the radius (the bowl is curved).
    bend = a + 1.5 * (r - look.rotor_radius)
    env = np.zeros_like(r)
    for k in range(1, 7):
        env += float(rng.normal(0.0, 1.0 / k)) * np.cos(k * bend + float(rng.uniform(0, 6.3)))
    env = np.tanh(2.0 * env / max(1e-6, float(env.std())))
    streak = float(rng.uniform(-math.pi, math.pi))
    hot = np.exp(-(((a - streak + math.pi) % (2 * math.pi) - math.pi) ** 2) / 0.01)
    grey = np.clip(150 + 75 * env + 90 * look.highlight * hot, 0, 255)
    tint = np.array([1.04, 1.0, 0.96], np.float32)  # a faint cool cast of polished steel
    metal = grey[..., None] * tint
    mixed = bowl.astype(np.float32) * (1 - look.chrome) + metal * look.chrome
    bowl[where] = np.clip(mixed[where], 0, 255).astype(np.uint8)


def glare_map(
    canvas: Canvas, rng: np.random.Generator, count: int, peak: float, radius: tuple[float, float]
) -> Image:
    """Soft glare spots (lamps mirrored in the varnish), each at a random place in `radius`."""
    yy, xx = np.mgrid[0 : canvas.size, 0 : canvas.size].astype(np.float32)
    out = np.zeros((canvas.size, canvas.size), np.float32)
    for _ in range(count):
        cx, cy = canvas.polar(float(rng.uniform(*radius)), float(rng.uniform(0, 2 * math.pi)))
        sigma = float(rng.uniform(0.015, 0.045)) * canvas.scale
        out += peak * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma * sigma))
    grey = np.clip(out, 0, 255).astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=2)


def _metal_frets(canvas: Canvas, look: WheelLook, img: Image, metal: Mask, light: float) -> None:
    """Frets and turret as polished metal: bright where they face the light, a specular line."""
    _, a = _radius_angle(canvas)
    facing = np.cos(a - light).astype(np.float32)
    off = ((a - light + math.pi) % (2 * math.pi) - math.pi).astype(np.float32)
    specular = np.exp(-(off**2) / 0.02) * 120 * look.highlight
    lit = img[metal].astype(np.float32) * (0.75 + 0.3 * facing[metal])[:, None]
    img[metal] = np.clip(lit + specular[metal][:, None], 0, 255).astype(np.uint8)


def wheel_photo(look: WheelLook, rng: np.random.Generator) -> Image:
    """A photo-like top-down picture of the whole wheel, zero pocket at angle 0.

    Drawn at `PHOTO_SIZE` on the renderer's canvas geometry, then given what a picture
    of a real wheel has: wood grain, frets of polished metal, the light falling from one
    side, the lamps mirrored in the varnish, a soft lens and some grain.
    """
    canvas = Canvas(PHOTO_SIZE)
    bowl = draw_bowl(canvas, look)
    rotor, rotor_mask = draw_rotor(canvas, look)
    metal = cv2.inRange(rotor, np.array(look.fret) - 1, np.array(look.fret) + 1) > 0
    add_wood(canvas, look, bowl, rotor, metal, rng)
    light = float(rng.uniform(-math.pi, math.pi))
    _metal_frets(canvas, look, rotor, metal, light)
    picture = np.where(rotor_mask[..., None], rotor, bowl)
    r, a = _radius_angle(canvas)
    # A conical rotor and a bowl lit from one side: brighter facing the light. The table
    # around is left as the renderer draws it, so the picture has no edge of its own.
    shading = np.where(r <= 1.0, 1.0 + 0.18 * np.cos(a - light) * r, 1.0)
    picture = np.clip(picture * shading[..., None], 0, 255).astype(np.uint8)
    glints = glare_map(canvas, rng, look.rotor_glints, look.glare, (0.1, look.rotor_radius * 0.95))
    picture = np.asarray(cv2.add(picture, glints), np.uint8)
    picture = np.asarray(cv2.GaussianBlur(picture, (0, 0), 0.8), np.uint8)
    grain = rng.normal(0.0, 2.0, picture.shape) * (r <= 1.0)[..., None]
    out: Image = np.clip(picture + grain, 0, 255).astype(np.uint8)
    return out


def photo_texture(look: WheelLook, rng: np.random.Generator, size: int) -> Image:
    """The wheel's photo resampled to a canvas of `size` pixels."""
    picture = wheel_photo(look, rng)
    return np.asarray(cv2.resize(picture, (size, size), interpolation=cv2.INTER_AREA), np.uint8)

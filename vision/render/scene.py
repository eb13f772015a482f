"""Drawing the wheel top-down in a square canvas: static bowl, rotor at angle 0, ball, hand.

World units: the bowl's outer radius is 1, the centre is the origin, y grows downwards
in the canvas so that growing angles turn clockwise seen from above.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.pockets import POCKET_COUNT, pocket_colours
from vision.render.look import BGR, WheelLook

Image = npt.NDArray[np.uint8]
CANVAS_EXTENT = 1.12  # world units from the centre to the canvas edge
_ARC_POINTS = 24


class Canvas:
    def __init__(self, size: int) -> None:
        self.size = size
        self.scale = size / (2 * CANVAS_EXTENT)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (self.size / 2 + x * self.scale, self.size / 2 + y * self.scale)

    def polar(self, radius: float, angle: float) -> tuple[float, float]:
        return self.px(radius * math.cos(angle), radius * math.sin(angle))

    def sector(self, r0: float, r1: float, a0: float, a1: float) -> npt.NDArray[np.int32]:
        angles = np.linspace(a0, a1, _ARC_POINTS)
        outer = [self.polar(r1, a) for a in angles]
        inner = [self.polar(r0, a) for a in angles[::-1]]
        return (np.array(outer + inner) * 16).round().astype(np.int32)

    def disc(self, img: Image, radius: float, colour: BGR, thickness: int = -1) -> None:
        c = self.px(0, 0)
        cv2.circle(
            img,
            (round(c[0] * 16), round(c[1] * 16)),
            round(radius * self.scale * 16),
            colour,
            thickness,
            cv2.LINE_AA,
            4,
        )


def _shade(colour: BGR, factor: float) -> BGR:
    b, g, r = (int(np.clip(c * factor, 0, 255)) for c in colour)
    return (b, g, r)


_LIGHT_FLOOR = (205, 208, 210)


def _pocket_floor(colour: BGR, look: WheelLook) -> BGR:
    """The pocket's floor: its colour shaded, then lifted towards a light grey (a light pocket)."""
    shaded = _shade(colour, look.pocket_shade)
    if not look.pocket_lift:
        return shaded
    lift = look.pocket_lift
    b, g, r = (round(c + (w - c) * lift) for c, w in zip(shaded, _LIGHT_FLOOR, strict=True))
    return (b, g, r)


def _radial_gradient(
    canvas: Canvas, img: Image, r0: float, r1: float, colour: BGR, f0: float, f1: float
) -> None:
    steps = max(2, int((r1 - r0) * canvas.scale / 2))
    for i in range(steps):
        r = r1 - (r1 - r0) * i / steps
        canvas.disc(img, r, _shade(colour, f1 + (f0 - f1) * i / steps))


def draw_bowl(canvas: Canvas, look: WheelLook) -> Image:
    """Everything that does not turn: table, wooden bowl, ball track, deflector diamonds."""
    s = canvas.size
    img = np.empty((s, s, 3), np.uint8)
    img[:] = look.table
    _radial_gradient(canvas, img, 0.93, 1.0, look.bowl, 1.15, 0.8)
    _radial_gradient(canvas, img, look.track_inner, 0.935, look.track, 0.85, 1.1)
    _radial_gradient(canvas, img, look.rotor_radius, look.track_inner, look.deflector, 0.75, 1.0)
    canvas.disc(img, look.track_inner, _shade(look.deflector, 0.6), max(1, s // 400))
    mid = (look.rotor_radius + look.track_inner) / 2
    half = (look.track_inner - look.rotor_radius) * 0.3
    for k in range(8):
        a = k * math.pi / 4 + math.pi / 8
        long_side = half * (1.6 if k % 2 else 1.0)
        pts = [
            canvas.polar(mid + long_side, a),
            canvas.polar(mid, a + half * 0.5 / mid),
            canvas.polar(mid - long_side, a),
            canvas.polar(mid, a - half * 0.5 / mid),
        ]
        poly = (np.array(pts) * 16).round().astype(np.int32)
        cv2.fillConvexPoly(img, poly, look.fret, cv2.LINE_AA, 4)
    return img


def draw_rotor(canvas: Canvas, look: WheelLook) -> tuple[Image, npt.NDArray[np.bool_]]:
    """The rotor at angle 0 (zero pocket centred on angle 0) and the mask of its disc."""
    s = canvas.size
    img = np.zeros((s, s, 3), np.uint8)
    rr = look.rotor_radius
    ring_in, pocket_in = rr * look.number_ring, rr * look.pocket_inner
    canvas.disc(img, rr, look.rotor_rim)
    colours = {"red": look.red, "black": look.black, "green": look.green}
    width = 2 * math.pi / POCKET_COUNT
    for i, name in enumerate(pocket_colours()):
        a0, a1 = (i - 0.5) * width, (i + 0.5) * width
        colour = colours[name]
        cv2.fillPoly(img, [canvas.sector(ring_in, rr * 0.965, a0, a1)], colour, cv2.LINE_AA, 4)
        cv2.fillPoly(
            img,
            [canvas.sector(pocket_in, ring_in, a0, a1)],
            _pocket_floor(colour, look),
            cv2.LINE_AA,
            4,
        )
    fret_half = math.radians(look.fret_width) / 2
    for i in range(POCKET_COUNT):
        a = (i + 0.5) * width
        poly = canvas.sector(pocket_in * 0.98, ring_in, a - fret_half, a + fret_half)
        cv2.fillPoly(img, [poly], look.fret, cv2.LINE_AA, 4)
    thick = max(1, round(0.008 * canvas.scale))
    canvas.disc(img, ring_in, look.fret, thick)
    canvas.disc(img, pocket_in, look.fret, thick)
    _radial_gradient(canvas, img, 0.0, pocket_in * 0.97, look.cone, 1.2, 0.8)
    _draw_digits(canvas, img, look, (ring_in + rr * 0.965) / 2, (rr * 0.965 - ring_in))
    _draw_turret(canvas, img, look, pocket_in)
    mask = np.zeros((s, s), np.uint8)
    canvas.disc(mask, rr, (255, 255, 255))
    return img, mask > 127


def _draw_digits(canvas: Canvas, img: Image, look: WheelLook, radius: float, band: float) -> None:
    from vision.pockets import POCKET_ORDER

    height_px = band * canvas.scale * 0.6
    if height_px < 4:
        return
    scale = height_px / 22.0
    width = 2 * math.pi / POCKET_COUNT
    for i, number in enumerate(POCKET_ORDER):
        text = str(number)
        (tw, th), base = cv2.getTextSize(
            text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, round(scale * 2))
        )
        side = int(max(tw, th + base) * 1.6) + 4
        patch = np.zeros((side, side), np.uint8)
        org = ((side - tw) // 2, (side + th) // 2)
        cv2.putText(
            patch,
            text,
            org,
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            255,
            max(1, round(scale * 2)),
            cv2.LINE_AA,
        )
        angle = i * width
        # Digits read from outside the wheel: their top points outwards.
        rot = cv2.getRotationMatrix2D((side / 2, side / 2), -math.degrees(angle) - 90, 1.0)
        patch = np.asarray(cv2.warpAffine(patch, rot, (side, side)), np.uint8)
        cx, cy = canvas.polar(radius, angle)
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        if x0 < 0 or y0 < 0 or x0 + side > canvas.size or y0 + side > canvas.size:
            continue
        region = img[y0 : y0 + side, x0 : x0 + side]
        alpha = (patch.astype(np.float32) / 255)[..., None]
        region[:] = (region * (1 - alpha) + np.array(look.digit, np.float32) * alpha).astype(
            np.uint8
        )


def _draw_turret(canvas: Canvas, img: Image, look: WheelLook, pocket_in: float) -> None:
    arm = pocket_in * 0.55
    thick = max(2, round(0.025 * canvas.scale))
    for k in range(4):
        a = k * math.pi / 2 + 0.3
        p0, p1 = canvas.polar(0.0, a), canvas.polar(arm, a)
        cv2.line(
            img,
            (round(p0[0]), round(p0[1])),
            (round(p1[0]), round(p1[1])),
            look.fret,
            thick,
            cv2.LINE_AA,
        )
        c = canvas.polar(arm, a)
        cv2.circle(img, (round(c[0]), round(c[1])), thick, look.fret, -1, cv2.LINE_AA)
    canvas.disc(img, pocket_in * 0.12, _shade(look.fret, 1.1))


def ball_sprite(
    radius_px: float, colour: BGR
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A shaded ball with a specular spot: (colour HxWx3 float, alpha HxW float)."""
    r = max(radius_px, 1.0)
    side = math.ceil(r * 2 + 4) | 1
    c = side / 2 - 0.5
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    d = np.sqrt((xx - c) ** 2 + (yy - c) ** 2)
    alpha = np.clip(r + 0.5 - d, 0, 1).astype(np.float32)
    light = np.clip(
        1.0 - 0.35 * ((xx - c + r * 0.4) ** 2 + (yy - c + r * 0.4) ** 2) / (r * r), 0.55, 1.0
    )
    spot = np.exp(
        -((xx - c + r * 0.35) ** 2 + (yy - c + r * 0.35) ** 2) / max(0.5, (r * 0.25) ** 2)
    )
    col = (
        np.array(colour, np.float32)[None, None, :] * light[..., None] + 255 * spot[..., None] * 0.6
    )
    return np.clip(col, 0, 255).astype(np.float32), alpha


def stamp(
    img: Image,
    colour: npt.NDArray[np.float32],
    alpha: npt.NDArray[np.float32],
    centres: list[tuple[float, float]],
) -> None:
    """Composite the sprite at each centre with weight 1/len: a motion-blurred streak."""
    side = alpha.shape[0]
    weight = 1.0 / len(centres)
    for cx, cy in centres:
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        if x0 < 0 or y0 < 0 or x0 + side > img.shape[1] or y0 + side > img.shape[0]:
            continue
        region = img[y0 : y0 + side, x0 : x0 + side]
        a = (alpha * weight)[..., None]
        region[:] = (region * (1 - a) + colour * a).astype(np.uint8)


def draw_hand(canvas: Canvas, img: Image, look: WheelLook, angle: float, reach: float) -> None:
    """The croupier's hand and sleeve coming in from outside the wheel to radius `reach`."""
    ux, uy = math.cos(angle), math.sin(angle)
    tip = reach
    palm_c = canvas.px((tip + 0.16) * ux, (tip + 0.16) * uy)
    size = (round(0.13 * canvas.scale), round(0.09 * canvas.scale))
    deg = math.degrees(angle)
    far = canvas.px(2.5 * ux, 2.5 * uy)
    wrist = canvas.px((tip + 0.3) * ux, (tip + 0.3) * uy)
    cv2.line(
        img,
        (round(wrist[0]), round(wrist[1])),
        (round(far[0]), round(far[1])),
        look.sleeve,
        round(0.2 * canvas.scale),
        cv2.LINE_AA,
    )
    cv2.ellipse(
        img, (round(palm_c[0]), round(palm_c[1])), size, deg, 0, 360, look.skin, -1, cv2.LINE_AA
    )
    for k in range(4):
        off = (k - 1.5) * 0.045
        base = canvas.px((tip + 0.1) * ux - off * uy, (tip + 0.1) * uy + off * ux)
        end = canvas.px(tip * ux - off * uy * 1.1, tip * uy + off * ux * 1.1)
        cv2.line(
            img,
            (round(base[0]), round(base[1])),
            (round(end[0]), round(end[1])),
            _shade(look.skin, 0.92),
            max(2, round(0.035 * canvas.scale)),
            cv2.LINE_AA,
        )

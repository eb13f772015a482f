"""The renderer's named real-world looks: each renders, the same for a seed, and shows its knob.

Every property is measured in rendered frames (small, a few of them) and checked against
the look's own parameters: texture in the bowl, the ball's contrast, the camera's offset,
the noise on a flat table, the light across the picture, the smear of the turning rotor.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from dealer_station.cli import main
from drivers.camera import CameraSource
from vision.render import LOOKS, Scenario, SpinRenderer, UnknownLook, make_spin

SIZE = (320, 240)
SEED = 4242
# No noise, compression or flicker, the camera straight above the wheel's centre: the
# wheel is then a circle of `wheel_fill` half picture heights around the picture's centre.
CLEAN: dict[str, Any] = {
    "noise_sigma": 0.0,
    "jpeg_quality": 0,
    "flicker": 0.0,
    "tilt_deg": 0.0,
    "offset_x": 0.0,
    "offset_y": 0.0,
}
Frame = npt.NDArray[np.uint8]


def _spin(look: str, size: tuple[int, int] = SIZE, **overrides: Any) -> SpinRenderer:
    return make_spin(
        SEED, Scenario.VALID, resolution=size, fps=25.0, look_name=look, overrides=overrides
    )


def _radii(spin: SpinRenderer) -> npt.NDArray[np.float64]:
    """Each pixel's distance from the wheel's centre in bowl radii (a CLEAN camera)."""
    look = spin.look
    yy, xx = np.mgrid[0 : look.height, 0 : look.width].astype(np.float64)
    bowl_px = look.wheel_fill * min(look.width, look.height) / 2
    out: npt.NDArray[np.float64] = np.hypot(xx - look.width / 2, yy - look.height / 2) / bowl_px
    return out


def _texture(frame: Frame, where: npt.NDArray[np.bool_]) -> float:
    """Fine detail: the spread of the grey picture less its blurred self, over `where`."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float64)
    detail = grey - cv2.GaussianBlur(grey, (0, 0), 2.0)
    return float(detail[where].std())


@pytest.mark.parametrize("name", list(LOOKS))
def test_each_look_renders_the_same_for_a_seed_and_differs_from_plain(name: str) -> None:
    spin = _spin(name)
    late = spin.frame_count - 1
    first, last = spin.render(0), spin.render(late)
    assert first.shape == (SIZE[1], SIZE[0], 3) and first.dtype == np.uint8
    again = _spin(name)
    # Built anew and asked in the other order: the same pictures.
    assert np.array_equal(again.render(late), last)
    assert np.array_equal(again.render(0), first)
    assert spin.truth.look["name"] == name
    if name != "plain":
        plain = _spin("plain").render(0).astype(np.int16)
        assert np.abs(first.astype(np.int16) - plain).mean() > 0.5


def test_a_look_changes_the_look_only_not_the_spin() -> None:
    plain, shaken = _spin("plain").truth.as_dict(), _spin("studio").truth.as_dict()
    assert plain.pop("look") != shaken.pop("look")
    assert plain == shaken


def test_an_unknown_look_is_refused_by_name() -> None:
    with pytest.raises(UnknownLook, match="'velvet'"):
        _spin("velvet")


def _bowl(spin: SpinRenderer) -> npt.NDArray[np.bool_]:
    """The ball track: smooth shading and one soft glare, no edges of its own."""
    r = _radii(spin)
    return (r > spin.look.track_inner + 0.02) & (r < 0.92)


def test_wood_grain_puts_texture_in_the_bowl_growing_with_its_strength() -> None:
    energies = []
    for grain in (0.0, 0.5, 1.0):
        spin = _spin("wood", **CLEAN, wood_grain=grain)
        energies.append(_texture(spin.render(0), _bowl(spin)))
    assert energies[0] * 1.5 < energies[1] < energies[2]


def test_a_chrome_bowl_mirrors_the_room_in_bright_and_dark_bands() -> None:
    plain, chrome = _spin("plain", **CLEAN), _spin("chrome", **CLEAN)
    assert chrome.look.chrome >= 0.75
    spreads = []
    for spin in (plain, chrome):
        grey = cv2.cvtColor(spin.render(0), cv2.COLOR_BGR2GRAY)
        spreads.append(float(grey[_bowl(spin)].std()))
    assert spreads[1] > 2 * spreads[0]


def test_the_photo_rotor_has_grain_and_metal_that_the_drawn_one_has_not() -> None:
    big = (640, 480)  # wood grain of a few pixels, not one
    plain, photo = _spin("plain", big, **CLEAN), _spin("photo", big, **CLEAN)
    r = _radii(plain) / (plain.look.rotor_radius * plain.look.pocket_inner)
    cone = (r > 0.65) & (r < 0.9)  # the rotor's cone beyond the turret's arms
    assert _texture(photo.render(0), cone) > 2 * _texture(plain.render(0), cone)
    # The frets (where the drawn rotor has the fret colour) in the rotor's texture: one
    # grey when drawn; polished metal in the photo, bright towards its light, dull away.
    spreads = []
    for spin in (plain, photo):
        inner = cv2.erode(spin.fret_mask, np.ones((3, 3), np.uint8)) > 0
        spreads.append(float(cv2.cvtColor(spin.rotor, cv2.COLOR_BGR2GRAY)[inner].std()))
    assert spreads[0] < 3 and spreads[1] > 15


def _ball_contrast(spin: SpinRenderer) -> float:
    """At rest: the ball's darkest channel over the pocket floors' around its ring."""
    t = (spin.truth.rest_frame or 0) / spin.look.fps
    ball = spin.motion.ball(t)
    frame = spin.render(spin.truth.rest_frame or 0)
    darkest = frame.min(axis=2).astype(np.float64)
    point = spin.homography @ np.array([*spin.canvas.polar(ball.radius, ball.angle), 1.0])
    bx, by = point[:2] / point[2]
    yy, xx = np.mgrid[0 : frame.shape[0], 0 : frame.shape[1]]
    ball_px = spin.look.ball_radius * spin.look.wheel_fill * min(frame.shape[:2]) / 2
    on_ball = np.hypot(xx - bx, yy - by) < 0.5 * ball_px
    ring = np.abs(_radii(spin) - ball.radius) < 0.01
    return float(np.median(darkest[on_ball]) - np.median(darkest[ring]))


def test_a_grey_ball_on_light_pockets_stands_out_less_the_lighter_the_pockets() -> None:
    big = (640, 480)  # a ball of 5 pixels' radius, not 2
    plain = _ball_contrast(_spin("plain", big, **CLEAN))
    low = _spin("low_contrast", big, **CLEAN)
    assert max(low.look.ball) < 235 and low.look.pocket_lift >= 0.25
    lighter = _ball_contrast(_spin("low_contrast", big, **CLEAN, pocket_lift=0.45))
    darker = _ball_contrast(_spin("low_contrast", big, **CLEAN, pocket_lift=0.25))
    assert 5 < lighter < darker < plain / 2


def test_camera_shake_moves_the_picture_by_its_offset_jitter_and_drift_as_set() -> None:
    spin, plain = _spin("shake", **CLEAN), _spin("plain", **CLEAN)
    look, shake = spin.look, spin.shake
    assert shake is not None
    window = cv2.createHanningWindow(SIZE, cv2.CV_64F)
    # Frames before the croupier's hand reaches the bowl (it comes at 0.1 s at the earliest).
    for i in range(0, 10, 3):
        a = cv2.cvtColor(plain.render(i), cv2.COLOR_BGR2GRAY).astype(np.float64)
        b = cv2.cvtColor(spin.render(i), cv2.COLOR_BGR2GRAY).astype(np.float64)
        (dx, dy), _ = cv2.phaseCorrelate(a, b, window)
        ex, ey = shake.offset(i)
        assert math.hypot(dx - ex, dy - ey) < 0.3, (i, (dx, dy), (ex, ey))
    # Over a long spin the jitter and the drift are what the look says.
    offsets = np.array([shake.offset(i) for i in range(2000)])
    steps = np.diff(offsets, axis=0)
    assert steps.std(axis=0) == pytest.approx([math.sqrt(2) * look.shake_px] * 2, rel=0.15)
    smooth = cv2.blur(offsets.reshape(-1, 1, 2), (1, 25)).reshape(-1, 2)
    assert 0.7 * look.drift_px < np.abs(smooth).max() < look.drift_px + look.shake_px


def test_sensor_noise_on_a_flat_table_is_what_its_sigmas_make() -> None:
    spin = _spin("sensor_noise", jpeg_quality=0, flicker=0.0)
    look = spin.look
    # The table's corner, one flat colour: every channel's spread is the noise.
    patch = spin.render(0)[4:36, 4:36].reshape(-1, 3).astype(np.float64)
    level = patch.mean(axis=0)
    expected = np.sqrt(look.noise_sigma**2 + look.shot_noise**2 * level / 255)
    assert patch.std(axis=0) == pytest.approx(expected, rel=0.2)
    plain = _spin("plain", jpeg_quality=0, flicker=0.0).render(0)[4:36, 4:36].reshape(-1, 3)
    assert (plain.astype(np.float64).std(axis=0) < 0.7 * patch.std(axis=0)).all()


def test_uneven_light_dims_the_far_corner_by_its_falloff() -> None:
    spin = _spin("uneven_light", **CLEAN)
    look = spin.look
    frame = cv2.cvtColor(spin.render(0), cv2.COLOR_BGR2GRAY).astype(np.float64)
    a = math.radians(look.light_angle_deg)
    # The corner towards the light and the one opposite (table there, flat colour).
    sx, sy = (1 if math.cos(a) > 0 else -1), (1 if math.sin(a) > 0 else -1)
    h, w = frame.shape

    def corner(x: int, y: int) -> float:
        cx, cy = (w - 4 if x > 0 else 3), (h - 4 if y > 0 else 3)
        return float(frame[cy - 2 : cy + 3, cx - 2 : cx + 3].mean())

    ratio = corner(-sx, -sy) / corner(sx, sy)
    assert ratio == pytest.approx(1 - look.light_falloff, abs=0.04)


def test_a_long_exposure_smears_the_turning_rotor() -> None:
    blurred, plain = _spin("motion_blur", **CLEAN), _spin("plain", **CLEAN)
    assert blurred.look.exposure >= 0.4 > plain.look.exposure
    r = _radii(plain)
    ring = (r > plain.look.rotor_radius * 0.7) & (r < plain.look.rotor_radius * 0.95)
    assert _texture(blurred.render(5), ring) < 0.8 * _texture(plain.render(5), ring)


def test_wheel_render_writes_a_named_look_and_refuses_an_unknown_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["wheel", "render", "--out", str(tmp_path), "--seed", str(SEED), "--max-seconds", "0.2"]
    args += ["--scenario", "valid", "--resolution", "320x240", "--fps", "25"]
    assert main([*args, "--look", "shake"]) == 0
    truth = json.loads((tmp_path / f"{SEED}.json").read_text())
    assert truth["look"]["name"] == "shake" and truth["look"]["shake_px"] > 0
    frames = list(CameraSource(str(tmp_path / f"{SEED}.mkv")).frames())
    assert len(frames) == 5
    assert np.array_equal(frames[3].image, _spin("shake").render(3))
    assert main([*args, "--look", "velvet", "--seed", "1"]) == 2
    assert "unknown look 'velvet'" in capsys.readouterr().err
    assert not (tmp_path / "1.mkv").exists()


def test_a_valid_spins_ball_rests_between_its_frets_touching_one_at_most() -> None:
    """A pocket's frets are walls: a ball at rest lies between them (its centre at least
    its radius and half a fret from either), the draw that would put it across a fret
    puts it against the fret instead. Drawn across, it would be a ball on the fret."""
    pocket = 2 * math.pi / 37
    touching = 0
    for seed in range(300):
        spin = make_spin(seed, Scenario.VALID, resolution=SIZE, fps=25.0)
        motion, look = spin.motion, spin.look
        off = abs(motion.final_phi / pocket - round(motion.final_phi / pocket)) * pocket
        reach = off + look.ball_radius / motion.pocket_radius + math.radians(look.fret_width) / 2
        assert reach <= pocket / 2 + 1e-9, seed
        touching += math.isclose(reach, pocket / 2)
    # Some of the draws would have put the ball across a fret: those touch it.
    assert touching > 0


def test_a_spin_filmed_past_its_video_goes_on_with_the_same_scene() -> None:
    """The accuracy benchmark films on past a spin's video while no verdict has come, as
    a camera at the table would: the spin's own frames are unchanged, and the ones after
    show the ball where it rests, the rotor turning on and the camera still shaking."""
    spin = make_spin(60004, Scenario.VALID, resolution=(320, 240), fps=25.0, look_name="shake")
    end = spin.truth.frame_count
    on = [(i, t, f) for i, t, f in spin.frames(beyond=0.4) if i >= end - 2]
    assert [i for i, _, _ in on] == list(range(end - 2, end + 10))
    assert on[-1][1] == pytest.approx((end + 9) / 25.0)
    assert all(np.array_equal(f, spin.render(i)) for i, _, f in on[:2])
    m = spin.motion
    on_rotor = [(m.ball(t).angle - m.rotor_angle(t)) % (2 * math.pi) for _, t, _ in on[2:]]
    assert max(on_rotor) - min(on_rotor) < 1e-9  # at rest in its pocket, turning with it
    assert not np.array_equal(on[-1][2], on[2][2])  # the rotor turns, the camera shakes

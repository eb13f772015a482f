"""Bad input gets a typed alarm with a reason, never a crash and never a number."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dealer_station.cli import main
from vision.calibration import calibrate
from vision.detector import WheelDetector
from vision.observations import Alarm, AlarmKind, NoResult, Observation, SpinResult

Frames = list[tuple[np.ndarray, float]]


def _alarms(obs: list[Observation]) -> list[tuple[AlarmKind, bool]]:
    return [(o.kind, o.active) for o in obs if isinstance(o, Alarm)]


def test_frozen_frames_raise_and_clear_an_alarm(valid_frames: Frames) -> None:
    detector = WheelDetector()
    obs: list[Observation] = []
    for image, t in valid_frames[:20]:
        obs += detector.feed(image, t)
    still, t0 = valid_frames[20]
    for k in range(25):
        obs += detector.feed(still, t0 + k / 25)
    assert (AlarmKind.FROZEN_FRAMES, True) in _alarms(obs)
    for image, t in valid_frames[21:30]:
        obs += detector.feed(image, t0 + 1 + t)
    assert (AlarmKind.FROZEN_FRAMES, False) in _alarms(obs)


def test_dark_picture_raises_an_alarm_and_voids_nothing_into_a_number(valid_frames: Frames) -> None:
    detector = WheelDetector()
    obs: list[Observation] = []
    for image, t in valid_frames:
        obs += detector.feed((image // 20).astype(np.uint8), t)
    assert (AlarmKind.TOO_DARK, True) in _alarms(obs)
    assert not any(isinstance(o, SpinResult) for o in obs)


def test_lights_out_during_the_spin_voids_it(valid_frames: Frames) -> None:
    detector = WheelDetector()
    obs: list[Observation] = []
    for i, (image, t) in enumerate(valid_frames):
        obs += detector.feed(image if i < 60 else (image // 20).astype(np.uint8), t)
    assert not any(isinstance(o, SpinResult) for o in obs)
    voids = [o for o in obs if isinstance(o, NoResult)]
    assert [v.reason.value for v in voids] == ["camera_fault"]


def test_no_frames_for_a_while_is_an_alarm(valid_frames: Frames) -> None:
    detector = WheelDetector()
    for image, t in valid_frames[:5]:
        detector.feed(image, t)
    last = valid_frames[4][1]
    assert detector.check(last + 0.2) == []
    assert _alarms(detector.check(last + 2.0)) == [(AlarmKind.NO_FRAMES, True)]


def test_wheel_moved_since_calibration(valid_frames: Frames) -> None:
    cal = calibrate([image for image, _ in valid_frames[:12]])
    detector = WheelDetector(cal)
    obs: list[Observation] = []
    for image, t in valid_frames:
        obs += detector.feed(np.roll(image, (40, 70), axis=(0, 1)), t)
    assert (AlarmKind.WHEEL_MOVED, True) in _alarms(obs)
    assert not any(isinstance(o, SpinResult) for o in obs)


def test_no_wheel_in_the_picture(valid_frames: Frames) -> None:
    detector = WheelDetector()
    obs: list[Observation] = []
    rng = np.random.default_rng(1)
    table = np.full((240, 320, 3), (40, 100, 30), np.uint8)
    for _, t in valid_frames[:40]:
        noisy = np.clip(table + rng.normal(0, 2, table.shape), 0, 255).astype(np.uint8)
        obs += detector.feed(noisy, t)
    assert (AlarmKind.WHEEL_NOT_FOUND, True) in _alarms(obs)


def test_a_frame_that_is_not_an_image_is_refused() -> None:
    detector = WheelDetector()
    assert _alarms(detector.feed(np.zeros((10, 10)), 0.0)) == [(AlarmKind.BAD_FRAME, True)]  # type: ignore[arg-type]


def test_missing_video_is_a_no_frames_alarm(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["wheel", "detect", str(tmp_path / "nope.mkv"), "--json"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert record["type"] == "alarm" and record["alarm"] == "no_frames" and record["active"] is True

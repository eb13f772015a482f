"""The demo's recorded wheel (drivers/recorded_wheel.py): its first picture at once, then
its clip each time a spin is due, at the clip's pace, read by one detector play after play.
The clip is the package's own (dealer_station/demo_wheel), the one the demo plays."""

from __future__ import annotations

import importlib.resources
import threading
from pathlib import Path

import pytest
from support.wheel_clips import truth

from dealer_station.demo import WHEEL_CLIP
from drivers.camera import CameraSource, CameraUnavailable
from drivers.recorded_wheel import TAKE_RESULT_SECONDS, RecordedWheel
from vision.detector import WheelDetector
from vision.observations import SpinResult


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture(scope="module")
def clip() -> Path:
    resource = importlib.resources.files("dealer_station").joinpath(WHEEL_CLIP)
    assert resource.is_file(), f"the package carries no {WHEEL_CLIP}"
    return Path(str(resource))


def test_the_package_clip_is_small() -> None:
    resource = importlib.resources.files("dealer_station").joinpath(WHEEL_CLIP)
    assert len(resource.read_bytes()) < 2_000_000


def test_each_spin_due_plays_the_clip_at_its_pace_and_the_detector_reads_every_play(
    clip: Path,
) -> None:
    count = sum(1 for _ in CameraSource(str(clip)).frames())
    time = FakeTime()
    wheel = RecordedWheel(clip, clock=time.clock, sleep=time.sleep)
    detector = WheelDetector()
    frames = wheel.frames()
    opening = next(frames)  # before any spin is due
    detector.feed(opening.image, opening.time)
    numbers: list[int] = []
    times = [opening.time]
    for play in range(2):
        wheel.spin_due(True)  # the table waits for a spin
        for _ in range(count):
            frame = next(frames)
            times.append(frame.time)
            for obs in detector.feed(frame.image, frame.time):
                if isinstance(obs, SpinResult):
                    numbers.append(obs.number)
                    wheel.spin_due(False)  # the table took the result
        if play == 0:
            # At the clip's own pace: its last frame is shown (count - 1) / fps in.
            assert time.slept == pytest.approx((count - 1) / truth("valid-190")["fps"], abs=0.05)
    assert numbers == [truth("valid-190")["number"]] * 2
    assert times == sorted(times) and len(set(times)) == len(times)  # one clock, going on


def test_a_spin_the_table_did_not_take_is_played_again(clip: Path) -> None:
    count = sum(1 for _ in CameraSource(str(clip)).frames())
    time = FakeTime()
    wheel = RecordedWheel(clip, clock=time.clock, sleep=time.sleep)
    frames = wheel.frames()
    next(frames)
    wheel.spin_due(True)
    for _ in range(count):
        next(frames)
    waited = time.now
    next(frames)  # still due: the table voided the spin and waits for another
    assert time.now - waited >= TAKE_RESULT_SECONDS


def test_stop_ends_the_wait_for_a_spin(clip: Path) -> None:
    wheel = RecordedWheel(clip)
    frames = wheel.frames()
    next(frames)
    rest: list[object] = []
    reader = threading.Thread(target=lambda: rest.extend(frames))
    reader.start()
    reader.join(timeout=0.3)
    assert reader.is_alive() and rest == []  # no spin due: no frame
    wheel.stop()
    reader.join(timeout=5)
    assert not reader.is_alive() and rest == []


def test_a_missing_clip_is_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable):
        RecordedWheel(tmp_path / "none.avi")

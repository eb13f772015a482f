"""The one rule the camera's health and the wheel's calibration share: an alarm
is reported when it starts and when it clears, never again while it holds."""

from __future__ import annotations

from vision.alarm_latch import AlarmLatch
from vision.observations import Alarm, AlarmKind


def test_an_alarm_is_reported_once_when_it_starts_and_once_when_it_clears() -> None:
    latch = AlarmLatch()
    assert latch.set(AlarmKind.TOO_DARK, True, "grey 3.0", 7, 0.5) == [
        Alarm(AlarmKind.TOO_DARK, True, "grey 3.0", 7, 0.5)
    ]
    assert latch.set(AlarmKind.TOO_DARK, True, "grey 2.0", 8, 0.6) == []
    assert latch.active == {AlarmKind.TOO_DARK}
    assert latch.set(AlarmKind.TOO_DARK, False, "", 9, 0.7) == [
        Alarm(AlarmKind.TOO_DARK, False, "too_dark cleared", 9, 0.7)
    ]
    assert latch.set(AlarmKind.TOO_DARK, False, "", 10, 0.8) == []
    assert latch.active == set()


def test_alarms_of_different_kinds_are_held_apart() -> None:
    latch = AlarmLatch()
    latch.set(AlarmKind.FROZEN_FRAMES, True, "same picture", 1, 0.1)
    assert latch.set(AlarmKind.NO_FRAMES, False, "", 2, 0.2) == []
    assert latch.active == {AlarmKind.FROZEN_FRAMES}

"""The camera source over a real video through OpenCV: files end, live sources come back.

A `file://` URL is opened by the same FFmpeg path as a network stream and counts as live,
so the reconnect loop runs for real; only the clock and the pause are injected.
"""

from __future__ import annotations

import pytest
from support.wheel_clips import truth, video

from drivers.camera import CameraSource, CameraUnavailable

CLIP = "left-wheel-306"


def test_a_file_plays_once_with_its_own_timestamps() -> None:
    frames = list(CameraSource(str(video(CLIP))).frames())
    assert len(frames) == truth(CLIP)["frame_count"]
    assert [f.index for f in frames] == list(range(len(frames)))
    assert frames[10].time == pytest.approx(10 / truth(CLIP)["fps"])


def test_a_missing_file_is_refused_at_once() -> None:
    with pytest.raises(CameraUnavailable):
        next(CameraSource("/nonexistent/wheel.mkv").frames())


def test_a_live_source_that_ends_is_reopened_and_frames_go_on() -> None:
    pauses: list[float] = []
    ticks = iter(range(10_000))
    source = CameraSource(
        f"file://{video(CLIP)}",
        retry_seconds=0.5,
        clock=lambda: float(next(ticks)),
        sleep=pauses.append,
    )
    count = truth(CLIP)["frame_count"]
    frames = []
    for f in source.frames():
        frames.append(f)
        if len(frames) == count + 5:
            source.stop()
    assert len(frames) == count + 5
    assert source.reconnects == 1 and pauses == [0.5]
    # Frame numbers keep counting across the reconnect; times come from the clock.
    assert [f.index for f in frames] == list(range(count + 5))
    assert frames[-1].time > frames[0].time


def test_a_live_source_that_cannot_be_opened_is_retried_until_stopped() -> None:
    pauses: list[float] = []
    source = CameraSource("file:///nonexistent/wheel.mkv", retry_seconds=2.0)

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 3:
            source.stop()

    source.sleep = pause
    assert list(source.frames()) == []
    assert pauses == [2.0, 2.0, 2.0] and source.reconnects == 3

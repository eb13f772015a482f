"""A live camera that delivers no frames raises `camera offline` (issue 13, rule
10), and goes online again when frames return.

The camera is a real pipe (a FIFO) that OpenCV's FFmpeg reads as an MJPEG
stream, fed with the frames of a recorded spin: when the writer falls silent
with the pipe still open, the capture's read blocks as an unplugged USB camera's
or a stalled stream's does. The station's parts are real: a roulette table's
actor with its journal, the camera bridge, the detector's own health check.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest
from support.wheel_clips import video

from dealer_station.actor import TableActor
from dealer_station.camera_bridge import CameraBridge
from dealer_station.config import CameraConfig, TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from drivers.camera import CameraSource, _is_live

OFFLINE_AFTER = 1.0
FRAME_GAP = 0.03  # about 30 frames a second


@pytest.fixture
def camera_pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # FFmpeg would otherwise read seconds of the pipe to guess its format before
    # it gives the first frame, and hide the silence in its buffer.
    monkeypatch.setenv("OPENCV_FFMPEG_CAPTURE_OPTIONS", "probesize;32|analyzeduration;0")
    fifo = tmp_path / "camera"
    os.mkfifo(fifo)
    return fifo


def _jpegs(count: int) -> list[bytes]:
    frames = list(CameraSource(str(video("valid-190"))).frames())[:count]
    return [cv2.imencode(".jpg", f.image)[1].tobytes() for f in frames]


async def _until(what: str, ready: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def _camera(actor: TableActor) -> str:
    return actor.devices.get("camera", ("unknown", ""))[0]


async def _watch(
    tmp_path: Path, fifo: Path, scenario: Callable[[TableActor], object]
) -> list[dict[str, object]]:
    """Run a roulette table with a camera on the pipe through ``scenario``;
    the camera's journaled device records."""
    camera = CameraConfig(source=str(fifo), offline_after_seconds=OFFLINE_AFTER)
    config = TableConfig(id="r", game="roulette", camera=camera)
    actor = TableActor(config, "test", Journal(tmp_path / "j.sqlite3"), Topics("p", "test", "r"))
    actor.recover()
    task = asyncio.create_task(actor.run())
    bridge = CameraBridge(actor, camera)
    bridge.start()
    try:
        await scenario(actor)  # type: ignore[misc]
    finally:
        await asyncio.to_thread(bridge.close)
        await asyncio.sleep(0.1)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    records = [r.body for r in actor.journal.records("r", kind="device")]
    actor.journal.close()
    return records


def test_a_camera_that_falls_silent_goes_offline_and_comes_back(
    tmp_path: Path, camera_pipe: Path
) -> None:
    jpegs = _jpegs(80)
    silent, resume, done = threading.Event(), threading.Event(), threading.Event()

    def camera() -> None:
        with contextlib.suppress(BrokenPipeError), camera_pipe.open("wb", buffering=0) as pipe:
            for jpeg in jpegs[:40]:
                pipe.write(jpeg)
                time.sleep(FRAME_GAP)
            silent.set()  # still open: the reader waits, as for a stalled camera
            resume.wait(60)
            for jpeg in jpegs[40:]:
                pipe.write(jpeg)
                time.sleep(FRAME_GAP)
            done.wait(60)

    writer = threading.Thread(target=camera, daemon=True)
    writer.start()

    async def scenario(actor: TableActor) -> None:
        await _until("the first frames", lambda: _camera(actor) == "online")
        await _until("the camera's silence", silent.is_set)
        await _until("camera offline", lambda: _camera(actor) == "offline")
        codes = actor.alarms.codes()
        assert "camera_offline" in codes
        # The ball was on the track in those frames: that spin cannot be judged.
        assert "respin_camera_fault" in codes
        resume.set()
        await _until("the camera back", lambda: _camera(actor) == "online")
        assert "camera_offline" not in actor.alarms.codes()

    try:
        records = asyncio.run(_watch(tmp_path, camera_pipe, scenario))
    finally:
        resume.set()
        done.set()
    assert [r["state"] for r in records[:3]] == ["online", "offline", "online"]
    assert str(records[1]["detail"]).startswith("no frame for ")


def test_a_camera_that_never_delivers_goes_offline(tmp_path: Path, camera_pipe: Path) -> None:
    opened = threading.Event()

    def camera() -> None:  # plugged in, and not a frame
        with camera_pipe.open("wb", buffering=0):
            opened.wait(60)

    threading.Thread(target=camera, daemon=True).start()

    async def scenario(actor: TableActor) -> None:
        await _until("camera offline", lambda: _camera(actor) == "offline")

    try:
        records = asyncio.run(_watch(tmp_path, camera_pipe, scenario))
    finally:
        opened.set()
    assert records[0]["state"] == "offline"
    assert "since the camera was opened" in str(records[0]["detail"])


def test_devices_and_pipes_are_live_sources(tmp_path: Path, camera_pipe: Path) -> None:
    """Reopened after a failure and judged by the clock, unlike a recorded file:
    udev's name for the camera counts even while it is unplugged (absent)."""
    assert _is_live("/dev/dealer-camera")
    assert _is_live("/dev/null")
    assert _is_live(str(camera_pipe))
    assert _is_live(0) and _is_live("rtsp://127.0.0.1/wheel")
    assert not _is_live(str(video("valid-190")))
    assert not _is_live(str(tmp_path / "absent.mkv"))

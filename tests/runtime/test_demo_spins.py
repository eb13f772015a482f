"""The demo's wheel plays a new spin each time (issue 16: "every spin in the
demo is 5 RED, because it has one recording"): the packaged clip first, then
valid spins rendered in the clip's look, which the real detector reads right or
refuses (a RE-SPIN at the demo's table), never wrong, one detector over all the
plays as at the station."""

from __future__ import annotations

from pathlib import Path

from dealer_station.demo import wheel_clip
from dealer_station.demo_spins import RenderedWheel
from vision.detector import WheelDetector
from vision.observations import NoResult, SpinResult

PLAYS = 5


def test_each_spin_after_the_clip_is_a_new_one_and_the_camera_reads_it() -> None:
    with wheel_clip() as clip:
        wheel = RenderedWheel(Path(clip), seed=3)
        detector = WheelDetector(None)
        read: list[int | None] = []
        offset = 0.0
        for _ in range(PLAYS):
            last = offset
            for frame in wheel.play():
                last = offset + frame.time
                for obs in detector.feed(frame.image, last):
                    if isinstance(obs, SpinResult):
                        read.append(obs.number)
                    elif isinstance(obs, NoResult):
                        read.append(None)
            offset = last + 1.0
    # The clip's ball rests on 5 (docs/wheel.md, "The demo's clip"); then the renderer's.
    truths = [5, *(t.number for t in wheel.truths)]
    assert len(read) == len(truths) == PLAYS
    assert all(n is None or n == truth for n, truth in zip(read, truths, strict=True))
    numbers = {n for n in read if n is not None}
    assert len(numbers) >= 3, (read, truths)

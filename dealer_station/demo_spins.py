"""The demo's wheel: a new spin each time, not the same recording.

The package's clip (the ball rests on 5) plays first; every spin after it is
rendered when it is due by the project's renderer (vision/render), a valid spin
of its own seed, so the winning numbers differ as at a real wheel. Every spin
has the clip's look (camera, wheel and colours: the clip's seed, 190, rendered
clean as tests/fixtures/wheel/README.md makes it), so the detector finds the
wheel where it found it in the clip, and raises no "wheel moved". Rendering a
320x240 spin takes about a second of CPU, less than the spin lasts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path

from drivers.camera import TimedFrame
from drivers.recorded_wheel import RecordedWheel
from vision.render.motion import Scenario
from vision.render.spin_video import SpinTruth, make_spin

# The packaged clip's spin (docs/wheel.md, "The demo's clip").
CLIP_SEED = 190
CLIP_SIZE = (320, 240)
CLIP_FPS = 25.0
CLEAN = {"noise_sigma": 0.0, "jpeg_quality": 0, "flicker": 0.0}
# The renderer's truths kept: the last spins' (a demo spins for days).
TRUTHS_KEPT = 20


class RenderedWheel(RecordedWheel):
    def __init__(self, clip: Path, seed: int) -> None:
        super().__init__(clip)
        self.seed = seed
        self.plays = 0
        look = make_spin(CLIP_SEED, Scenario.VALID, resolution=CLIP_SIZE, fps=CLIP_FPS).look
        self._look = {**look.as_dict(), **CLEAN}
        # The renderer's truth of the spins rendered last, to compare with what the camera read.
        self.truths: deque[SpinTruth] = deque(maxlen=TRUTHS_KEPT)

    def play(self) -> Iterator[TimedFrame]:
        self.plays += 1
        if self.plays == 1:
            return super().play()
        return self._rendered(self.seed * 10_000 + self.plays)

    def _rendered(self, seed: int) -> Iterator[TimedFrame]:
        spin = make_spin(
            seed, Scenario.VALID, resolution=CLIP_SIZE, fps=CLIP_FPS, overrides=self._look
        )
        self.truths.append(spin.truth)
        for index, t, image in spin.frames():
            yield TimedFrame(index, t, image)

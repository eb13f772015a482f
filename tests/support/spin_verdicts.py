"""A rendered spin through a fresh detector: the first verdict it gives."""

from __future__ import annotations

from vision.detector import WheelDetector
from vision.observations import NoResult, SpinResult
from vision.render import SpinRenderer


def live_seconds(detector: WheelDetector) -> float:
    """How long a camera at the table films on past a rendered spin's video while no
    verdict has come: longer than the detector's longest wait (a ball not at rest
    10 s after its drop is lost)."""
    return detector.params.max_bounce_seconds + detector.params.lost_seconds


def first_verdict(spin: SpinRenderer, *, live: bool = False) -> SpinResult | NoResult:
    """The detector's first result or refusal, from the frames or, when the
    video ends first, from its finish; `live` films on past the video first
    (`live_seconds`), as a camera at the table does."""
    detector = WheelDetector()
    t = 0.0
    for _, t, frame in spin.frames(beyond=live_seconds(detector) if live else 0.0):
        verdicts = [o for o in detector.feed(frame, t) if isinstance(o, SpinResult | NoResult)]
        if verdicts:
            return verdicts[0]
    verdicts = [o for o in detector.finish(t) if isinstance(o, SpinResult | NoResult)]
    if not verdicts:
        raise AssertionError("no verdict")
    return verdicts[0]

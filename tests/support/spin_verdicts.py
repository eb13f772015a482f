"""A rendered spin through a fresh detector: the first verdict it gives."""

from __future__ import annotations

from vision.detector import WheelDetector
from vision.observations import NoResult, SpinResult
from vision.render import SpinRenderer


def first_verdict(spin: SpinRenderer) -> SpinResult | NoResult:
    """The detector's first result or refusal, from the frames or, when the
    video ends first, from its finish."""
    detector = WheelDetector()
    t = 0.0
    for _, t, frame in spin.frames():
        verdicts = [o for o in detector.feed(frame, t) if isinstance(o, SpinResult | NoResult)]
        if verdicts:
            return verdicts[0]
    verdicts = [o for o in detector.finish(t) if isinstance(o, SpinResult | NoResult)]
    if not verdicts:
        raise AssertionError("no verdict")
    return verdicts[0]

"""A deterministic renderer of synthetic roulette spins with their ground truth.

It plays the camera's role for tests and benchmarks. It lives in `vision` because it
is pure numpy/cv2 (parameters in, frames out, no files) and shares the wheel's pocket
order; writing videos is the CLI's and the camera driver's job.
"""

from vision.render.look import WheelLook, random_look
from vision.render.looks import LOOKS, UnknownLook
from vision.render.motion import Scenario, SpinMotion
from vision.render.spin_video import SpinRenderer, SpinTruth, make_spin

__all__ = [
    "LOOKS",
    "Scenario",
    "SpinMotion",
    "SpinRenderer",
    "SpinTruth",
    "UnknownLook",
    "WheelLook",
    "make_spin",
    "random_look",
]

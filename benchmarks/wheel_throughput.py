"""Frames per second of the wheel detector on one core, at 1280x720.

    .venv/bin/python benchmarks/wheel_throughput.py --frames 300

Renders a spin to an FFV1 file, then times (1) the detector alone on decoded frames held
in memory and (2) decoding the file plus the detector, with `cv2.setNumThreads(1)`.
Calibration (the first half second, done once) is included in both.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2

from drivers.camera import CameraSource
from drivers.camera_recording import write_ffv1
from vision.detector import WheelDetector
from vision.render import Scenario, make_spin


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--resolution", default="1280x720")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.resolution.split("x"))
    spin = make_spin(args.seed, Scenario.VALID, resolution=(w, h), fps=30.0)
    count = min(args.frames, spin.frame_count)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spin.mkv"
        write_ffv1(path, (spin.render(i) for i in range(count)), 30.0)
        frames = [(f.image, f.time) for f in CameraSource(str(path)).frames()]
        detector = WheelDetector()
        start = time.perf_counter()
        for image, t in frames:
            detector.feed(image, t)
        pipeline = time.perf_counter() - start
        detector = WheelDetector()
        start = time.perf_counter()
        for f in CameraSource(str(path)).frames():
            detector.feed(f.image, f.time)
        decoded = time.perf_counter() - start
    print(
        json.dumps(
            {
                "resolution": args.resolution,
                "frames": len(frames),
                "pipeline_fps": round(len(frames) / pipeline, 1),
                "decode_and_pipeline_fps": round(len(frames) / decoded, 1),
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

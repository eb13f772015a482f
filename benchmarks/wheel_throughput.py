"""Frames per second of the wheel detector on one core (`cv2.setNumThreads(1)`).

    .venv/bin/python benchmarks/wheel_throughput.py --frames 300

Renders one valid spin (1280x720, 30 fps by default) to an FFV1 file, decodes it once,
then times, over the same frames:

- `pipeline_fps`: the detector alone on frames held in memory, with the wheel's
  calibration found beforehand (what a station does every frame once it runs);
- `pipeline_with_calibration_fps`: the same with no calibration given, so the detector
  also finds the wheel from the first half second (done once per start);
- `decode_and_pipeline_fps`: reading the FFV1 file with `CameraSource` plus the detector
  (calibration given), i.e. a recorded video replayed.

Each figure is the best of `--repeat` runs, so that other work on a shared machine
disturbs it less; the spin's verdict is printed too, to show the frames were tracked.
Each is given twice: by the wall clock (`*_fps`), and by the CPU time this process
used (`*_cpu_fps`: frames per second of one core of its own, which is what a station's
core gives when the machine is not shared; decoding may use more threads, so that
figure counts all of their time).
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
from vision.calibration import calibrate
from vision.detector import WheelDetector
from vision.observations import NoResult, SpinResult
from vision.render import Scenario, make_spin


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--resolution", default="1280x720")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.resolution.split("x"))
    # A long tail after the rest so that the clip has `--frames` frames.
    spin = make_spin(args.seed, Scenario.VALID, resolution=(w, h), fps=args.fps, tail=10.0)
    count = min(args.frames, spin.frame_count)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spin.mkv"
        write_ffv1(path, (spin.render(i) for i in range(count)), args.fps)
        frames = [(f.image, f.time) for f in CameraSource(str(path)).frames()]
        calibration = calibrate([image for image, _ in frames[:16]])
        verdicts: list[str] = []

        def pipeline(with_calibration: bool) -> tuple[float, float]:
            detector = WheelDetector(None if with_calibration else calibration)
            start, cpu = time.perf_counter(), time.process_time()
            for image, t in frames:
                for o in detector.feed(image, t):
                    if isinstance(o, SpinResult):
                        verdicts.append(f"number {o.number}")
                    elif isinstance(o, NoResult):
                        verdicts.append(f"no result: {o.reason.value}")
            return _rates(len(frames), start, cpu)

        def decoded() -> tuple[float, float]:
            detector = WheelDetector(calibration)
            start, cpu = time.perf_counter(), time.process_time()
            n = 0
            for f in CameraSource(str(path)).frames():
                detector.feed(f.image, f.time)
                n += 1
            return _rates(n, start, cpu)

        steady = _best([pipeline(False) for _ in range(args.repeat)])
        first = _best([pipeline(True) for _ in range(args.repeat)])
        replay = _best([decoded() for _ in range(args.repeat)])
    print(
        json.dumps(
            {
                "resolution": args.resolution,
                "frames": len(frames),
                "truth": spin.truth.number,
                "verdicts": sorted(set(verdicts)),
                "pipeline_fps": steady[0],
                "pipeline_cpu_fps": steady[1],
                "pipeline_with_calibration_fps": first[0],
                "pipeline_with_calibration_cpu_fps": first[1],
                "decode_and_pipeline_fps": replay[0],
                "decode_and_pipeline_cpu_fps": replay[1],
            },
            indent=2,
        )
    )
    return 0


def _rates(frames: int, start: float, cpu: float) -> tuple[float, float]:
    """Frames per second by the wall clock and by this process's CPU time."""
    wall = time.perf_counter() - start
    used = time.process_time() - cpu
    return frames / wall, frames / max(used, 1e-9)


def _best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return round(max(r[0] for r in runs), 1), round(max(r[1] for r in runs), 1)


if __name__ == "__main__":
    sys.exit(main())

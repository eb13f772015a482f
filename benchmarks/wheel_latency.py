"""Frames from the ball's rest to the declared number, for a ball that stops dead.

    nice -n 5 .venv/bin/python benchmarks/wheel_latency.py --spins 40 --workers 2
    nice -n 5 .venv/bin/python benchmarks/wheel_latency.py --spins 40 --quick-rest-seconds 0.25

The renderer's own ball rocks in its pocket for 0.15-0.35 s before its rest
(`SpinMotion.rest_time`), mostly within the detector's rest tolerance: the accuracy
benchmark's latency then counts from a rest the detector saw begin earlier. Here every
valid spin is rendered with `dead_stop` (the ball still from the end of its last hop,
which is the rest), so the frames counted are the detector's own wait. A look and a
resolution and frame rate are drawn per spin as in `benchmarks/wheel_accuracy.py`.
`--quick-rest-seconds 0.25` (the full rest) gives the detector's latency before the
quick rest (issue 16). Prints one JSON summary: right, wrong, other verdicts, and the
frames (and ms) from rest to the number, p50/p90/p99, overall and at 30 fps.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from multiprocessing import Pool
from typing import Any

import numpy as np


def run_spin(job: tuple[int, tuple[int, int], float, float | None]) -> dict[str, Any]:
    import cv2

    from vision.detector import WheelDetector
    from vision.observations import NoResult, SpinResult
    from vision.params import DetectorParams
    from vision.render import Scenario, make_spin

    cv2.setNumThreads(1)
    seed, resolution, fps, quick = job
    spin = make_spin(seed, Scenario.VALID, resolution=resolution, fps=fps, dead_stop=True)
    params = DetectorParams()
    if quick is not None:
        params = dataclasses.replace(params, quick_rest_seconds=quick)
    detector = WheelDetector(None, params)
    truth = spin.truth
    row: dict[str, Any] = {"seed": seed, "fps": fps, "outcome": "silent"}
    for _, t, frame in spin.frames():
        verdicts = [o for o in detector.feed(frame, t) if isinstance(o, SpinResult | NoResult)]
        if not verdicts:
            continue
        verdict = verdicts[0]
        if isinstance(verdict, NoResult):
            row |= {"outcome": "no_result", "reason": verdict.reason.value}
        elif verdict.number != truth.number:
            row["outcome"] = "wrong"
        else:
            assert truth.rest_frame is not None
            row |= {"outcome": "right", "frames": verdict.facts.declared_frame - truth.rest_frame}
        break
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def spread(frames: list[float]) -> list[float]:
        return [float(np.percentile(frames, q)) for q in (50, 90, 99)] if frames else []

    right = [r for r in rows if r["outcome"] == "right"]
    outcomes = {
        o: sum(r["outcome"] == o for r in rows) for o in sorted({r["outcome"] for r in rows})
    }
    return {
        "spins": len(rows),
        "outcomes": outcomes,
        "reasons": sorted(r["reason"] for r in rows if "reason" in r),
        "frames_after_rest_p50_p90_p99": spread([r["frames"] for r in right]),
        "ms_after_rest_p50_p90_p99": [
            round(v, 1) for v in spread([r["frames"] / r["fps"] * 1000 for r in right])
        ],
        "frames_after_rest_at_30fps_p50_p90_p99": spread(
            [r["frames"] for r in right if r["fps"] == 30]
        ),
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--spins", type=int, default=40)
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--resolutions", default="640x480,960x540")
    ap.add_argument("--fps", default="25,30,50,60")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--quick-rest-seconds", type=float, help="DetectorParams.quick_rest_seconds")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    sizes = [tuple(int(v) for v in r.split("x")) for r in args.resolutions.split(",")]
    rates = [float(f) for f in args.fps.split(",")]
    jobs = []
    for k in range(args.spins):
        w, h = sizes[int(rng.integers(len(sizes)))]
        jobs.append(
            (args.seed + k, (w, h), rates[int(rng.integers(len(rates)))], args.quick_rest_seconds)
        )
    with Pool(args.workers) as pool:
        rows = list(pool.imap_unordered(run_spin, jobs))
    summary = summarise(rows)
    print(json.dumps(summary, indent=2))
    return 1 if summary["outcomes"].get("wrong") else 0


if __name__ == "__main__":
    sys.exit(main())

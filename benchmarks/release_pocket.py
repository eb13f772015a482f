"""How close the detector's release pocket comes to the renderer's truth.

    nice -n 5 .venv/bin/python benchmarks/release_pocket.py --spins 200 --workers 2

Each spin is rendered in memory (`vision.render.make_spin`: a random look from the
renderer's whole range, the croupier's hand at launch) at a resolution and frame rate
drawn uniformly from `--resolutions` and `--fps`, and fed frame by frame to a fresh
`WheelDetector` with no calibration file until its first verdict. The verdict's
`release_pocket` (docs/wheel.md, "The release") is compared with the truth's, the
rotor's pocket under the ball at the instant the renderer launches it:

- error: pockets along the wheel from the truth to the detector's pocket, signed in
  the rotor's direction of travel (-18..18); `within`: how many spins have |error| of
  0, at most 1, at most 2; `missing`: verdicts without a release pocket;
- the same for `landing_distance` on the spins that gave a number (a release error
  of +1 in the rotor's direction is a distance error of -1);
- by frame rate: one frame of the ball's flight relative to the rotor is 1.5 to 5
  pockets, so the frame rate is what matters most.

`--json` prints every spin as a JSON line; `--summarise FILE...` summarises those.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

POCKETS = 37


def run_spin(job: tuple[int, tuple[int, int], float, str]) -> dict[str, Any]:
    import cv2

    from vision.detector import WheelDetector
    from vision.observations import NoResult, SpinResult
    from vision.pockets import POCKET_ORDER
    from vision.render import Scenario, make_spin

    cv2.setNumThreads(1)
    seed, resolution, fps, scenario = job
    spin = make_spin(seed, Scenario(scenario), resolution=resolution, fps=fps)
    truth = spin.truth
    detector = WheelDetector()
    verdict: SpinResult | NoResult | None = None
    for _, t, frame in spin.frames():
        verdict = next(
            (o for o in detector.feed(frame, t) if isinstance(o, SpinResult | NoResult)), None
        )
        if verdict is not None:
            break
    row: dict[str, Any] = {
        "seed": seed,
        "scenario": scenario,
        "fps": truth.fps,
        "width": truth.width,
        "height": truth.height,
        "truth_release": truth.release_pocket,
        "truth_distance": truth.landing_distance,
        "verdict": None if verdict is None else type(verdict).__name__,
    }
    if verdict is None:
        return row
    release = verdict.facts.release_pocket
    row["release"] = release
    if release is not None:
        way = 1 if truth.rotor_direction == "clockwise" else -1
        steps = POCKET_ORDER.index(release) - POCKET_ORDER.index(truth.release_pocket)
        row["error"] = _signed(steps * way)
    if isinstance(verdict, SpinResult):
        row["number_right"] = verdict.number == truth.number
        row["distance"] = verdict.landing_distance
        if verdict.landing_distance is not None and truth.landing_distance is not None:
            row["distance_error"] = _signed(verdict.landing_distance - truth.landing_distance)
    return row


def _signed(steps: int) -> int:
    return (steps + POCKETS // 2) % POCKETS - POCKETS // 2


def _tally(errors: list[int], missing: int) -> dict[str, Any]:
    a = np.abs(np.array(errors)) if errors else np.zeros(0)
    n = len(errors)
    return {
        "spins": n + missing,
        "missing": missing,
        "within": {
            f"{k}": [int((a <= k).sum()), round(100 * float((a <= k).sum()) / max(1, n), 1)]
            for k in (0, 1, 2)
        },
        "error_histogram": {f"{e:+d}": errors.count(e) for e in sorted(set(errors))},
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    judged = [r for r in rows if r["verdict"] is not None]
    summary: dict[str, Any] = {
        "spins": len(rows),
        "no_verdict": len(rows) - len(judged),
        "release": _tally(
            [r["error"] for r in judged if "error" in r],
            sum(1 for r in judged if "error" not in r),
        ),
        "landing_distance": _tally(
            [r["distance_error"] for r in judged if "distance_error" in r],
            sum(1 for r in judged if r["verdict"] == "SpinResult" and "distance_error" not in r),
        ),
        "release_by_fps": {
            f"{fps:g}": _tally(
                [r["error"] for r in judged if r["fps"] == fps and "error" in r],
                sum(1 for r in judged if r["fps"] == fps and "error" not in r),
            )["within"]
            for fps in sorted({r["fps"] for r in judged})
        },
        "worst": sorted(
            (
                (abs(r["error"]), r["seed"], r["fps"], f"{r['width']}x{r['height']}")
                for r in judged
                if "error" in r
            ),
            reverse=True,
        )[:10],
    }
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--spins", type=int, default=200)
    ap.add_argument("--seed", type=int, default=40_000)
    ap.add_argument("--resolutions", default="640x480,960x540", help="comma-separated WxH")
    ap.add_argument("--fps", default="25,30,50,60", help="comma-separated")
    ap.add_argument("--scenario", default="valid", help="a renderer scenario (valid gives numbers)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print every spin as a JSON line")
    ap.add_argument("--summarise", nargs="+", metavar="FILE", help="summarise --json lines")
    args = ap.parse_args()
    if args.summarise:
        rows = [
            json.loads(line)
            for name in args.summarise
            for line in Path(name).read_text().splitlines()
            if line.startswith('{"seed"')
        ]
        print(json.dumps(summarise(rows), indent=2))
        return 0
    rng = np.random.default_rng(args.seed)
    sizes = [tuple(int(v) for v in r.split("x")) for r in args.resolutions.split(",")]
    rates = [float(f) for f in args.fps.split(",")]
    jobs = []
    for k in range(args.spins):
        w, h = sizes[int(rng.integers(len(sizes)))]
        jobs.append((args.seed + k, (w, h), rates[int(rng.integers(len(rates)))], args.scenario))
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = []
        for row in pool.imap_unordered(run_spin, jobs):
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    summary = summarise(rows)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

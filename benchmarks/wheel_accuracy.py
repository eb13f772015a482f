"""Accuracy and latency of the wheel detector over generated spins.

    .venv/bin/python benchmarks/wheel_accuracy.py --spins 500 --workers 2

Each spin is rendered in memory at full size and full length with a random look drawn
from the renderer's whole range (`vision.render.look.random_look`: bowl, rotor, pocket,
ball and hand colours, pocket shade 0.6-1.0, ball radius 0.019-0.030 of the bowl, fret
width 0.8-1.8 deg, camera tilt 0-35 deg, any yaw, camera distance 3.5-9 bowl radii,
wheel filling 72-95% of the picture, noise sigma 0.5-4, JPEG none/60/75/90, light
flicker 0-6% at 0.5-8 Hz, exposure 3-20% of the frame time, highlights 0.3-1.0, the
croupier's hand at launch), a resolution and a frame rate drawn uniformly from
`--resolutions` and `--fps` (default: all of 640x480, 960x540, 1280x720, 1920x1080 and
25, 30, 50, 60 fps), and a random scenario (60% valid, 10% each of too few revolutions,
same direction, ball off the wheel, ball on a fret). It is fed frame by frame to a fresh
`WheelDetector` with no calibration file (the wheel is found from the first half
second). The first verdict is compared with the renderer's ground truth:

- correct: the true number, or a no-result with the true reason for an invalid spin;
- wrong: a number that is not the truth, or any number where the truth is a no-result;
- no_result: a no-result for a valid spin; no_result_other_reason: a no-result with
  another reason for an invalid spin; silent: no verdict at all.

`verdicts` splits them again (`verdict_kinds`): right and wrong numbers, false
refusals (a valid spin refused for a fault of the throw or the landing it did not
have) apart from unsure no-results (the camera could not tell), right and other
refusals of invalid spins, silent spins.

Latency is declared frame minus the rendered rest frame, for correct numbers (negative
when the ball was still rocking in its pocket, within the rest tolerance, when declared).
With `--dump DIR` every spin not judged correctly is written there as an FFV1 video with
its ground truth and the detector's verdict (`<seed>.mkv`, `<seed>.json`), to replay with
`dealer-station wheel detect`. `--summarise FILE...` summarises the JSON lines that runs
printed with `--json` (one run cut short, or several with different seeds together).
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


def run_spin(
    job: tuple[int, tuple[int, int] | None, float | None, str | None],
) -> dict[str, Any]:
    import cv2

    from vision.detector import WheelDetector
    from vision.observations import NoResult, SpinResult
    from vision.render import make_spin

    cv2.setNumThreads(1)
    seed, resolution, fps, dump = job
    spin = make_spin(seed, resolution=resolution, fps=fps)
    truth = spin.truth
    detector = WheelDetector()
    verdict: SpinResult | NoResult | None = None
    last = 0.0
    for _, t, frame in spin.frames():
        last = t
        for o in detector.feed(frame, t):
            if verdict is None and isinstance(o, SpinResult | NoResult):
                verdict = o
        if verdict is not None:
            break  # only the first verdict is judged: the rest of the video changes nothing
    if verdict is None:
        for o in detector.finish(last):
            if isinstance(o, SpinResult | NoResult):
                verdict = o
    out: dict[str, Any] = {
        "seed": seed,
        "scenario": truth.scenario,
        "truth_number": truth.number,
        "truth_reason": truth.reason,
        "fps": truth.fps,
        "width": truth.width,
        "height": truth.height,
    }
    if isinstance(verdict, SpinResult):
        out |= {"number": verdict.number, "declared_frame": verdict.facts.declared_frame}
        if truth.number is None or verdict.number != truth.number:
            out["outcome"] = "wrong"
        else:
            out["outcome"] = "correct"
            assert truth.rest_frame is not None
            out["latency_frames"] = verdict.facts.declared_frame - truth.rest_frame
    elif isinstance(verdict, NoResult):
        out["reason"] = verdict.reason.value
        if truth.number is not None:
            out["outcome"] = "no_result"
        elif verdict.reason.value == truth.reason:
            out["outcome"] = "correct"
        else:
            out["outcome"] = "no_result_other_reason"
    else:
        out["outcome"] = "silent"
    if dump and out["outcome"] != "correct":
        _dump(Path(dump), spin, out, verdict)
    return out


def _dump(folder: Path, spin: Any, row: dict[str, Any], verdict: Any) -> None:
    from drivers.camera_recording import write_ffv1

    folder.mkdir(parents=True, exist_ok=True)
    write_ffv1(folder / f"{row['seed']}.mkv", (f for _, _, f in spin.frames()), spin.truth.fps)
    record = {"row": row, "verdict": repr(verdict), "truth": spin.truth.as_dict()}
    (folder / f"{row['seed']}.json").write_text(json.dumps(record, indent=2) + "\n")


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, latency percentiles and breakdowns over the spins' rows."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    lat = [
        (r["latency_frames"], r["latency_frames"] / r["fps"] * 1000)
        for r in rows
        if "latency_frames" in r
    ]
    frames = np.array([f for f, _ in lat]) if lat else np.zeros(1)
    ms = np.array([m for _, m in lat]) if lat else np.zeros(1)
    at30 = [
        r["latency_frames"] / r["fps"] * 1000
        for r in rows
        if "latency_frames" in r and r["fps"] == 30
    ]
    ms30 = np.array(at30) if at30 else np.zeros(1)
    summary = {
        "spins": len(rows),
        "outcomes": counts,
        "correct_pct": round(100 * counts.get("correct", 0) / max(1, len(rows)), 2),
        "wrong": counts.get("wrong", 0),
        "verdicts": verdict_kinds(rows),
        "latency_frames_p50": float(np.percentile(frames, 50)),
        "latency_frames_p99": float(np.percentile(frames, 99)),
        "latency_ms_p50": round(float(np.percentile(ms, 50)), 1),
        "latency_ms_p99": round(float(np.percentile(ms, 99)), 1),
        "latency_ms_at_30fps_p50_p99": [round(float(np.percentile(ms30, q)), 1) for q in (50, 99)],
        "by_resolution": {
            res: {
                o: sum(1 for r in rows if _size(r) == res and r["outcome"] == o)
                for o in sorted({r["outcome"] for r in rows})
            }
            for res in sorted({_size(r) for r in rows}, key=lambda v: int(v.split("x")[0]))
        },
        "by_fps": {
            f"{fps:g}": {
                o: sum(1 for r in rows if r["fps"] == fps and r["outcome"] == o)
                for o in sorted({r["outcome"] for r in rows})
            }
            for fps in sorted({r["fps"] for r in rows})
        },
        "by_scenario": {
            s: {
                o: sum(1 for r in rows if r["scenario"] == s and r["outcome"] == o)
                for o in sorted({r["outcome"] for r in rows})
            }
            for s in sorted({r["scenario"] for r in rows})
        },
        "no_result_reasons": {
            reason: sum(
                1 for r in rows if r["outcome"] == "no_result" and r.get("reason") == reason
            )
            for reason in sorted({r["reason"] for r in rows if r["outcome"] == "no_result"})
        },
        "wrong_seeds": sorted(r["seed"] for r in rows if r["outcome"] == "wrong"),
        "not_correct": sorted(
            (r["seed"], _size(r), r["fps"], r["scenario"], r.get("reason"))
            for r in rows
            if r["outcome"] != "correct"
        ),
    }
    return summary


# Reasons that blame the throw or the landing: given for a valid spin, the croupier is
# told to re-spin for a fault the spin did not have. The others say the camera could
# not tell (the ball or the rotor not followed well enough, a camera fault).
THROW_FAULTS = frozenset(
    {"too_few_revolutions", "ball_same_direction_as_rotor", "ball_left_wheel", "ball_on_fret"}
)


def verdict_kinds(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Right numbers, wrong numbers, false refusals (a valid spin refused for a fault of
    the throw it did not have), unsure no-results of valid spins, right refusals and
    other refusals of invalid spins, silent spins."""
    kinds = dict.fromkeys(
        ("right", "wrong", "false_refusal", "unsure", "right_refusal", "other_refusal", "silent"),
        0,
    )
    for r in rows:
        outcome = r["outcome"]
        if outcome in ("wrong", "silent"):
            kind = outcome
        elif outcome == "correct":
            kind = "right" if r["truth_number"] is not None else "right_refusal"
        elif outcome == "no_result":
            kind = "false_refusal" if r.get("reason") in THROW_FAULTS else "unsure"
        else:
            kind = "other_refusal"
        kinds[kind] += 1
    return kinds


def _size(row: dict[str, Any]) -> str:
    return f"{row['width']}x{row.get('height', '?')}"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--spins", type=int, default=500)
    ap.add_argument("--seed", type=int, default=10_000)
    ap.add_argument(
        "--resolutions",
        default="640x480,960x540,1280x720,1920x1080",
        help="comma-separated WxH drawn uniformly per spin",
    )
    ap.add_argument(
        "--fps", default="25,30,50,60", help="comma-separated, drawn uniformly per spin"
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print every spin as a JSON line")
    ap.add_argument("--dump", help="folder for the video and truth of every spin not correct")
    ap.add_argument(
        "--summarise",
        nargs="+",
        metavar="FILE",
        help="summarise the JSON lines that earlier runs printed with --json (no new spins)",
    )
    args = ap.parse_args()
    if args.summarise:
        saved = [
            json.loads(line)
            for name in args.summarise
            for line in Path(name).read_text().splitlines()
            if line.startswith('{"seed"')
        ]
        summary = summarise(saved)
        print(json.dumps(summary, indent=2))
        return 1 if summary["wrong"] else 0
    rng = np.random.default_rng(args.seed)
    sizes = [tuple(int(v) for v in r.split("x")) for r in args.resolutions.split(",")]
    rates = [float(f) for f in args.fps.split(",")]
    jobs = []
    for k in range(args.spins):
        size = sizes[int(rng.integers(len(sizes)))]
        rate = rates[int(rng.integers(len(rates)))]
        jobs.append((args.seed + k, (size[0], size[1]), rate, args.dump))
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
    return 1 if summary["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())

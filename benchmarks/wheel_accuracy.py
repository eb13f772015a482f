"""Accuracy and latency of the wheel detector over generated spins, look by look.

    .venv/bin/python benchmarks/wheel_accuracy.py --spins 50 --looks plain,photo --workers 2

Spin `seed` is rendered in memory at full size and full length with a random look drawn
from the renderer's whole range (`vision.render.look.random_look`: bowl, rotor, pocket,
ball and hand colours, pocket shade 0.6-1.0, ball radius 0.019-0.030 of the bowl, fret
width 0.8-1.8 deg, camera tilt 0-35 deg, any yaw, camera distance 3.5-9 bowl radii,
wheel filling 72-95% of the picture, noise sigma 0.5-4, JPEG none/60/75/90, light
flicker 0-6% at 0.5-8 Hz, exposure 3-20% of the frame time, highlights 0.3-1.0, the
croupier's hand at launch), a resolution and a frame rate drawn uniformly from
`--resolutions` and `--fps` (default: all of 640x480, 960x540, 1280x720, 1920x1080 and
25, 30, 50, 60 fps), and a random scenario (60% valid, 10% each of too few revolutions,
same direction, ball off the wheel, ball on a fret). Then it is dressed in each named
real-world look of `--looks` (`vision.render.looks`, docs/wheel.md: default all): the
same `--spins` spins in every look, so that a look is all that differs between rows.
Each is fed frame by frame to a fresh `WheelDetector` with no calibration file (the
wheel is found from the first half second). A spin's video ends 1.2 s after the ball
came to rest; a camera at the table goes on filming, so while no verdict has come the
same scene is rendered on, for longer than the detector's longest wait (a ball not at
rest 10 s after its drop is lost). Verdicts given in those frames are counted apart
("past the video"): before, the video's end refused such spins `camera_fault`, which a
live table never gives for a spin the camera saw to the end. The first verdict is
compared with the renderer's ground truth:

- right_number: the true number; wrong_number: any other number, or any number where
  the truth is a no-result (must stay 0);
- false_refusal: a no-result for a valid spin (counted by the reason given);
- right_refusal: a no-result with the true reason for an invalid spin; wrong_refusal:
  a no-result with another reason for an invalid spin (counted as truth->given);
- silent: no verdict at all.

Every row carries the turns the detector counted (`revolutions`) and the truth's
(`truth_revolutions`, on the track up to where the ball leaves it); the summary gives
the most counted over the truth (`revolutions_over_truth_max`): turns the camera did
not see must never be counted.

Rest to result is the declared frame minus the rendered rest frame, for right numbers
(negative when the ball was still rocking in its pocket, within the rest tolerance,
when declared): median and max in frames, p50 and p99 in milliseconds (by frame rate
in a second table). `correct` is right numbers and right refusals of all spins. With
`--dump DIR` every spin not right is written there as an FFV1 video with its ground
truth and the detector's verdict (`<look>-<seed>.mkv`, `.json`), to replay with
`dealer-station wheel detect` (or render again with `dealer-station wheel render
--look`). `--summarise FILE...` summarises the JSON lines that runs printed with
`--json` (one run cut short, or several together).
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

Job = tuple[int, str, tuple[int, int] | None, float | None, str | None]


def run_spin(job: Job) -> dict[str, Any]:
    import cv2
    from support.spin_verdicts import live_seconds

    from vision.detector import WheelDetector
    from vision.observations import NoResult, SpinResult
    from vision.render import make_spin

    cv2.setNumThreads(1)
    seed, look, resolution, fps, dump = job
    spin = make_spin(seed, resolution=resolution, fps=fps, look_name=look)
    truth = spin.truth
    detector = WheelDetector()
    verdict: SpinResult | NoResult | None = None
    last, fed = 0.0, 0
    for index, t, frame in spin.frames(beyond=live_seconds(detector)):
        last, fed = t, index + 1
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
        "look": look,
        "scenario": truth.scenario,
        "truth_number": truth.number,
        "truth_reason": truth.reason,
        "fps": truth.fps,
        "width": truth.width,
        "height": truth.height,
        "past_video": fed > truth.frame_count,
        "truth_revolutions": truth.revolutions,
    }
    if verdict is not None:
        out["revolutions"] = verdict.facts.ball_revolutions
    if isinstance(verdict, SpinResult):
        out["number"] = verdict.number
        if truth.number is None or verdict.number != truth.number:
            out["outcome"] = "wrong_number"
        else:
            out["outcome"] = "right_number"
            assert truth.rest_frame is not None
            out["rest_to_result_frames"] = verdict.facts.declared_frame - truth.rest_frame
    elif isinstance(verdict, NoResult):
        out["reason"] = verdict.reason.value
        if truth.number is not None:
            out["outcome"] = "false_refusal"
        elif verdict.reason.value == truth.reason:
            out["outcome"] = "right_refusal"
        else:
            out["outcome"] = "wrong_refusal"
    else:
        out["outcome"] = "silent"
    if dump and out["outcome"] not in ("right_number", "right_refusal"):
        _dump(Path(dump), spin, out, verdict)
    return out


def _dump(folder: Path, spin: Any, row: dict[str, Any], verdict: Any) -> None:
    from drivers.camera_recording import write_ffv1

    folder.mkdir(parents=True, exist_ok=True)
    name = f"{row['look']}-{row['seed']}"
    write_ffv1(folder / f"{name}.mkv", (f for _, _, f in spin.frames()), spin.truth.fps)
    record = {"row": row, "verdict": repr(verdict), "truth": spin.truth.as_dict()}
    (folder / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")


OUTCOMES = (
    "right_number",
    "wrong_number",
    "false_refusal",
    "right_refusal",
    "wrong_refusal",
    "silent",
)


def _tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One line of the table: the outcomes, their reasons, and rest to result."""
    counts = {o: sum(1 for r in rows if r["outcome"] == o) for o in OUTCOMES}
    false_reasons: dict[str, int] = {}
    wrong_reasons: dict[str, int] = {}
    for r in rows:
        if r["outcome"] == "false_refusal":
            false_reasons[r["reason"]] = false_reasons.get(r["reason"], 0) + 1
        elif r["outcome"] == "wrong_refusal":
            key = f"{r['truth_reason']}->{r['reason']}"
            wrong_reasons[key] = wrong_reasons.get(key, 0) + 1
    lags = [r["rest_to_result_frames"] for r in rows if "rest_to_result_frames" in r]
    # The same waits in time: a frame is 1/fps of the spin's own rate.
    waits = [
        1000 * r["rest_to_result_frames"] / r["fps"] for r in rows if "rest_to_result_frames" in r
    ]
    correct = counts["right_number"] + counts["right_refusal"]
    return {
        "spins": len(rows),
        **counts,
        "past_video": sum(1 for r in rows if r.get("past_video")),
        # Turns counted beyond the truth's, which stops where the ball leaves its track:
        # the most, over the spins the ball was counted going round in.
        "revolutions_over_truth_max": max(
            (
                round(r["revolutions"] - r["truth_revolutions"], 3)
                for r in rows
                if r.get("revolutions") and r.get("truth_revolutions") is not None
            ),
            default=None,
        ),
        "correct_share": round(correct / len(rows), 4) if rows else None,
        "false_refusal_reasons": dict(sorted(false_reasons.items())),
        "wrong_refusal_reasons": dict(sorted(wrong_reasons.items())),
        "rest_to_result_frames_median": float(np.median(lags)) if lags else None,
        "rest_to_result_frames_max": int(max(lags)) if lags else None,
        "rest_to_result_ms_p50": round(float(np.percentile(waits, 50)), 1) if waits else None,
        "rest_to_result_ms_p99": round(float(np.percentile(waits, 99)), 1) if waits else None,
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per look and in total, plus the total by frame rate and by resolution."""
    from vision.render import LOOKS

    order = list(LOOKS)
    looks = sorted({r["look"] for r in rows}, key=lambda n: order.index(n) if n in order else 99)
    return {
        "by_look": {look: _tally([r for r in rows if r["look"] == look]) for look in looks},
        "total": _tally(rows),
        "by_fps": {
            f"{fps:g}": _tally([r for r in rows if r["fps"] == fps])
            for fps in sorted({r["fps"] for r in rows})
        },
        "by_resolution": {
            size: _tally([r for r in rows if _size(r) == size])
            for size in sorted({_size(r) for r in rows}, key=lambda v: int(v.split("x")[0]))
        },
        "wrong_numbers": sorted(
            (r["look"], r["seed"], r["scenario"], r["number"], r["truth_number"])
            for r in rows
            if r["outcome"] == "wrong_number"
        ),
        "not_right": sorted(
            (r["look"], r["seed"], _size(r), r["fps"], r["scenario"], r.get("reason"))
            for r in rows
            if r["outcome"] not in ("right_number", "right_refusal")
        ),
    }


def table(summary: dict[str, Any]) -> str:
    """The per-look figures as a Markdown table (reasons abbreviated as counts by reason)."""
    head = (
        "| look | spins | right numbers | wrong numbers | false refusals (by reason) "
        "| right refusals | wrong refusals | silent | rest to result, frames (median, max) "
        "| verdicts past the video |"
    )
    lines = [head, "|" + "---|" * 10]
    named = [*summary["by_look"].items(), ("**total**", summary["total"])]
    for look, t in named:
        reasons = ", ".join(f"{k} {v}" for k, v in t["false_refusal_reasons"].items())
        wrong = ", ".join(f"{k} {v}" for k, v in t["wrong_refusal_reasons"].items())
        lag = (
            "-"
            if t["rest_to_result_frames_median"] is None
            else f"{t['rest_to_result_frames_median']:g}, {t['rest_to_result_frames_max']}"
        )
        lines.append(
            f"| {look} | {t['spins']} | {t['right_number']} | {t['wrong_number']} "
            f"| {t['false_refusal']}{f' ({reasons})' if reasons else ''} "
            f"| {t['right_refusal']} | {t['wrong_refusal']}{f' ({wrong})' if wrong else ''} "
            f"| {t['silent']} | {lag} | {t['past_video']} |"
        )
    lines += [
        "",
        "| frame rate | spins | correct | rest to result p50 | p99 |",
        "|---|---|---|---|---|",
    ]
    for fps, t in summary["by_fps"].items():
        lines.append(
            f"| {fps} fps | {t['spins']} | {100 * (t['correct_share'] or 0):.1f}% "
            f"| {t['rest_to_result_ms_p50']} ms | {t['rest_to_result_ms_p99']} ms |"
        )
    return "\n".join(lines)


def _size(row: dict[str, Any]) -> str:
    return f"{row['width']}x{row.get('height', '?')}"


def main() -> int:
    from vision.render import LOOKS

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--spins", type=int, default=50, help="spins per look")
    ap.add_argument("--seed", type=int, default=10_000, help="first spin's seed")
    ap.add_argument(
        "--looks",
        default=",".join(LOOKS),
        help=f"comma-separated look names (default all: {', '.join(LOOKS)})",
    )
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
    ap.add_argument("--dump", help="folder for the video and truth of every spin not right")
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
        print(table(summary))
        print(json.dumps(summary, indent=2))
        return 1 if summary["total"]["wrong_number"] else 0
    looks = [name.strip() for name in args.looks.split(",") if name.strip()]
    unknown = [name for name in looks if name not in LOOKS]
    if unknown:
        ap.error(f"unknown looks {', '.join(unknown)}; looks: {', '.join(LOOKS)}")
    rng = np.random.default_rng(args.seed)
    sizes = [tuple(int(v) for v in r.split("x")) for r in args.resolutions.split(",")]
    rates = [float(f) for f in args.fps.split(",")]
    jobs: list[Job] = []
    for k in range(args.spins):
        # Every look gets the same spins (seed, size, rate): only the look differs, and
        # a run cut short has as many spins of each look.
        size = sizes[int(rng.integers(len(sizes)))]
        rate = rates[int(rng.integers(len(rates)))]
        jobs += [(args.seed + k, look, (size[0], size[1]), rate, args.dump) for look in looks]
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = []
        for row in pool.imap_unordered(run_spin, jobs):
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    rows.sort(key=lambda r: (looks.index(r["look"]), r["seed"]))
    summary = summarise(rows)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(table(summary))
    print(json.dumps(summary, indent=2))
    return 1 if summary["total"]["wrong_number"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""Invalid spins rendered on purpose: each must be refused, and with its true reason.

    .venv/bin/python benchmarks/wheel_invalid_spins.py --scenario ball_on_fret \\
        --looks low_contrast,plain,motion_blur,studio,chrome --seeds 90000-90012

Spin `seed` of `--scenario` (few_revolutions, same_direction, ball_left_wheel,
ball_on_fret) is rendered at `--resolution` and (25, 30, 50, 60)[seed % 4] fps in each
look, and fed to a fresh detector, filmed on past the video while no verdict has come
(as a camera at the table does); its first verdict is printed, a line a spin: the
truth's reason and revolutions, the verdict (a number or a reason) and the
revolutions the detector counted. `WRONG` marks a number (the truth is no number),
`other` a refusal with another reason. Last, the counts.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from support.spin_verdicts import first_verdict  # noqa: E402

from vision.observations import SpinResult  # noqa: E402
from vision.render import make_spin  # noqa: E402
from vision.render.motion import Scenario  # noqa: E402

RATES = (25.0, 30.0, 50.0, 60.0)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scenario", required=True, choices=[s.value for s in Scenario][1:])
    ap.add_argument("--looks", default="plain")
    ap.add_argument("--seeds", default="90000-90004", help="first-last, the last excluded")
    ap.add_argument("--resolution", default="640x480")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    first, last = (int(s) for s in args.seeds.split("-"))
    width, height = (int(v) for v in args.resolution.split("x"))
    counts: Counter[str] = Counter()
    for look in args.looks.split(","):
        for seed in range(first, last):
            fps = RATES[seed % len(RATES)]
            spin = make_spin(
                seed, Scenario(args.scenario), resolution=(width, height), fps=fps, look_name=look
            )
            verdict = first_verdict(spin, live=True)
            truth = spin.truth
            if isinstance(verdict, SpinResult):
                given, mark = str(verdict.number), "WRONG"
            else:
                given = verdict.reason.value
                mark = "ok" if given == truth.reason else "other"
            counted = round(verdict.facts.ball_revolutions, 2)
            print(
                look, seed, fps, truth.reason, round(truth.revolutions, 2), "->", given, counted,
                mark, flush=True,
            )
            counts[mark] += 1
    print(dict(counts))
    return 1 if counts["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""No more bets from the ball's speed (issue 16, part 1).

The detector reads rendered spins frame by frame; the renderer's motion knows the
ball's speed at every instant and when it drops (`SpinMotion.track_rps`,
`time_at_rps`, `drop_time`), so where each rule truly holds is known. The judge must
close betting within one ball revolution of that instant and before the drop.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from dealer_station.cli import main
from drivers.camera_recording import write_ffv1
from vision.detector import WheelDetector
from vision.no_more_bets import BetRule, BetRulesInvalid, BetsClosed, NoMoreBets
from vision.observations import BallSpeed, NoResult, Observation, Phase, PhaseChange, SpinResult
from vision.render import Scenario, SpinRenderer, make_spin

BELOW = 1.0  # rev/s
BEFORE = 1.5  # s


def _watch(spin: SpinRenderer) -> list[Observation]:
    """Everything the detector says up to its verdict."""
    detector = WheelDetector()
    out: list[Observation] = []
    for _, t, frame in spin.frames():
        obs = detector.feed(frame, t)
        out += obs
        if any(isinstance(o, SpinResult | NoResult) for o in obs):
            break
    return out


@pytest.fixture(scope="module")
def spins() -> list[tuple[SpinRenderer, list[Observation]]]:
    """Three valid spins: launched at 2.2 to 2.5 rev/s, slowing by 0.36 to 0.66 rev/s^2,
    dropping at 0.61 to 0.77 rev/s (the detector assumes 0.7)."""
    rendered = [
        make_spin(seed, Scenario.VALID, resolution=(320, 240), fps=25.0) for seed in (0, 1, 3)
    ]
    return [(spin, _watch(spin)) for spin in rendered]


def _closed(judge: NoMoreBets, observations: list[Observation]) -> list[BetsClosed]:
    return [c for c in map(judge.feed, observations) if c is not None]


def test_the_reported_speed_is_the_balls(
    spins: list[tuple[SpinRenderer, list[Observation]]],
) -> None:
    for spin, out in spins:
        speeds = [o for o in out if isinstance(o, BallSpeed)]
        assert len(speeds) >= 8  # a few a second over the track's 3 to 5 s
        assert max(b.time - a.time for a, b in itertools.pairwise(speeds)) < 0.5
        errors = [
            abs(s.revs_per_s - truth)
            for s in speeds
            if (truth := spin.motion.track_rps(s.time)) is not None
        ]
        assert float(np.median(errors)) < 0.05


@pytest.mark.parametrize("rule", [BetRule.BELOW_REVS_PER_S, BetRule.BEFORE_DROP_S])
def test_betting_closes_within_a_revolution_of_the_true_moment_and_before_the_drop(
    spins: list[tuple[SpinRenderer, list[Observation]]], rule: BetRule
) -> None:
    for spin, out in spins:
        motion = spin.motion
        if rule is BetRule.BELOW_REVS_PER_S:
            judge = NoMoreBets(below_revs_per_s=BELOW)
            truly = motion.time_at_rps(BELOW)
        else:
            judge = NoMoreBets(before_drop_s=BEFORE)
            truly = motion.drop_time - BEFORE
        assert truly is not None
        [closed] = _closed(judge, out)
        assert closed.rule is rule
        assert closed.time < motion.drop_time
        assert abs(motion.track_turns(closed.time) - motion.track_turns(truly)) <= 1.0
        if rule is BetRule.BELOW_REVS_PER_S:
            assert closed.revs_per_s is not None and closed.revs_per_s < BELOW


def _speed(spin: int, t: float, revs: float, drop: float | None) -> BallSpeed:
    return BallSpeed(spin, round(t * 25), t, revs, drop)


def test_the_judge_fires_once_a_spin_with_the_rule_that_held_first() -> None:
    judge = NoMoreBets(below_revs_per_s=1.0, before_drop_s=2.0)
    assert judge.feed(_speed(1, 1.0, 2.0, None)) is None
    assert judge.feed(_speed(1, 1.25, 1.9, 4.0)) is None
    closed = judge.feed(_speed(1, 1.5, 1.8, 1.9))
    assert closed == BetsClosed(1, 38, 1.5, BetRule.BEFORE_DROP_S, 1.8, 1.9)
    assert judge.feed(_speed(1, 1.75, 0.9, 1.0)) is None
    assert judge.feed(PhaseChange(1, Phase.BOUNCING, 50, 2.0)) is None
    # The next spin is judged afresh.
    closed = judge.feed(_speed(2, 9.0, 0.95, None))
    assert closed is not None and closed.rule is BetRule.BELOW_REVS_PER_S


def test_a_ball_that_drops_before_any_rule_held_closes_betting_at_the_drop() -> None:
    judge = NoMoreBets(below_revs_per_s=0.4)  # below this wheel's drop speed
    assert judge.feed(_speed(1, 3.0, 0.7, 0.2)) is None
    closed = judge.feed(PhaseChange(1, Phase.BOUNCING, 80, 3.2))
    assert closed == BetsClosed(1, 80, 3.2, BetRule.BALL_DROPPED, 0.7, 0.2)
    # A spin never seen on the track has no speed to journal.
    closed = judge.feed(PhaseChange(2, Phase.BOUNCING, 200, 8.0))
    assert closed is not None and closed.revs_per_s is None


@pytest.mark.parametrize(
    ("below", "before"), [(None, None), (0.0, None), (None, -1.0), (float("nan"), 1.0)]
)
def test_rules_that_cannot_close_betting_are_refused(
    below: float | None, before: float | None
) -> None:
    with pytest.raises(BetRulesInvalid):
        NoMoreBets(below_revs_per_s=below, before_drop_s=before)


def test_cli_prints_the_speed_lines_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spin = make_spin(3, Scenario.VALID, resolution=(320, 240), fps=25.0)
    clip = tmp_path / "3.mkv"
    write_ffv1(clip, (frame for _, _, frame in spin.frames()), spin.truth.fps)
    assert main(["wheel", "detect", str(clip), "--json", "--speeds"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    speeds = [line for line in lines if line["type"] == "ball_speed"]
    assert (
        speeds and {"spin", "frame", "time", "revs_per_s", "expected_drop_in_s"} <= speeds[0].keys()
    )
    assert all(line["schema"] == 1 for line in speeds)
    assert main(["wheel", "detect", str(clip), "--json"]) == 0
    assert [json.loads(line)["type"] for line in capsys.readouterr().out.splitlines()] == ["result"]

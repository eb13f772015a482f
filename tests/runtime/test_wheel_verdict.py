"""Two sources, one verdict (issue 16, part 3): the same number settles, two
numbers hold for a pit boss, one alone settles after the wait, flagged."""

from __future__ import annotations

from dealer_station.wheel_verdict import Disagree, Settle, judge

BOTH = ("sensor", "camera")  # the sensor primary


def test_one_source_settles_at_once() -> None:
    assert judge(("camera",), {"camera": 17}, waited_out=False) == Settle(17, "camera", "single")
    assert judge(("camera",), {}, waited_out=True) is None


def test_the_same_number_from_both_settles_named_by_the_primary() -> None:
    agreed = judge(BOTH, {"camera": 5, "sensor": 5}, waited_out=False)
    assert agreed == Settle(5, "sensor", "agreed")


def test_two_numbers_hold_the_round_never_pick_one() -> None:
    verdict = judge(BOTH, {"camera": 5, "sensor": 24}, waited_out=True)
    assert verdict == Disagree({"sensor": 24, "camera": 5})


def test_one_reading_waits_for_the_other_then_settles_flagged() -> None:
    assert judge(BOTH, {"camera": 0}, waited_out=False) is None
    alone = judge(BOTH, {"camera": 0}, waited_out=True)
    assert alone == Settle(0, "camera", "camera_only", "sensor")
    assert judge(BOTH, {"sensor": 36}, waited_out=True) == Settle(
        36, "sensor", "sensor_only", "camera"
    )

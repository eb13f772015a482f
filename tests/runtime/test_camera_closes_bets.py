"""No more bets from the camera (issue 16, part 1), through the real camera
bridge into a running table: a recorded spin (a real video file) plays while
betting is open; the ball's speed, under the configured rule, closes betting
itself, journaling the rule and what was measured as fields; the camera's
number then settles the round. Where the croupier closed first, the camera
adds nothing. Whether the rule fires at the right moment of a spin is
tests/wheel/test_no_more_bets.py's, on rendered spins of known speeds."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.camera_bridge import CameraBridge
from dealer_station.config import CameraConfig, TableConfig
from dealer_station.journal import Journal, Record
from dealer_station.payloads import Topics
from dealer_station.round_view import table_view

ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "tests" / "fixtures" / "wheel" / "valid-190"
TABLE = "rou"
# Faster than any ball on a track: the rule holds at the camera's first measure.
EVERY_BALL = 50.0


def _events(actor: TableActor, kind: str) -> list[Record]:
    return [
        r for r in actor.journal.records(TABLE, kind="event") if r.body.get("type") == kind
    ]


def _play(tmp_path: Path, close_first: bool) -> TableActor:
    config = TableConfig(id=TABLE, game="roulette")
    actor = TableActor(config, "test", Journal(tmp_path / "j.sqlite3"), Topics("p", "t", TABLE))
    actor.recover()
    camera = CameraConfig(
        source=str(CLIP.with_suffix(".mkv")), no_more_bets={"below_revs_per_s": EVERY_BALL}
    )

    async def spin() -> None:
        task = asyncio.create_task(actor.run())
        assert (await actor.command("api", {"type": "round_open", "round": "r1"})).accepted
        if close_first:
            assert (await actor.command("console", {"type": "bets_closed"})).accepted
        bridge = CameraBridge(actor, camera)
        bridge.start()
        try:
            deadline = time.monotonic() + 90
            while not _events(actor, "wheel_result"):
                assert time.monotonic() < deadline, "the camera's result never came"
                await asyncio.sleep(0.05)
        finally:
            await asyncio.to_thread(bridge.close)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    asyncio.run(spin())
    return actor


def test_the_ball_s_speed_closes_betting_and_the_journal_says_why(tmp_path: Path) -> None:
    actor = _play(tmp_path, close_first=False)
    [closed] = _events(actor, "bets_closed")
    assert (closed.source, closed.status) == ("camera", "accepted")
    body = closed.body
    assert body["reason"] == "below_revs_per_s" and body["threshold"] == EVERY_BALL
    assert 0 < body["revs_per_s"] < EVERY_BALL and body["id"] == "spin:1"
    [result] = _events(actor, "wheel_result")
    truth = json.loads(CLIP.with_suffix(".json").read_text())["number"]
    assert (result.status, result.body["number"]) == ("accepted", truth)
    assert closed.seq < result.seq
    view = table_view(actor.state)  # type: ignore[arg-type]
    assert view["table"]["closed_by"] == "below_revs_per_s"


def test_betting_the_croupier_closed_is_not_closed_again(tmp_path: Path) -> None:
    actor = _play(tmp_path, close_first=True)
    assert [r.source for r in _events(actor, "bets_closed")] == ["console"]
    state = actor.state
    assert state is not None and state.round_over

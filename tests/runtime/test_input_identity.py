"""A device's identity for an input travels as fields and is journaled by one
writer (issue 14, step 5).

The camera's result was named ``spin:<n>:confidence:<c>``, its confidence a
piece of text inside the id; it is now the spin's id and a ``confidence`` of its
own, which a regulator reads from the journal as a number. The parts are real:
the camera bridge and the detector on a recorded spin, a roulette table's actor,
its journal on disk, and a second actor rebuilt from that journal.
"""

from __future__ import annotations

import ast
import asyncio
import json
import math
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_station.actor import TableActor
from dealer_station.camera_bridge import CameraBridge
from dealer_station.config import CameraConfig, TableConfig
from dealer_station.games.events import WHEEL_READING_KEYS, WheelResult
from dealer_station.games.roulette import RouletteRound
from dealer_station.input_identity import CardIdentity, SpinReading, read_card_identity
from dealer_station.journal import REFUSED_ON_REPLAY, Journal, Record
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command

TABLE = "rou"
ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "tests" / "fixtures" / "wheel" / "valid-190"


def _roulette(path: Path) -> TableActor:
    config = TableConfig(id=TABLE, game="roulette", recovery="resume")
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", TABLE))
    actor.recover()
    return actor


def _wait_for_spin(actor: TableActor) -> None:
    assert actor.handle(Command("api", {"type": "round_open", "round": "r1"})).accepted  # type: ignore[union-attr]
    assert actor.handle(Command("api", {"type": "bets_closed"})).accepted  # type: ignore[union-attr]


def _camera_results(actor: TableActor) -> list[Record]:
    return [r for r in actor.journal.records(TABLE, kind="event") if r.source == "camera"]


def _spin_of_the_clip(actor: TableActor) -> None:
    """Play the recorded spin through the camera bridge into the running table,
    until the table has journaled the camera's result."""

    async def watch() -> None:
        task = asyncio.create_task(actor.run())
        bridge = CameraBridge(actor, CameraConfig(source=str(CLIP.with_suffix(".mkv"))))
        bridge.start()
        try:
            deadline = time.monotonic() + 60
            while not _camera_results(actor):
                assert time.monotonic() < deadline, "the camera's result never came"
                await asyncio.sleep(0.05)
        finally:
            await asyncio.to_thread(bridge.close)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    asyncio.run(watch())


def test_the_camera_journals_its_spin_and_its_confidence_as_fields(tmp_path: Path) -> None:
    truth = json.loads(CLIP.with_suffix(".json").read_text())
    number = truth["number"]
    actor = _roulette(tmp_path / "journal.sqlite3")
    _wait_for_spin(actor)
    _spin_of_the_clip(actor)

    [record] = _camera_results(actor)
    assert record.status == "accepted"
    body = record.body
    confidence = body.pop("confidence")
    for key in WHEEL_READING_KEYS:  # the throw's facts: their own test below
        body.pop(key)
    # The first spin a fresh detector saw, named by its count and nothing else.
    assert body == {"v": 1, "type": "wheel_result", "number": number, "id": "spin:1"}
    # A number, as sure as the detector can say, to the journal's 3 digits.
    assert isinstance(confidence, float)
    assert 0 < confidence <= 1
    assert confidence == round(confidence, 3)
    # A regulator's query reads it without parsing any text.
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        rows = db.execute(
            "SELECT json_extract(body, '$.confidence') FROM journal"
            " WHERE source = 'camera' AND kind = 'event'"
        ).fetchall()
    assert rows == [(confidence,)]
    actor.journal.close()


def test_a_result_journaled_with_its_confidence_replays_after_a_restart(tmp_path: Path) -> None:
    """``confidence`` is a key the journal adds around the event, like ``id``:
    the rules never see it, and a start rebuilds the round the camera settled."""
    path = tmp_path / "journal.sqlite3"
    actor = _roulette(path)
    _wait_for_spin(actor)
    outcome = actor.handle(Command("camera", WheelResult(17), identity=SpinReading(2, 0.87654)))
    assert outcome is not None and outcome.accepted
    actor.journal.close()

    restarted = _roulette(path)
    assert list(restarted.journal.records(TABLE, kind=REFUSED_ON_REPLAY)) == []
    assert restarted.alarms.active == []
    assert restarted.state is not None and restarted.state.round_over
    assert isinstance(restarted.state.round, RouletteRound)
    assert restarted.state.round.number == 17
    restarted.journal.close()


def test_a_refused_result_carries_its_reading_in_the_journal_and_the_echo(
    tmp_path: Path,
) -> None:
    """A result the table refuses (no round waits for a spin) is journaled
    with the same keys, and the published refusal echoes the input as journaled:
    the spin and the confidence are no secret, the number was on the wheel."""
    actor = _roulette(tmp_path / "journal.sqlite3")
    outcome = actor.handle(Command("camera", WheelResult(17), identity=SpinReading(4, 0.91249)))
    assert outcome is not None and not outcome.accepted
    expected = {"v": 1, "type": "wheel_result", "number": 17, "id": "spin:4", "confidence": 0.912}

    [record] = _camera_results(actor)
    assert (record.status, record.body) == ("rejected", expected)
    echoed: list[dict[str, Any]] = [
        json.loads(m.payload)["data"]["event"]
        for m in actor.journal.outbox(TABLE, 0, 100)
        if json.loads(m.payload)["type"] == "rejected"
    ]
    assert echoed == [expected]
    actor.journal.close()


def _wheel_steps(start: int, end: int) -> int:
    """Pockets from ``start`` to ``end`` clockwise, by the wheel's order in
    docs/rules.md (written out here, so the test does not lean on the code's)."""
    # fmt: off
    order = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24,
             16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]
    # fmt: on
    return (order.index(end) - order.index(start)) % 37


def test_the_camera_journals_what_it_measured_of_the_throw(tmp_path: Path) -> None:
    """Issue 15: rotor speed and direction, ball direction and revolutions, the
    release pocket and the landing distance are fields of the journaled result,
    each a value a regulator's query reads; they are the camera's own measures
    of the clip's throw, compared here with the renderer's truth."""
    truth = json.loads(CLIP.with_suffix(".json").read_text())
    actor = _roulette(tmp_path / "journal.sqlite3")
    _wait_for_spin(actor)
    _spin_of_the_clip(actor)

    [record] = _camera_results(actor)
    body = record.body
    assert record.status == "accepted"
    assert (body["rotor_direction"], body["ball_direction"]) == (
        truth["rotor_direction"],
        truth["ball_direction"],
    )
    assert abs(body["ball_revolutions"] - truth["revolutions"]) < 0.5
    # The renderer's rotor slows by 0.01 rev/s^2 from truth's rpm over the clip's 5 s.
    assert abs(body["rotor_rpm"] - truth["rotor_rpm"]) < 3
    # Within a pocket either way of the truth's, on the wheel (docs/wheel.md, "The release").
    release = body["release_pocket"]
    assert min(_wheel_steps(release, truth["release_pocket"]),
               _wheel_steps(truth["release_pocket"], release)) <= 1
    # Counted the way the rotor turns: clockwise here, so the wheel order's way.
    assert truth["rotor_direction"] == "clockwise"
    assert body["landing_distance"] == _wheel_steps(release, truth["number"])
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        rows = db.execute(
            "SELECT json_extract(body, '$.release_pocket'), json_extract(body, '$.rotor_rpm')"
            " FROM journal WHERE source = 'camera' AND kind = 'event'"
        ).fetchall()
    assert rows == [(release, body["rotor_rpm"])]
    actor.journal.close()


def test_a_result_with_its_reading_replays_and_a_hand_entered_number_has_none(
    tmp_path: Path,
) -> None:
    """The reading's keys are the journal's, like the confidence: a start replays
    the round the camera settled; a number a person entered carries none of them."""
    path = tmp_path / "journal.sqlite3"
    actor = _roulette(path)
    _wait_for_spin(actor)
    reading = SpinReading(
        2, 0.9, rotor_rpm=24.5, rotor_direction="clockwise", ball_direction="counterclockwise",
        ball_revolutions=5.25, release_pocket=26, landing_distance=3,
    )
    outcome = actor.handle(Command("camera", WheelResult(19), identity=reading))
    assert outcome is not None and outcome.accepted
    _wait_for_spin_again(actor)
    assert actor.handle(Command("api", {"type": "wheel_result", "number": 4})).accepted  # type: ignore[union-attr]
    actor.journal.close()

    restarted = _roulette(path)
    assert list(restarted.journal.records(TABLE, kind=REFUSED_ON_REPLAY)) == []
    assert restarted.alarms.active == []
    assert isinstance(restarted.state.round, RouletteRound)  # type: ignore[union-attr]
    assert restarted.state.round.number == 4  # type: ignore[union-attr]
    camera, croupier = [
        r.body for r in restarted.journal.records(TABLE, kind="event")
        if r.body["type"] == "wheel_result"
    ]
    assert camera == {
        "v": 1, "type": "wheel_result", "number": 19, "id": "spin:2", "confidence": 0.9,
        "rotor_rpm": 24.5, "rotor_direction": "clockwise", "ball_direction": "counterclockwise",
        "ball_revolutions": 5.25, "release_pocket": 26, "landing_distance": 3,
    }
    assert croupier == {"v": 1, "type": "wheel_result", "number": 4}
    restarted.journal.close()


def _wait_for_spin_again(actor: TableActor) -> None:
    assert actor.handle(Command("api", {"type": "round_open", "round": "r2"})).accepted  # type: ignore[union-attr]
    assert actor.handle(Command("api", {"type": "bets_closed"})).accepted  # type: ignore[union-attr]


@pytest.mark.parametrize("confidence", [math.nan, math.inf, -math.inf])
def test_a_reading_that_is_not_a_number_is_refused_before_the_journal(
    confidence: float,
) -> None:
    # json.dumps would write NaN or Infinity, which is not JSON: SQLite's json
    # functions (recall, the shoe's remembered cards) would fail on the record.
    with pytest.raises(ValueError, match="not a number"):
        SpinReading(3, confidence)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rotor_rpm", math.nan, "not a number"),
        ("ball_revolutions", math.inf, "not a number"),
        ("release_pocket", 37, "not 0-36"),
        ("release_pocket", -1, "not 0-36"),
        ("release_pocket", True, "not 0-36"),  # a bool is an int to Python, not to a regulator
        ("landing_distance", 17.0, "not 0-36"),
        ("rotor_direction", "cw", "rotor_direction"),
        ("ball_direction", "", "ball_direction"),
    ],
)
def test_a_throw_measure_that_means_nothing_is_refused_before_the_journal(
    field: str, value: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        SpinReading(3, 0.9, **{field: value})  # type: ignore[arg-type]


def test_only_a_framed_shoes_three_numbers_read_back_as_a_card() -> None:
    assert read_card_identity("305419896:2:17") == CardIdentity(305419896, 2, 17)
    assert read_card_identity("4294967295:65535:65535") == CardIdentity(2**32 - 1, 65535, 65535)
    for foreign in (
        "b:1",  # a hand-made journal's
        "7:17",  # two numbers: no insertion
        "1:2:3:4",
        "spin:3",
        "spin:3:confidence:0.912",
        "-1:2:3",
        "1: 2:3",
        "\u0661:\u0662:\u0663",  # Arabic-Indic digits: int() reads them, a shoe never sends them
        "9" * 5000 + ":1:1",  # int() refuses a number this long rather than say "no card"
        "",
    ):
        assert read_card_identity(foreign) is None, foreign


def _spellings(tree: ast.AST) -> list[str]:
    """Where a module writes a body's ``id`` itself, joins three values or
    splits a text at colons (a card's name), or spells a camera result's."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == "id"
        ):
            found.append(f"line {node.lineno}: [\"id\"] =")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("split", "rsplit", "partition")
            and any(isinstance(a, ast.Constant) and a.value == ":" for a in node.args)
        ):
            found.append(f"line {node.lineno}: .{node.func.attr}(\":\")")
        elif (
            isinstance(node, ast.JoinedStr)
            and sum(isinstance(v, ast.FormattedValue) for v in node.values) >= 3
            and all(v.value == ":" for v in node.values if isinstance(v, ast.Constant))
        ):
            found.append(f"line {node.lineno}: an f-string of values joined by colons")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
            "spin:" in node.value or "confidence:" in node.value
        ):
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


def test_the_journals_names_for_inputs_are_spelled_in_one_module() -> None:
    """"One fact in one place" for identities: input_identity.py writes a
    device's name into the journal and reads a card's back; no other module of
    the station, the drivers or vision builds or parses one. (The rules in
    dealer_station/games never see an identity, the envelope is dropped before
    them, and they split texts of their own: payout ratios such as "3:2".)"""
    own = ROOT / "dealer_station" / "input_identity.py"
    rules = ROOT / "dealer_station" / "games"
    spelled = {
        str(path.relative_to(ROOT)): found
        for top in ("dealer_station", "drivers", "vision", "firmware_proto")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path != own
        and rules not in path.parents
        and (found := _spellings(ast.parse(path.read_text(), str(path))))
    }
    assert spelled == {}
    assert _spellings(ast.parse(own.read_text()))  # the rule sees the one that spells them

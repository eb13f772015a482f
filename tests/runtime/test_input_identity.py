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
from dealer_station.games.events import WheelResult
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
    number = json.loads(CLIP.with_suffix(".json").read_text())["number"]
    actor = _roulette(tmp_path / "journal.sqlite3")
    _wait_for_spin(actor)
    _spin_of_the_clip(actor)

    [record] = _camera_results(actor)
    assert record.status == "accepted"
    body = record.body
    confidence = body.pop("confidence")
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


@pytest.mark.parametrize("confidence", [math.nan, math.inf, -math.inf])
def test_a_reading_that_is_not_a_number_is_refused_before_the_journal(
    confidence: float,
) -> None:
    # json.dumps would write NaN or Infinity, which is not JSON: SQLite's json
    # functions (recall, the shoe's remembered cards) would fail on the record.
    with pytest.raises(ValueError, match="not a number"):
        SpinReading(3, confidence)


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

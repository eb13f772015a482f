"""A start from the table's snapshot builds the same table as a start that
replays the whole journal (docs/recovery.md): the snapshot saves the replay's
time and changes nothing else. A snapshot the code cannot trust is ignored."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import closing
from dataclasses import fields
from pathlib import Path

import pytest

from dealer_station import actor as actor_module
from dealer_station import snapshot
from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.games.events import DealCard, ReleaseHold, WheelResult
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command, DeviceChange

GAMES = ("baccarat", "blackjack", "roulette")


def _actor(path: Path, game: str, **table: object) -> TableActor:
    config = TableConfig.model_validate({"id": "t", "game": game, "recovery": "resume", **table})
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", "t"))
    actor.recover()
    return actor


def _source(event: object) -> str:
    if isinstance(event, DealCard):
        return "shoe"
    return "camera" if isinstance(event, WheelResult) else "croupier"


def _play(
    actor: TableActor, autoplay: Autoplay, inputs: int, snapshot_at: frozenset[int] = frozenset()
) -> None:
    """Feed the robot's inputs, snapshots taken after those numbered."""
    for n in range(inputs):
        event = autoplay.next_event(actor.state)
        actor.handle(Command(_source(event), event))
        if n in snapshot_at:
            actor.save_snapshot()


def _assert_same_table(a: TableActor, b: TableActor, *, restarted_alike: bool = True) -> None:
    assert a.state is not None and b.state is not None
    for f in fields(a.state):
        if f.name != "setup":  # the engine objects compare by identity
            assert getattr(a.state, f.name) == getattr(b.state, f.name), f.name
    assert a.state.setup.variant == b.state.setup.variant
    assert a.state.setup.decks == b.state.setup.decks
    assert a.state.next_step() == b.state.next_step()
    assert a.settled == b.settled
    assert a.devices == b.devices
    assert a.msg_seq == b.msg_seq
    stats_a, stats_b = a.stats(), b.stats()
    assert (stats_a and stats_a.stats) == (stats_b and stats_b.stats)
    if restarted_alike:  # what the journal holds; rounds played since carry their own times
        assert a.last_result == b.last_result


def _without_snapshot(path: Path, copy: Path) -> None:
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)
        target.execute("DELETE FROM snapshot")
        target.commit()


@pytest.mark.parametrize("game", GAMES)
def test_a_start_from_the_snapshot_is_the_table_a_full_replay_builds(
    tmp_path: Path, game: str
) -> None:
    path = tmp_path / "j.sqlite3"
    first = _actor(path, game)
    robot = Autoplay(game, first.config.variant, 7, "t", deals_cards=True)
    # Snapshots mid-round as well as between rounds; a device's record before
    # the last one and another's after it; the records after it are what the
    # start replays.
    _play(first, robot, 100)
    first.handle(DeviceChange("camera", True, "plugged in"))
    _play(first, robot, 600, snapshot_at=frozenset({50, 333}))
    first.handle(DeviceChange("shoe", False, "unplugged"))
    _play(first, robot, 40)
    first.journal.close()
    _without_snapshot(path, tmp_path / "full.sqlite3")

    from_snapshot = _actor(path, game)
    full = _actor(tmp_path / "full.sqlite3", game)
    assert from_snapshot.recovered_from > 0 and full.recovered_from == 0
    assert from_snapshot.recovered_from < from_snapshot.journal.last_seq("t")
    _assert_same_table(from_snapshot, full)
    # And they go on alike: the same inputs get the same answers. The new robot's
    # shoe is not the table's: an impossible card holds the round, and a pit
    # boss releases it.
    robot = Autoplay(game, first.config.variant, 11, "t", deals_cards=True)
    for _ in range(200):
        assert from_snapshot.state is not None
        held = from_snapshot.state.next_step().kind == "pit_boss"
        event = ReleaseHold() if held else robot.next_event(from_snapshot.state)
        answer = from_snapshot.handle(Command(_source(event), event))
        assert full.handle(Command(_source(event), event)) == answer
    _assert_same_table(from_snapshot, full, restarted_alike=False)


@pytest.mark.parametrize(
    ("column", "value"),
    [("format", "pickle5:written-by-other-code"), ("state", b"not a pickle")],
)
def test_a_snapshot_the_code_cannot_trust_is_ignored_for_the_whole_journal(
    tmp_path: Path, column: str, value: object, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "j.sqlite3"
    first = _actor(path, "baccarat")
    _play(
        first,
        Autoplay("baccarat", None, 3, "t", deals_cards=True),
        300,
        snapshot_at=frozenset({200}),
    )
    first.journal.close()
    _without_snapshot(path, tmp_path / "full.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE snapshot SET {column} = ?", (value,))

    with caplog.at_level(logging.INFO, logger="dealer_station.actor"):
        after = _actor(path, "baccarat")
    assert after.recovered_from == 0
    assert "replaying the journal" in caplog.text
    _assert_same_table(after, _actor(tmp_path / "full.sqlite3", "baccarat"))


def test_a_running_table_takes_its_snapshot_after_enough_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor_module, "SNAPSHOT_DELAY_S", 0.01)
    path = tmp_path / "j.sqlite3"

    async def run() -> int:
        config = TableConfig.model_validate({"id": "t", "game": "baccarat"})
        table = TableActor(
            config, "test", Journal(path), Topics("p", "test", "t"), snapshot_every=25
        )
        table.recover()
        task = asyncio.create_task(table.run())
        robot = Autoplay("baccarat", None, 5, "t", deals_cards=True)
        for _ in range(30):
            event = robot.next_event(table.state)
            await table.command(_source(event), event)
        await asyncio.sleep(0.2)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        saved = table.journal.snapshot("t")
        assert saved is not None, "no snapshot after 30 records with snapshot_every=25"
        assert saved[0] == table.journal.last_seq("t")  # nothing came after it here
        table.journal.close()
        return saved[0], table.stats_at

    seq, stats_at = asyncio.run(run())
    after = _actor(path, "baccarat")
    assert after.recovered_from == seq
    assert after.stats_at == stats_at != ""  # when the roads last changed, not the restart


def test_the_format_changes_with_the_tables_own_rule_file(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('game = "blackjack"\nextends = "standard-blackjack"\n')
    before = snapshot.code_format(str(rules))
    rules.write_text('game = "blackjack"\nextends = "standard-blackjack"\ndecks = 6\n')
    assert snapshot.code_format(str(rules)) != before
    # A shipped variant by name: the package's own files decide.
    assert snapshot.code_format("live-blackjack") == snapshot.code_format(None)

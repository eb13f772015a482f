"""The fields a table's log records carry for journald (``TABLE=``, ``ROUND=``,
dealer_station/journald_native.py): the table, and the round while one is in
play, against a real journal."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.games.events import OpenRound, VoidRound
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def table(path: Path) -> TableActor:
    config = TableConfig.model_validate(
        {"id": "t", "game": "blackjack", "variant": "blackjack-3-position"}
    )
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", "t"))
    actor.recover()
    return actor


class NotAnEvent:
    """What no table handles: the actor's loop logs the failure and goes on."""


def test_a_table_s_records_name_the_round_only_while_it_is_in_play(tmp_path: Path) -> None:
    actor = table(tmp_path / "j.sqlite3")
    assert actor.log_fields() == {"table": "t"}
    outcome = actor.handle(Command("api", OpenRound("r7")))
    assert outcome is not None and outcome.accepted
    assert actor.log_fields() == {"table": "t", "round": "r7"}
    outcome = actor.handle(Command("api", VoidRound("a test")))
    assert outcome is not None and outcome.accepted
    assert actor.log_fields() == {"table": "t"}


def test_a_failure_in_a_round_is_logged_with_its_table_and_round(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    actor = table(tmp_path / "j.sqlite3")
    actor.handle(Command("api", OpenRound("r7")))
    with caplog.at_level(logging.ERROR, logger="dealer_station.actor"):
        actor._take(Command("api", NotAnEvent()))  # type: ignore[arg-type]
    (record,) = caplog.records
    assert record.getMessage() == "table t failed to handle a Command from api"
    assert (getattr(record, "table", None), getattr(record, "round", None)) == ("t", "r7")

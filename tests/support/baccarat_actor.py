"""A baccarat table's actor on a real journal, rebuilt from it as a start
does, and inputs sent to it the way the table's queue hands them over."""

from __future__ import annotations

from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def baccarat_actor(journal_path: Path, **table: object) -> TableActor:
    config = TableConfig.model_validate({"id": "bac", "game": "baccarat", **table})
    actor = TableActor(config, "test", Journal(journal_path), Topics("p", "test", "bac"))
    actor.recover()
    return actor


def send_accepted(actor: TableActor, source: str, *events: dict[str, object]) -> None:
    for event in events:
        outcome = actor.handle(Command(source, event))
        assert outcome is not None and outcome.accepted, outcome

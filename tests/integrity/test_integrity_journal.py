"""The monitor reading a stored journal (``integrity_journal``, as
``dealer-station integrity`` and the station's watch read a table's history):
a real table's actor writes it, the monitor attributes each spin to the dealer
of its round."""

from __future__ import annotations

from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.games.events import ChangeDealer, CloseBets, OpenRound, WheelResult
from dealer_station.input_identity import SpinReading
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import observe
from dealer_station.integrity_journal import records, round_events
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def test_each_stored_spin_counts_for_the_dealer_of_its_round(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    config = TableConfig.model_validate({"id": "rou", "game": "roulette"})
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", "rou"))
    actor.recover()
    # docs/decisions.md, "Dealer sign-on": a sign-on during a round deals from
    # the next round; Ana's round r1 stays hers though Ben signs on before its spin.
    inputs = [
        Command("croupier", ChangeDealer("Ana P.")),
        Command("croupier", OpenRound("r1")),
        Command("croupier", CloseBets()),
        Command("croupier", ChangeDealer("Ben K.")),
        Command("camera", WheelResult(7), identity=SpinReading(1, 0.9, landing_distance=3)),
        Command("croupier", OpenRound("r2")),
        Command("croupier", CloseBets()),
        Command("camera", WheelResult(9), identity=SpinReading(2, 0.9, landing_distance=5)),
    ]
    for item in inputs:
        outcome = actor.handle(item)
        assert outcome is not None and outcome.accepted, outcome
    actor.journal.close()

    reader = Journal(path, read_only=True)
    monitor = Monitor()
    caused = round_events(reader, "rou")
    for r in records(reader, "rou"):
        events = [e for _, e in caused.get(r.seq, ())]
        monitor.feed_all(observe(r.table, r.at, r.source, r.kind, r.status, r.reason, r.body,
                                 events))  # fmt: skip
    reader.close()
    (report,) = monitor.report(0.01).tables
    throws = {(s.subject, s.sample) for s in report.skipped if s.test == "wheel.signature"}
    assert throws == {("rou, dealer Ana P.", 1), ("rou, dealer Ben K.", 1)}

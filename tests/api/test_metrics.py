"""``/metrics`` by Prometheus's conventions, read by Prometheus's own parser from
a real station: a framed shoe simulator on a real pseudo-terminal, a real
mosquitto, the HTTP server on a real socket. Expected counts come from what the
test did (one round, six cards), times from the MQTT payloads and the clock
around the scrape, never from the station's own figures."""

from __future__ import annotations

import importlib.metadata
import json
import platform
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from prometheus_client import CONTENT_TYPE_LATEST
from support.broker import Broker, Subscriber
from support.scrape import families, value
from support.station_rig import Rig, running, shoe_tables, station_config

from drivers.shoe.simulator import FramedShoeSimulator

# Player 2+3 = 5 draws a 7; Banker K+6 = 6 draws on a third card of 6-7 and
# makes 8 (docs/rules.md): six cards, one settlement.
ORDER = ["2S", "KD", "3H", "6C", "7D", "2C"]
HISTOGRAM = "dealer_station_card_to_puback_seconds"


@pytest.fixture(scope="module")
def sim() -> Iterator[FramedShoeSimulator]:
    with FramedShoeSimulator(decks=8, seed=7) as shoe:
        yield shoe


@pytest.fixture(scope="module")
def rig(
    module_broker: Broker, sim: FramedShoeSimulator, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Rig]:
    work = tmp_path_factory.mktemp("station")
    config = station_config(work, module_broker.port, shoe_tables(sim.port))
    with running(config) as r:
        r.wait_until(lambda: r.get("/readyz").status_code == 200)
        yield r


def scrape(rig: Rig) -> str:
    answer = rig.get("/metrics", "viewer")
    assert answer.status_code == 200
    return answer.text


def test_the_exposition_is_prometheus_own(rig: Rig) -> None:
    answer = rig.get("/metrics", "viewer")
    assert answer.headers["content-type"] == CONTENT_TYPE_LATEST
    found = families(answer.text)
    for family in found.values():
        if family.type == "counter":
            assert all(s.name.endswith(("_total", "_created")) for s in family.samples), family
    # What used to be one family of mixed units or meaningless sums is one family each.
    for name in (
        "dealer_station_rounds_opened",
        "dealer_station_rounds_settled",
        "dealer_station_rounds_voided",
        "dealer_station_shoe_link_received_bytes",
        "dealer_station_shoe_link_frames",
    ):
        assert found[name].type == "counter"
        assert {tuple(s.labels) for s in found[name].samples} <= {("table",)}, name
    assert "dealer_station_shoe_link" not in found
    [build] = found["dealer_station_build_info"].samples
    assert build.labels == {
        "version": importlib.metadata.version("dealer-station"),
        "schema": "1",  # every payload's "v" (docs/mqtt.md)
        "python": platform.python_version(),
    }
    assert value(answer.text, "process_resident_memory_bytes") > 0
    assert found["python_info"].samples


def test_a_round_from_the_shoe_is_counted_and_each_card_timed_to_its_puback(
    rig: Rig, sim: FramedShoeSimulator, module_broker: Broker
) -> None:
    before = scrape(rig)
    sub = Subscriber(module_broker.port, "dealer-station/test/bac/round/event")
    try:
        sim.cards_left = list(reversed(ORDER))
        rig.post("/tables/bac/round/open", "croupier")
        rig.post("/tables/bac/round/close-bets", "croupier")
        assert value(scrape(rig), "dealer_station_round_open", table="bac") == 1
        for _ in ORDER:
            rig.wait_for_step("bac", "card")
            sim.draw()
            rig.wait_until(sim.all_acknowledged)
        rig.wait_for_step("bac", "settled")
        settled = sub.wait_for(lambda ms: any(b"round_settled" in m.payload for m in ms))
        rig.wait_until(
            lambda: value(scrape(rig), f"{HISTOGRAM}_count", table="bac")
            == value(before, f"{HISTOGRAM}_count", table="bac") + len(ORDER)
        )
    finally:
        sub.close()
    after = scrape(rig)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, table="bac", **labels) - value(
            before, name, table="bac", **labels
        )

    assert grew("dealer_station_rounds_opened_total") == 1
    assert grew("dealer_station_rounds_settled_total") == 1
    assert grew("dealer_station_rounds_voided_total") == 0
    assert grew("dealer_station_cards_total", kind="dealt") == len(ORDER)
    assert grew("dealer_station_shoe_link_frames_total") >= len(ORDER)
    assert grew("dealer_station_shoe_link_received_bytes_total") > grew(
        "dealer_station_shoe_link_frames_total"
    )
    assert value(after, "dealer_station_round_open", table="bac") == 0
    [event] = [json.loads(m.payload) for m in settled if b"round_settled" in m.payload]
    assert value(after, "dealer_station_last_settled_timestamp_seconds", table="bac") == (
        datetime.fromisoformat(event["at"]).timestamp()
    )
    buckets = [
        (float(s.labels["le"]), s.value)
        for s in families(after)[HISTOGRAM].samples
        if s.name == f"{HISTOGRAM}_bucket" and s.labels["table"] == "bac"
    ]
    counts = [n for _, n in buckets]
    assert counts == sorted(counts) and buckets[-1] == (float("inf"), value(
        after, f"{HISTOGRAM}_count", table="bac"))
    assert value(after, f"{HISTOGRAM}_sum", table="bac") > value(before, f"{HISTOGRAM}_sum",
                                                                 table="bac")
    # The roulette table has no shoe: no card of it is timed.
    assert not [s for s in families(after)[HISTOGRAM].samples if s.labels["table"] == "rou"]


def test_the_journal_size_is_the_database_and_its_log(rig: Rig) -> None:
    assert rig.station is not None
    db = Path(rig.station.journal.path)
    wal = db.with_name(db.name + "-wal")
    at_least = db.stat().st_size
    size = value(scrape(rig), "dealer_station_journal_size_bytes")
    assert at_least <= size <= db.stat().st_size + wal.stat().st_size
    assert size > at_least  # the log holds the test's records: it is counted too


def test_the_oldest_unacknowledged_event_ages_while_the_broker_is_away(
    rig: Rig, module_broker: Broker
) -> None:
    age = "dealer_station_mqtt_oldest_unacked_age_seconds"
    assert value(scrape(rig), age, table="rou") == 0
    module_broker.stop()
    try:
        connected = "dealer_station_mqtt_connected"
        rig.wait_until(lambda: value(scrape(rig), connected, table="rou") == 0)
        sent = time.time()
        rig.command("rou", {"type": "round_open", "round": "away"}, source="api")
        journaled = time.time()
        time.sleep(0.05)
        asked = time.time()
        text = scrape(rig)
        answered = time.time()
        assert value(text, "dealer_station_mqtt_backlog_messages", table="rou") >= 1
        # Journaled between sent and journaled, read between asked and answered;
        # the record's time is kept to the millisecond.
        assert asked - journaled - 0.001 <= value(text, age, table="rou")
        assert value(text, age, table="rou") <= answered - sent + 0.001
    finally:
        module_broker.start()
    rig.wait_until(lambda: value(scrape(rig), age, table="rou") == 0, timeout=30)
    assert value(scrape(rig), "dealer_station_mqtt_backlog_messages", table="rou") == 0

"""Which broker of ``[mqtt] brokers`` each table is on, in ``/metrics``: two
real mosquittos, the first killed, the station on the second after it, and
still there once the first is back (docs/mqtt.md, Failover)."""

from __future__ import annotations

import time
from pathlib import Path

from support.broker import Broker
from support.scrape import families, value
from support.station_rig import Rig, running, station_config

BROKER = "dealer_station_mqtt_broker"


def _on(rig: Rig) -> dict[str, float]:
    """The brokers the gauge names for table "rou", with their values."""
    text = rig.get("/metrics", "viewer").text
    family = families(text).get(BROKER)
    samples = family.samples if family is not None else []
    return {s.labels["broker"]: s.value for s in samples if s.labels["table"] == "rou"}


def test_the_gauge_names_the_broker_the_table_is_on_through_a_failover(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = Broker(tmp_path / "a"), Broker(tmp_path / "b")
    first.start()
    second.start()
    brokers = [f"127.0.0.1:{first.port}", f"127.0.0.1:{second.port}"]
    config = station_config(
        tmp_path, 0, [{"id": "rou", "game": "roulette"}], mqtt={"brokers": brokers}
    )
    try:
        with running(config) as rig:
            rig.wait_until(lambda: _on(rig) == {brokers[0]: 1})
            first.kill()
            rig.wait_until(lambda: _on(rig) == {brokers[1]: 1}, timeout=30)
            assert value(rig.get("/metrics", "viewer").text, "dealer_station_mqtt_connected",
                         table="rou") == 1  # fmt: skip
            first.start()
            time.sleep(1.5)  # a link that went back to the first would have by now
            assert _on(rig) == {brokers[1]: 1}  # a working link is left where it is
    finally:
        first.stop()
        second.stop()

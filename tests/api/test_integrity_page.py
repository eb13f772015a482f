"""``GET /tables/{table}/integrity`` and the integrity gauges of ``/metrics``
(docs/api.md), on a real station over real HTTP with a real mosquitto: a
roulette wheel whose pocket 17 comes up a quarter of the time, results entered
by hand, looked at every 100 spins."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.broker import Broker
from support.station_rig import SLOW, Rig, play_biased_wheel, running, station_config

TABLE = "rou"


@pytest.fixture(scope="module")
def rig(module_broker: Broker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    workdir: Path = tmp_path_factory.mktemp("station")
    tables = [{"id": TABLE, "game": "roulette", "timers": SLOW}]
    config = station_config(
        workdir, module_broker.port, tables, integrity={"spins_between_reports": 100}
    )
    with running(config) as station:
        play_biased_wheel(station, TABLE, 200, seed=3)
        yield station


@pytest.mark.parametrize("role", [None, "viewer", "croupier", "game_server"])
def test_only_a_pit_boss_reads_the_integrity_page(rig: Rig, role: str | None) -> None:
    answer = rig.get(f"/tables/{TABLE}/integrity", role)
    assert answer.status_code == (401 if role is None else 403)
    assert "Pocket" not in answer.text


def test_the_page_has_the_report_and_what_it_draws(rig: Rig) -> None:
    answer = rig.get(f"/tables/{TABLE}/integrity", "pit_boss")
    assert answer.status_code == 200
    page = answer.json()
    assert page["checkpoint"] == "spins"
    [arc1] = [f for f in page["findings"] if f["test"] == "wheel.arc1"]
    assert arc1["alarm"] and arc1["sample"] == 200
    wheel = page["pictures"]["wheel"]
    assert wheel["spins"] == 200
    counts = {p["number"]: p["count"] for p in wheel["pockets"]}
    assert sorted(counts) == list(range(37))
    assert sum(counts.values()) == 200
    # The band a fair pocket stays in: 200/37 spins, give or take 2.58 sd.
    assert wheel["expected"] == pytest.approx(200 / 37)
    assert counts[17] > wheel["high"]
    assert [day["rounds"] for day in page["pictures"]["hold"]] == [200]
    assert rig.get("/tables/nope/integrity", "pit_boss").status_code == 404


def test_metrics_carry_the_alarms_and_each_tests_p_value_and_sample(rig: Rig) -> None:
    text = rig.get("/metrics", "viewer").text
    alarms = re.search(r'^dealer_station_integrity_alarms\{table="rou"\} (\S+)$', text, re.M)
    assert alarms is not None and float(alarms.group(1)) >= 1
    p = re.search(
        r'^dealer_station_integrity_p_value\{table="rou",test="wheel.arc1"\} (\S+)$', text, re.M
    )
    assert p is not None and float(p.group(1)) <= 0.01
    n = re.search(
        r'^dealer_station_integrity_sample\{table="rou",test="wheel.arc1"\} (\S+)$', text, re.M
    )
    assert n is not None and float(n.group(1)) == 200

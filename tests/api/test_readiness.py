"""``/readyz``: 503 with the reasons while a table replays, its broker is down or
a device is offline, else 200; ``/healthz`` answers 200 all along. The broker
and the device go away for real: mosquitto is stopped, the shoe simulator's
pseudo-terminal is closed (unplugged). A replaying table is a station whose
tables have not been rebuilt yet: its app is asked before ``run()`` rebuilds
them, since a running station rebuilds them before its loop serves anyone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from support.broker import Broker, free_port
from support.station_rig import TABLES, Rig, running, shoe_tables, station_config

from dealer_station.api.app import create_app
from dealer_station.api.readiness import TableLinks, readiness
from dealer_station.station import Station
from drivers.shoe.simulator import FramedShoeSimulator

READY = {"ready": True, "reasons": []}


def reasons(*found: tuple[str, str, str | None]) -> dict[str, Any]:
    return {
        "ready": False,
        "reasons": [{"reason": r, "table": t, "device": d} for r, t, d in found],
    }


def test_a_table_not_yet_rebuilt_is_replaying(tmp_path: Path) -> None:
    station = Station(station_config(tmp_path, free_port(), TABLES[:2]))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(station))
        async with httpx.AsyncClient(transport=transport, base_url="http://station") as client:
            return await client.get("/readyz")

    try:
        answer = asyncio.run(ask())
    finally:
        station.journal.close()
    assert answer.status_code == 503
    assert answer.json() == reasons(("replaying", "bac", None), ("replaying", "bj", None))


def test_readiness_names_every_reason_and_a_replaying_table_alone() -> None:
    ready = readiness(
        {
            "bac": TableLinks(recovered=True, broker=False, devices={"shoe": "offline"}),
            "bj": TableLinks(recovered=False, broker=False, devices={}),
            "rou": TableLinks(recovered=True, broker=True,
                              devices={"camera": "offline", "wheel_sensor": "online"}),
            "rou2": TableLinks(recovered=True, broker=True, devices={"camera": "online"}),
        }
    )
    assert ready.model_dump() == reasons(
        ("broker_down", "bac", None),
        ("device_offline", "bac", "shoe"),
        ("replaying", "bj", None),
        ("device_offline", "rou", "camera"),
    )
    assert readiness({"rou": TableLinks(True, True, {"camera": "online"})}).model_dump() == READY


def test_readyz_follows_the_broker_and_the_shoe(broker: Broker, tmp_path: Path) -> None:
    with FramedShoeSimulator(decks=8, seed=7) as sim:
        rig: Rig
        with running(station_config(tmp_path, broker.port, shoe_tables(sim.port)[:1])) as rig:

            def readyz_is(status: int, body: dict[str, Any]) -> None:
                rig.wait_until(lambda: rig.get("/readyz").status_code == status, timeout=30)
                assert rig.get("/readyz").json() == body
                assert rig.get("/healthz").status_code == 200  # alive all along

            readyz_is(200, READY)
            sim.unplug()
            readyz_is(503, reasons(("device_offline", "bac", "shoe")))
            sim.replug()
            readyz_is(200, READY)
            broker.stop()
            readyz_is(503, reasons(("broker_down", "bac", None)))
            broker.start()
            readyz_is(200, READY)

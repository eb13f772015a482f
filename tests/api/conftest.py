"""One real station per test module (a real mosquitto, the HTTP server on a
real socket): starting one costs a second, and each module's tests are written
to follow each other on the same tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.broker import Broker, running_broker
from support.station_rig import TABLES, Rig, running, station_config


@pytest.fixture(scope="module")
def module_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    yield from running_broker(tmp_path_factory.mktemp("broker"))


@pytest.fixture(scope="module")
def rig(module_broker: Broker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    workdir: Path = tmp_path_factory.mktemp("station")
    with running(station_config(workdir, module_broker.port, TABLES)) as station:
        yield station

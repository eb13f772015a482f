"""The station's ``info`` topic: what it runs, built once at its start."""

from __future__ import annotations

from collections.abc import Iterable

from dealer_station import __version__
from dealer_station.actor import TableActor
from dealer_station.boot import Boot
from dealer_station.clock import iso
from dealer_station.config import StationConfig
from dealer_station.payloads import INFO, Info, TableInfo


def info_topic(config: StationConfig) -> str:
    return f"{config.mqtt.prefix}/{config.studio}/{config.station}/{INFO}"


def station_info(config: StationConfig, boot: Boot, actors: Iterable[TableActor]) -> str:
    """The payload, once the tables are recovered: each one's variant is what
    its state runs, the config's name resolved."""
    tables = []
    for actor in actors:
        state = actor.state
        assert state is not None  # recovery selected the table's game
        tables.append(TableInfo(id=actor.id, game=state.game, variant=state.setup.variant))
    return Info(
        at=iso(boot.started),
        studio=config.studio,
        station=config.station,
        version=__version__,
        tables=tables,
        boot=boot.id,
    ).model_dump_json()

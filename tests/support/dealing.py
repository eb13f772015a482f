"""A self-driving baccarat table dealt from a framed shoe simulator on a real
PTY: a hand draws a card whenever the shoe's light is green, every 30 ms."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.station import config_for

from dealer_station.config import StationConfig
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator


@contextmanager
def dealt_baccarat(journal: Path, broker_port: int) -> Iterator[StationConfig]:
    """The config of a station with that table ("bac"), its shoe being dealt
    until the block ends."""
    stop = threading.Event()
    with FramedShoeSimulator(decks=8, seed=5) as sim:

        def deal() -> None:
            while not stop.is_set():
                if sim.indicator == Indicator.GREEN:
                    sim.draw()
                time.sleep(0.03)

        dealer = threading.Thread(target=deal, daemon=True)
        dealer.start()
        try:
            yield config_for(
                f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n'
                "timers = { betting_seconds = 0.2 }\n"
                "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n",
                journal,
                broker_port,
            )
        finally:
            stop.set()
            dealer.join()

"""A self-driving baccarat table dealt from a framed shoe simulator on a real
PTY, by a croupier's hand that draws a card whenever the shoe's light is green."""

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


def croupier_hand(sim: FramedShoeSimulator, stop: threading.Event) -> None:
    """Draw a card when the light is green, never sooner than 50 ms after the
    last card was taken (acknowledged), until ``stop``. The light that says "no
    more" follows that acknowledgement: a hand faster than it would draw a card
    the table rightly refuses."""
    while not stop.is_set():
        if sim.all_acknowledged():
            time.sleep(0.05)
            if sim.indicator == Indicator.GREEN:
                sim.draw()
                continue
        time.sleep(0.01)


def baccarat_table(shoe_port: str) -> str:
    """The config of table "bac": self-driving baccarat, its shoe on ``shoe_port``."""
    return (
        f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{shoe_port}" }}\n'
        "timers = { betting_seconds = 0.2 }\n"
        "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n"
    )


@contextmanager
def dealt_baccarat(journal: Path, broker_port: int, mqtt: str = "") -> Iterator[StationConfig]:
    """The config of a station with that table ("bac"), its shoe being dealt
    until the block ends; ``mqtt`` as `config_text` takes it."""
    stop = threading.Event()
    with FramedShoeSimulator(decks=8, seed=5) as sim:
        dealer = threading.Thread(target=croupier_hand, args=(sim, stop), daemon=True)
        dealer.start()
        try:
            yield config_for(baccarat_table(sim.port), journal, broker_port, mqtt)
        finally:
            stop.set()
            dealer.join()

"""The shoe's light is never green for a station that is gone.

The issue's fault: the indicator stayed green when the station stopped or died,
so a croupier could draw cards nobody read. Now the station turns it red before
it lets go of the port, and the shoe (PROTOCOL.md §4.7, the simulator here on a
real PTY) turns red by itself when nothing has come from the station for its
timeout; the station's KEEPALIVE keeps an idle but living session green.
"""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from drivers.line_faults import LineFaults
from drivers.shoe import ShoeEvent, ShoeOnline, open_shoe
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator

pytestmark = pytest.mark.adversarial

WAIT_S = 20.0  # a guard against hanging, never a measurement
RED_BY_ITSELF = (Indicator.RED, "station silent")


def wait_for(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def table(sim: FramedShoeSimulator, extra: str = "") -> str:
    return (
        f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n'
        f"timers = {{ betting_seconds = 0.2 }}\n{extra}"
    )


def test_a_clean_stop_turns_the_light_red_before_the_port_closes(
    broker: Broker, tmp_path: Path
) -> None:
    # The shoe's own watchdog would take far longer than the test: any red
    # seen here came from the station, over a port it still held open.
    with FramedShoeSimulator(seed=3, station_silence=600) as sim:
        config = config_for(table(sim), tmp_path / "journal.sqlite3", broker.port)
        with StationThread(config) as st:
            assert st.command("bac", {"type": "round_open", "round": "r1"}).accepted
            assert st.command("bac", {"type": "bets_closed"}).accepted
            wait_for(lambda: sim.indicator == Indicator.GREEN, "a card due: green")
        assert sim.indicator == Indicator.RED
        assert sim.indicator_log[-1] == (Indicator.RED, "station")
        assert RED_BY_ITSELF not in sim.indicator_log


def test_a_living_idle_station_keeps_the_light_and_a_dead_one_leaves_it_red(
    broker: Broker, tmp_path: Path
) -> None:
    """kill -9 of the real station process, while the table waits for a card."""
    # The shoe's timeout, shorter than the protocol's 3 s but still twice the
    # station's keepalive interval (1 s).
    with FramedShoeSimulator(seed=4, station_silence=2.0, link_path=tmp_path / "shoe") as sim:
        config = tmp_path / "station.toml"
        config.write_text(
            f'studio = "test"\nstation = "st"\njournal = "{tmp_path / "journal.sqlite3"}"\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n[http]\nport = 0\n'
            + table(sim, "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n")
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(lambda: sim.indicator == Indicator.GREEN, "a card due: green")
            # The shoe may have gone red by itself before the station started
            # (under load the start can outlast the shoe's timeout): that is the
            # shoe being right. From the station's green on, it must not.
            since_green = len(sim.indicator_log) - 1
            # Nobody draws: the station sends nothing but its keepalive, for
            # twice the shoe's timeout.
            time.sleep(2 * sim.station_silence)
            assert sim.indicator == Indicator.GREEN
            assert RED_BY_ITSELF not in sim.indicator_log[since_green:]
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=WAIT_S)
            wait_for(lambda: sim.indicator == Indicator.RED, "red by itself")
            assert sim.indicator_log[-1] == RED_BY_ITSELF
        finally:
            if process.poll() is None:
                process.kill()


def test_a_station_whose_words_no_longer_reach_the_shoe_leaves_it_red() -> None:
    """The station lives but its transmit line is cut (a broken wire, a hung
    USB TX): the shoe cannot know whether its cards are read, so it stops."""
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with (
        FramedShoeSimulator(seed=5, heartbeat_interval=0.1, station_silence=0.5) as sim,
        open_shoe("framed", port=sim.port, on_event=events) as link,
    ):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        link.set_indicator(Indicator.GREEN)
        wait_for(lambda: sim.indicator == Indicator.GREEN, "green")
        sim.station_faults = LineFaults(drop=1.0)
        wait_for(lambda: sim.indicator == Indicator.RED, "red by itself")
        assert sim.indicator_log[-1] == RED_BY_ITSELF
        sim.station_faults = LineFaults()  # the wire mended: the station's colour again
        wait_for(lambda: sim.indicator == Indicator.GREEN, "green from the station")

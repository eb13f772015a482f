"""A second `dealer-station run` on the live config (issue 13).

On main it voided the live round; the first station then settled it again (one
void, two settlements), dropped cards it had acknowledged, and the journal it
left could not be started again (`Rejected: misdeal`). Here a station plays
baccarat from a simulated shoe on a PTY, a second one is started on the same
config while cards are being dealt: it must refuse with one line naming the
first, and the first must keep every card and settle each round once.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest
from support.broker import Broker
from support.dealing import croupier_hand

from drivers.shoe.events import CardDrawn
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator

pytestmark = pytest.mark.adversarial


def _read(journal: Path, query: str) -> list[tuple[object, ...]]:
    # Read-only, like game recall: a reader needs no lock.
    with closing(sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute(query).fetchall()


def _settled(journal: Path) -> Counter[str]:
    rows = _read(journal, "SELECT payload FROM outbox")
    return Counter(
        json.loads(p)["data"]["round"]
        for (p,) in rows
        if json.loads(str(p))["type"] == "round_settled"
    )


def _wait(what: str, ready: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if ready():  # type: ignore[operator]
                return
        except sqlite3.OperationalError:  # the station has not written its schema yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_second_station_is_refused_and_the_first_keeps_every_card(
    broker: Broker, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    with FramedShoeSimulator(decks=8, seed=3, link_path=tmp_path / "shoe") as sim:
        config = tmp_path / "station.toml"
        config.write_text(
            f'studio = "test"\nstation = "st"\njournal = "{journal}"\n'
            # Its dealer's hand stops before the station does: the stop must not
            # wait for a round nobody deals.
            "drain_seconds = 0\n"
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
            "[http]\nport = 0\n"
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n'
            "timers = { betting_seconds = 0.2 }\n"
            "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n"
        )
        command = [sys.executable, "-m", "dealer_station", "run", "--config", str(config)]
        stop = threading.Event()

        first = subprocess.Popen(command, stderr=(tmp_path / "first.log").open("wb"))
        dealer = threading.Thread(target=croupier_hand, args=(sim, stop), daemon=True)
        dealer.start()
        try:
            _wait("two rounds", lambda: journal.exists() and sum(_settled(journal).values()) >= 2)
            # Mid-round: the second comes while the shoe is dealing.
            _wait("a card of a round in play", lambda: sim.indicator == Indicator.GREEN)
            second = subprocess.run(command, capture_output=True, text=True, timeout=60)
            played = sum(_settled(journal).values())
            _wait("two more rounds", lambda: sum(_settled(journal).values()) >= played + 2)
            stop.set()
            dealer.join()
            time.sleep(0.5)  # the last card's acknowledgement
            first.send_signal(signal.SIGTERM)
            assert first.wait(timeout=30) == 0
        finally:
            stop.set()
            if first.poll() is None:
                first.kill()
        sent = [e for e in sim.sent if isinstance(e, CardDrawn)]
        boot_id = sim.boot_id

    assert second.returncode == 1
    (line,) = second.stderr.strip().splitlines()
    assert line.startswith(f"dealer-station: journal {journal} is in use by pid {first.pid} ")
    assert f"-m dealer_station run --config {config}" in line  # the holder's command

    # Every card the shoe sent is journaled once, in order; no round voided by a
    # restart, none settled twice.
    cards = [json.loads(str(b)) for (b,) in _read(
        journal, "SELECT body FROM journal WHERE source = 'shoe' AND kind = 'event'"
        " AND status = 'accepted' ORDER BY seq",
    )]  # fmt: skip
    # Each card under its name for ever: <boot id>:<insertion>:<index> (docs/shoe.md).
    assert [c["id"] for c in cards] == [f"{boot_id}:{c.insertion}:{c.shoe_index}" for c in sent]
    assert [c["card"] for c in cards] == [c.card for c in sent]
    assert max(_settled(journal).values()) == 1
    voids = _read(journal, 'SELECT body FROM journal WHERE body LIKE \'%"type":"void"%\'')
    assert voids == []

    # And the journal it leaves starts again, with nothing to set aside.
    again = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        _wait("the restarted station", lambda: "running bac" in _log_line(again), 60)
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(timeout=30)
    assert _read(journal, "SELECT COUNT(*) FROM journal WHERE kind = 'replay'") == [(0,)]


def _log_line(process: subprocess.Popen[str]) -> str:
    assert process.stderr is not None
    return process.stderr.readline()

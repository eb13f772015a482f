"""The reference consumer (examples/consumer.py, docs/consumers.md) run as a team
runs it, a subprocess, against a real mosquitto with persistence and a station
subprocess dealt from the shoe simulator on a real PTY by a croupier's hand.
It starts late (the table's first events are caught up over HTTP), then the
broker restarts, the station is killed with SIGKILL while the broker is frozen
and started again (it resends what it had not seen acknowledged, which the
broker had), and the shoe is unplugged and plugged back. Its output must be
the journal's round events, each once, in order; its last words must show it
dropped duplicates and recalled a gap, so the run exercised both."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from support.broker import Broker, Subscriber, free_port
from support.dealing import croupier_hand
from support.station_rig import TOKENS

from dealer_station.credentials import hash_token
from dealer_station.journal import Journal
from drivers.shoe.simulator import FramedShoeSimulator

ROOT = Path(__file__).resolve().parents[2]
CONSUMER = ROOT / "examples" / "consumer.py"
EVENTS = "dealer-station/test/bac/round/event"


def _until(predicate: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def _station_config(tmp: Path, broker: int, http: int, shoe: str) -> Path:
    config = tmp / "station.toml"
    config.write_text(
        f'studio = "test"\nstation = "st"\njournal = "{tmp / "journal.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker}\n'
        f'[http]\nhost = "127.0.0.1"\nport = {http}\n'
        f'[[auth.tokens]]\nname = "game-server"\nrole = "game_server"\n'
        f'sha256 = "{hash_token(TOKENS["game_server"])}"\n'
        f'[[tables]]\nid = "bac"\ngame = "baccarat"\n'
        f'shoe = {{ port = "{shoe}", heartbeat_timeout = 1.0 }}\n'
        "timers = { betting_seconds = 0.2 }\n"
        "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n"
    )
    return config


class Process:
    """A subprocess of this repository's Python, its output in files."""

    def __init__(self, args: list[str], out: Path, err: Path) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, *args],
            stdout=out.open("ab"),
            stderr=err.open("ab"),
            cwd=ROOT,
            env=os.environ | {"PYTHONPATH": str(ROOT)},
        )

    def end(self, signum: int) -> int:
        if self.popen.poll() is None:
            self.popen.send_signal(signum)
        return self.popen.wait(timeout=30)


@contextmanager
def _dealt_shoe(tmp: Path) -> Iterator[FramedShoeSimulator]:
    stop = threading.Event()
    with FramedShoeSimulator(decks=8, seed=5, link_path=tmp / "shoe") as sim:
        hand = threading.Thread(target=croupier_hand, args=(sim, stop), daemon=True)
        hand.start()
        try:
            yield sim
        finally:
            stop.set()
            hand.join()


def _journaled(path: Path) -> int:
    """The table's last round event in the journal (the station's, read beside it)."""
    journal = Journal(path, read_only=True)
    try:
        return journal.last_msg_seq("bac")
    finally:
        journal.close()


def _lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


def test_the_reference_consumer_gets_every_event_once_in_order_through_faults(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path, persistent=True)
    broker.start()
    http = free_port()
    out, log = tmp_path / "consumer.jsonl", tmp_path / "consumer.log"
    token = tmp_path / "token"
    token.write_text(TOKENS["game_server"])
    raw = Subscriber(broker.port, EVENTS)  # what the broker carried, copies and all
    processes: list[Process] = []

    def station(config: Path) -> Process:
        process = Process(
            ["-m", "dealer_station", "run", "--config", str(config)],
            tmp_path / "station.out",
            tmp_path / "station.log",
        )
        processes.append(process)

        def answers() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{http}/healthz").status_code == 200
            except httpx.TransportError:
                return False

        _until(answers, "the station's HTTP")
        return process

    def grows(by: int = 3, timeout: float = 15.0) -> None:
        seen = len(_lines(out))
        _until(lambda: len(_lines(out)) >= seen + by, "the consumer's output", timeout)

    try:
        with _dealt_shoe(tmp_path) as sim:
            config = _station_config(tmp_path, broker.port, http, sim.port)
            first = station(config)
            journal = tmp_path / "journal.sqlite3"
            # The consumer comes late: the table's first events are a gap to recall.
            _until(lambda: len(raw.on("round/event")) >= 10, "the first events")
            consumer = Process(
                [str(CONSUMER), "--broker", f"127.0.0.1:{broker.port}", "--studio", "test",
                 "--station", "st", "--api", f"http://127.0.0.1:{http}",
                 "--token-file", str(token), "--client-id", "reference-consumer"],
                out,
                log,
            )  # fmt: skip
            processes.append(consumer)
            grows(by=12)

            broker.stop()  # the table deals on; the outbox holds the events
            time.sleep(1.0)
            broker.start()
            grows()

            # Killed while the broker is frozen: the events the station writes to its
            # socket meanwhile reach the broker once it goes on, their acknowledgements
            # never reach the station, so its restart sends them again (docs/mqtt.md,
            # the outbox): copies, certainly.
            broker.freeze()
            before = _journaled(journal)
            _until(lambda: _journaled(journal) >= before + 3, "events while the broker is frozen")
            time.sleep(0.2)  # written to the socket, not only journaled
            assert first.end(signal.SIGKILL) == -signal.SIGKILL
            broker.freeze(False)
            last = station(config)
            grows()

            sim.unplug()
            time.sleep(1.5)  # past the link's heartbeat timeout: the shoe is offline
            sim.replug()
            grows()
            assert last.end(signal.SIGTERM) == 0
        written = Journal(journal, read_only=True)
        held = [json.loads(m.payload) for m in written.outbox("bac", 0, 10**6)]
        written.close()
        _until(lambda: len(_lines(out)) >= len(held), "the consumer to catch up", 20)
        assert consumer.end(signal.SIGTERM) == 0
    finally:
        raw.close()
        for process in processes:
            process.end(signal.SIGKILL)
        broker.stop()

    got = _lines(out)
    assert [e["seq"] for e in got] == list(range(1, len(held) + 1))
    assert got == held
    kinds = {(e["type"], e["data"].get("state")) for e in held}
    assert ("device", "offline") in kinds and ("round_settled", None) in kinds
    said = log.read_text().splitlines()
    # The broker kept the consumer's session over its restart (its persistence).
    assert "broker: Success (session present: True)" in said
    words = said[-1]
    dropped, recalled = (int(w) for w in words.split() if w.isdigit())
    assert dropped > 0 and recalled > 0, words
    # The broker did carry copies: the duplicates came from the station's resend.
    ids = [json.loads(m.payload)["id"] for m in raw.on("round/event")]
    assert len(ids) > len(set(ids))

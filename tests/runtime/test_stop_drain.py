"""A stop that waits for the round in play (issue 19 part 2): the station as
systemd runs it, a real process under a real NOTIFY_SOCKET, a real mosquitto,
the croupier's console over real HTTP. SIGTERM closes every table after its
round and waits for the round up to ``drain_seconds``; a second SIGTERM, or the
limit, stops at once, and the round is recovered at the next start."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
import uuid
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
from support.broker import Broker, free_port
from support.station_process import Manager, station_process, station_toml

from dealer_station.credentials import hash_token

CROUPIER = "drain-croupier-token-0123456789"
DRAINING = "STATUS=draining: {n} rounds in play"


def _config(tmp_path: Path, broker: Broker, port: int, drain_seconds: float) -> Path:
    config = tmp_path / "station.toml"
    tables = (
        # A round in play at a start resumes (the default voids it).
        '[[tables]]\nid = "r1"\ngame = "roulette"\nrecovery = "resume"\n'
        "[tables.timers]\nbetting_seconds = 600\n"
        f'[[auth.tokens]]\nname = "console"\nrole = "croupier"\nsha256 = "{hash_token(CROUPIER)}"\n'
    )
    top = f"drain_seconds = {drain_seconds}\n"
    config.write_text(station_toml(tmp_path, broker, top=top, http_port=port, rest=tables))
    return config


class Console:
    """The croupier's console: each write names the step it read (If-Match)."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/tables/r1"
        self.auth = {"Authorization": f"Bearer {CROUPIER}"}

    def wait(self) -> None:
        """Until the HTTP face answers: it starts serving just after READY=1."""
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"{self.url}/state", headers=self.auth)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the station's HTTP never answered"
                time.sleep(0.05)

    def state(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.url}/state", headers=self.auth).json()["state"]
        return body

    def press(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        headers = self.auth | {
            "If-Match": f'"{self.state()["next"]["step"]}"',
            "Idempotency-Key": uuid.uuid4().hex,
        }
        return httpx.post(f"{self.url}/{path}", headers=headers, json=body or {}, timeout=10)


def _events(journal: Path) -> list[tuple[str, dict[str, Any]]]:
    with closing(sqlite3.connect(journal)) as db:
        rows = db.execute("SELECT source, body FROM journal WHERE kind = 'event' ORDER BY seq")
        return [(source, json.loads(body)) for source, body in rows]


def _messages(journal: Path, kind: str) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(journal)) as db:
        rows = db.execute("SELECT payload FROM outbox ORDER BY msg_seq")
        payloads = [json.loads(payload) for (payload,) in rows]
    return [p for p in payloads if p["type"] == kind]


def _started(
    tmp_path: Path, config: Path, port: int, name: str
) -> tuple[subprocess.Popen[bytes], Manager]:
    manager = Manager(tmp_path / name)
    process = station_process(tmp_path, config, tmp_path / name)
    manager.until("READY=1")
    Console(port).wait()
    return process, manager


def test_sigterm_waits_for_the_round_in_play_then_stops_cleanly(
    broker: Broker, tmp_path: Path
) -> None:
    port = free_port()
    config = _config(tmp_path, broker, port, drain_seconds=600)
    journal = tmp_path / "j.sqlite3"
    process, manager = _started(tmp_path, config, port, "notify")
    console = Console(port)
    try:
        assert console.press("round/open").status_code == 200
        process.send_signal(signal.SIGTERM)
        got = manager.until(DRAINING.format(n=1))
        assert "STOPPING=1" in got[-1].splitlines()
        # The station waits, and its console still works: the round goes on.
        assert process.poll() is None
        assert console.state()["next"]["kind"] == "bets"
        assert console.press("round/close-bets").status_code == 200
        assert console.press("wheel/result", {"number": 5}).status_code == 200
        manager.until(DRAINING.format(n=0))
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
    settled = _messages(journal, "round_settled")
    assert [m["round"] for m in settled] == ["r1-000001"]
    closed = _messages(journal, "table_state")
    assert [(m["data"]["state"], m["data"]["by"]) for m in closed] == [
        ("closing", None), ("closed", None),
    ]  # fmt: skip
    # The station closed it for its stop: the next start opens it again.
    process, manager = _started(tmp_path, config, port, "notify-2")
    try:
        assert console.state()["next"]["kind"] == "settled"  # not "closed"
        assert console.press("round/open").status_code == 200
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    reopened = _messages(journal, "table_state")[-1]["data"]
    assert (reopened["state"], reopened["by"], reopened["reason"]) == (
        "open", None, "station started",
    )  # fmt: skip


def test_at_the_limit_the_station_stops_and_the_round_resumes_at_the_next_start(
    broker: Broker, tmp_path: Path
) -> None:
    port = free_port()
    config = _config(tmp_path, broker, port, drain_seconds=0.5)
    journal = tmp_path / "j.sqlite3"
    process, manager = _started(tmp_path, config, port, "notify")
    console = Console(port)
    try:
        assert console.press("round/open").status_code == 200
        process.send_signal(signal.SIGTERM)
        manager.until(DRAINING.format(n=1))
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert _messages(journal, "round_settled") == []
    process, manager = _started(tmp_path, config, port, "notify-2")
    try:
        state = console.state()
        assert (state["round"], state["next"]["kind"]) == ("r1-000001", "bets")
        assert console.press("round/close-bets").status_code == 200
        assert console.press("wheel/result", {"number": 5}).status_code == 200
        assert console.state()["next"]["kind"] == "settled"  # open: not closed
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0


def test_a_second_sigterm_stops_at_once(broker: Broker, tmp_path: Path) -> None:
    port = free_port()
    config = _config(tmp_path, broker, port, drain_seconds=600)
    process, manager = _started(tmp_path, config, port, "notify")
    console = Console(port)
    try:
        assert console.press("round/open").status_code == 200
        process.send_signal(signal.SIGTERM)
        manager.until(DRAINING.format(n=1))
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0  # well before the 600 s of its drain
    finally:
        if process.poll() is None:
            process.kill()
    assert _messages(tmp_path / "j.sqlite3", "round_settled") == []

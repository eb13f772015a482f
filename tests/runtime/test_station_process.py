"""The station as systemd runs it: a process that says READY once every table is
rebuilt, pings the watchdog from its event loop, stops cleanly on SIGTERM; and
`dealer-station schema` describes every payload."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from support.broker import Broker


def test_ready_then_watchdog_pings_then_a_clean_stop(broker: Broker, tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text(
        f'studio = "s"\nstation = "st"\njournal = "{tmp_path / "j.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        "[http]\nport = 0\n"
        '[[tables]]\nid = "r1"\ngame = "roulette"\n'
    )
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(20)
    process = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
        env={
            **os.environ,
            "NOTIFY_SOCKET": str(tmp_path / "notify"),
            "WATCHDOG_USEC": "400000",  # a ping every 0.2 s
        },
    )
    try:
        messages = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and messages.count("WATCHDOG=1") < 3:
            messages.append(notify.recv(4096).decode())
        assert "READY=1" in messages
        assert messages.index("READY=1") < messages.index("WATCHDOG=1")
        assert messages.count("WATCHDOG=1") >= 3
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert "STOPPING=1" in notify.recv(4096).decode()
    finally:
        if process.poll() is None:
            process.kill()
        notify.close()


def test_schema_lists_every_payload() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "dealer_station", "schema"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    schemas = json.loads(out)
    assert set(schemas) == {
        "Availability",
        "RoundEvent",
        "RoundState",
        "Stats",
        "JournalDigest",
        "Integrity",
        "Info",
        "FeedFrame",
    }
    # A round event is one of its types (contracts/), each the whole envelope.
    event = schemas["RoundEvent"]
    kinds = [event["$defs"][ref["$ref"].removeprefix("#/$defs/")] for ref in event["oneOf"]]
    for kind in kinds:
        assert {"v", "id", "seq", "table", "round", "type", "data"} <= set(kind["required"])
        assert kind["additionalProperties"] is False

"""The station as systemd runs it: a process that says READY once every table is
rebuilt (and that a long replay goes on, before it), pings the watchdog from its
event loop, reloads its config on SIGHUP, stops cleanly on SIGTERM; and
`dealer-station schema` describes every payload."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import httpx
from support.broker import Broker, free_port
from support.station_process import ONE_TABLE, Manager, station_process, station_toml

from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.credentials import hash_pin, hash_token
from dealer_station.games.events import WheelResult
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def test_ready_then_watchdog_pings_then_a_clean_stop(broker: Broker, tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text(station_toml(tmp_path, broker))
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
        "TableOpening",
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


# --- a long start, and a reload (issue 19) --------------------------------------------


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _journal_of(path: Path, records: int) -> None:
    """A roulette table's journal of ``records`` inputs, no snapshot in it: a
    start replays all of them, as after an upgrade. Built without fsync (no
    power is cut while a test builds its fixture); the start reads it as any."""
    config = TableConfig.model_validate({"id": "r1", "game": "roulette"})
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous=OFF")
    actor = TableActor(config, "s", journal, Topics("p", "s", "r1"), snapshot_every=10**9)
    actor.recover()
    robot = Autoplay("roulette", seed=1, table="r1")
    for _ in range(records):
        event = robot.next_event(actor.state)
        actor.handle(Command("camera" if isinstance(event, WheelResult) else "croupier", event))
    journal.close()


def test_a_long_replay_extends_the_start_timeout_until_ready(
    broker: Broker, tmp_path: Path
) -> None:
    """3,000 records take a few tenths of a second to replay; at one report every
    10 ms the start says it goes on several times before READY=1, each report
    with its progress, and the snapshot is in the journal when READY=1 comes."""
    journal = tmp_path / "j.sqlite3"
    _journal_of(journal, 3000)
    config = tmp_path / "station.toml"
    config.write_text(station_toml(tmp_path, broker, top="start_report_seconds = 0.01\n"))
    manager = Manager(tmp_path / "notify")
    process = station_process(tmp_path, config, tmp_path / "notify")
    try:
        before_ready = manager.until("READY=1")
        with closing(Journal(journal, read_only=True)) as reader:
            snapshot_at_ready = reader.snapshot("r1")
    finally:
        _stop(process)
    reports = [m.splitlines() for m in before_ready if m.startswith("EXTEND_TIMEOUT_USEC=")]
    assert len(reports) >= 3, before_ready
    for extend, status in reports:
        # Three report periods from now.
        assert extend == "EXTEND_TIMEOUT_USEC=30000"
        assert re.fullmatch(r"STATUS=starting: replaying table r1's journal, \d+ records read",
                            status), status
    read = [int(re.findall(r"\d+", status)[-1]) for _, status in reports]
    assert read == sorted(read) and len(set(read)) == len(read)
    assert read[-1] <= 3000
    assert snapshot_at_ready is not None, "no snapshot right after the long replay"
    assert snapshot_at_ready[0] >= 3000


def _auth_config(
    tmp_path: Path, broker: Broker, http_port: int, boss: tuple[str, str], tables: str
) -> str:
    name, pin = boss
    auth = (
        f'[[auth.tokens]]\nname = "console"\nrole = "croupier"\nsha256 = "{hash_token(CONSOLE)}"\n'
        f'[[auth.pit_bosses]]\nname = "{name}"\npin_scrypt = "{hash_pin(pin)}"\n'
    )
    return station_toml(tmp_path, broker, http_port=http_port, rest=auth + tables)


CONSOLE = "console-token-for-the-reload-test"
TWO_TABLES = ONE_TABLE + '[[tables]]\nid = "r2"\ngame = "roulette"\n'


def _alarm_codes(port: int) -> list[str]:
    """The codes of table r1's alarms, as its console reads them."""
    state = httpx.get(
        f"http://127.0.0.1:{port}/tables/r1/state",
        headers={"Authorization": f"Bearer {CONSOLE}"},
        timeout=10,
    ).json()
    return [alarm["code"] for alarm in state["state"]["alarms"]]


def _pin_login(port: int, name: str, pin: str) -> int:
    answer = httpx.post(
        f"http://127.0.0.1:{port}/auth/pit-boss",
        json={"name": name, "pin": pin},
        headers={"Authorization": f"Bearer {CONSOLE}"},
        timeout=10,
    )
    return answer.status_code


def _reload(process: subprocess.Popen[bytes], manager: Manager) -> list[str]:
    process.send_signal(signal.SIGHUP)
    return manager.until("READY=1")


def test_sighup_takes_a_new_pit_boss_without_a_restart(broker: Broker, tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "station.toml"
    config.write_text(_auth_config(tmp_path, broker, port, ("Jan", "1111"), ONE_TABLE))
    manager = Manager(tmp_path / "notify")
    process = station_process(tmp_path, config, tmp_path / "notify")
    try:
        manager.until("READY=1")
        assert _pin_login(port, "Jan", "1111") == 200
        assert _pin_login(port, "Ada", "2222") == 401
        config.write_text(_auth_config(tmp_path, broker, port, ("Ada", "2222"), ONE_TABLE))
        reload = _reload(process, manager)
        assert _pin_login(port, "Ada", "2222") == 200
        assert _pin_login(port, "Jan", "1111") == 401
        assert process.poll() is None, "the station restarted"
    finally:
        _stop(process)
    # systemd's reload protocol: RELOADING=1 with the request's monotonic time, then READY=1.
    [reloading] = [m.splitlines() for m in reload if m.startswith("RELOADING=")]
    assert reloading[0] == "RELOADING=1"
    assert re.fullmatch(r"MONOTONIC_USEC=\d+", reloading[1])
    assert reload[-1] == "READY=1"


def test_a_reload_that_changes_the_tables_is_refused_and_the_old_config_kept(
    broker: Broker, tmp_path: Path
) -> None:
    """Under journald's stream: the refusal is an error line journalctl -p err shows."""
    port = free_port()
    config = tmp_path / "station.toml"
    config.write_text(_auth_config(tmp_path, broker, port, ("Jan", "1111"), ONE_TABLE))
    manager = Manager(tmp_path / "notify")
    log_file = tmp_path / "stderr.log"
    log_file.touch()
    stream = os.stat(log_file)
    process = station_process(
        tmp_path, config, tmp_path / "notify", JOURNAL_STREAM=f"{stream.st_dev}:{stream.st_ino}",
        # The stream is what is read here, whether this machine runs journald or not.
        DEALER_STATION_JOURNAL_SOCKET="",
    )
    try:
        manager.until("READY=1")
        config.write_text(_auth_config(tmp_path, broker, port, ("Ada", "2222"), TWO_TABLES))
        _reload(process, manager)
        assert _pin_login(port, "Jan", "1111") == 200
        assert _pin_login(port, "Ada", "2222") == 401
        refused = _alarm_codes(port)
        assert process.poll() is None
        # The file put right, a reload takes it and its refusal is answered.
        config.write_text(_auth_config(tmp_path, broker, port, ("Ada", "2222"), ONE_TABLE))
        _reload(process, manager)
        assert _pin_login(port, "Ada", "2222") == 200
        answered = _alarm_codes(port)
    finally:
        _stop(process)
    assert "config_reload_refused" in refused
    assert "config_reload_refused" not in answered
    lines = log_file.read_text().splitlines()
    [refusal] = [line for line in lines if "config reload refused" in line]
    assert refusal.startswith("<3>ERROR dealer_station.station: config reload refused: ")
    assert "tables (which tables, or their order)" in refusal
    # journald stamps each line: the station writes no time of its own, only
    # the priority, the level and the logger.
    line_start = re.compile(r"<[0-7]>(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: ")
    assert all(line_start.match(line) for line in lines), lines[:5]

"""Config mistakes are found by load_config (issue 13, rule 9): `dealer-station
run` and `dealer-station config check` refuse the same files, each with the same
one-line messages naming the file and the key, and exit 2 (systemd does not
restart a station whose config cannot run). On main a typo'd variant passed
`run`, and journal, password, TLS and encoding problems gave tracebacks that
`config check` reported as fine."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from drivers.shoe.backends import WIRED

Case = Callable[[Path], tuple[str, str]]


def _station(tmp: Path, *, journal: str = "", mqtt: str = "", table: str = "") -> str:
    return (
        f'studio = "s"\nstation = "st"\njournal = "{journal or tmp / "state" / "j.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = 1\n{mqtt}[http]\nport = 0\n'
        f'[[tables]]\nid = "t1"\ngame = "baccarat"\n{table}'
    )


def _typo_variant(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp, table='variant = "live-bacarat"\n'),
        "tables[0].variant: no baccarat variant 'live-bacarat'; shipped: live-baccarat"
        " (or the path of a .toml file)",
    )


def _typo_variant_with_a_journal(tmp: Path) -> tuple[str, str]:
    # A journal that ran the table: on main every start then crashed.
    path = tmp / "state" / "j.sqlite3"
    table = TableActor(
        TableConfig(id="t1", game="baccarat"), "s", Journal(path), Topics("p", "s", "t1")
    )
    table.recover()
    table.journal.close()
    return _typo_variant(tmp)


def _missing_variant_file(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp, table='variant = "rules/house.toml"\n'),
        f"tables[0].variant: {tmp / 'rules' / 'house.toml'}: no such file",
    )


def _variant_of_another_game(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp, table='variant = "european-roulette"\n'),
        "tables[0].variant: variants/european-roulette.toml: game: is 'roulette', "
        "expected 'baccarat'",
    )


def _unknown_shoe_protocol(tmp: Path) -> tuple[str, str]:
    *others, last = map(repr, WIRED)  # the registry's protocols, as pydantic lists choices
    return (
        _station(tmp, table='shoe = { port = "/dev/x", protocol = "morse" }\n'),
        f"tables[0].shoe.protocol: Input should be {', '.join(others)} or {last}",
    )


def _setting_the_protocol_does_not_have(tmp: Path) -> tuple[str, str]:
    # The Bee-Tek shoe sends no heartbeat: on main this was taken, and did nothing.
    return (
        _station(tmp, table='shoe = { port = "/dev/x", protocol = "beetek", '
                            "heartbeat_timeout = 2.0 }\n"),
        "tables[0].shoe.heartbeat_timeout: unknown key",
    )


def _journal_directory_not_writable(tmp: Path) -> tuple[str, str]:
    # /sys refuses new files even to root (these tests may run as root, for
    # whom permission bits do not count).
    return (
        _station(tmp, journal="/sys/dealer-station/j.sqlite3"),
        "journal: directory /sys/dealer-station cannot be made in /sys: Permission denied",
    )


def _journal_under_a_file(tmp: Path) -> tuple[str, str]:
    (tmp / "state").write_text("not a directory")
    return (
        _station(tmp),
        f"journal: {tmp / 'state'} is not a directory, so {tmp / 'state'} cannot be made",
    )


def _journal_is_a_directory(tmp: Path) -> tuple[str, str]:
    (tmp / "state" / "j.sqlite3").mkdir(parents=True)
    return _station(tmp), f"journal: {tmp / 'state' / 'j.sqlite3'}: not a file"


def _journal_not_a_database(tmp: Path) -> tuple[str, str]:
    (tmp / "state").mkdir()
    (tmp / "state" / "j.sqlite3").write_text("studio = 's'\n")  # a config saved in its place
    return _station(tmp), f"journal: {tmp / 'state' / 'j.sqlite3'}: not an SQLite database"


def _missing_password_file(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp, mqtt='password_file = "mqtt-password"\n'),
        f"mqtt.password_file: {tmp / 'mqtt-password'}: No such file or directory",
    )


def _empty_password_file(tmp: Path) -> tuple[str, str]:
    (tmp / "mqtt-password").write_text("\n")
    return (
        _station(tmp, mqtt='password_file = "mqtt-password"\n'),
        f"mqtt.password_file: {tmp / 'mqtt-password'}: is empty",
    )


def _missing_ca_file(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp, mqtt='tls = { ca_file = "/nonexistent/studio-ca.pem" }\n'),
        "mqtt.tls.ca_file: /nonexistent/studio-ca.pem: No such file or directory",
    )


def _key_file_is_a_directory(tmp: Path) -> tuple[str, str]:
    (tmp / "keys").mkdir()
    return (
        _station(tmp, mqtt=f'tls = {{ cert_file = "{tmp}/station.toml", key_file = "keys" }}\n'),
        f"mqtt.tls.key_file: {tmp / 'keys'}: Is a directory",
    )


def _not_utf8(tmp: Path) -> tuple[str, str]:
    return (
        _station(tmp).replace('studio = "s"', 'studio = "s"\n# caf\xe9'),
        "not UTF-8 text (byte 18 is 0xe9): save the file as UTF-8",
    )


CASES: list[Case] = [
    _typo_variant,
    _typo_variant_with_a_journal,
    _missing_variant_file,
    _variant_of_another_game,
    _unknown_shoe_protocol,
    _setting_the_protocol_does_not_have,
    _journal_directory_not_writable,
    _journal_under_a_file,
    _journal_is_a_directory,
    _journal_not_a_database,
    _missing_password_file,
    _empty_password_file,
    _missing_ca_file,
    _key_file_is_a_directory,
    _not_utf8,
]


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    # A config the check let through would start a station: the timeout ends it.
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", *args], capture_output=True, text=True, timeout=30
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
def test_run_and_check_refuse_the_same_file_with_the_same_line(case: Case, tmp_path: Path) -> None:
    text, expected = case(tmp_path)
    path = tmp_path / "station.toml"
    path.write_bytes(text.encode("latin-1") if case is _not_utf8 else text.encode())
    before = sorted(p.name for p in tmp_path.rglob("*"))
    check = _command("config", "check", str(path))
    run = _command("run", "--config", str(path))
    assert (check.returncode, run.returncode) == (2, 2), (check.stderr, run.stderr)
    assert check.stderr == run.stderr
    assert check.stderr.splitlines() == [f"{path}: {expected}"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # neither made anything

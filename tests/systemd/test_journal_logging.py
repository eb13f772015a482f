"""Log lines as journald reads them (issue 19): under systemd stderr is a stream to
journald, named by ``$JOURNAL_STREAM``; each line then starts with its syslog
priority and carries no time of its own. The stream here is a real file, and the
logging is set up in a real child process, as ``dealer-station run`` sets it up:
the check compares the device and inode of the child's stderr, as sd-daemon(3) says.
"""

from __future__ import annotations

import os
import re
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_station.logging_setup import SOCKET_VARIABLE, syslog_priority

LOGS = """
import logging
from dealer_station.logging_setup import about, setup_logging
setup_logging("DEBUG")
log = logging.getLogger("dealer_station.test")
log.debug("a detail")
log.info("a table started")
log.warning("a shoe went quiet")
log.error("a record was set aside")
log.critical("the journal is gone")
try:
    raise ValueError("a bug")
except ValueError:
    log.exception("a table failed")
log.warning("table r1: a card again", extra=about("r1", "R-42"))
"""


def logged(
    tmp_path: Path, journal_stream: str | None, socket_path: Path | None = None
) -> list[str]:
    """The lines the child writes to stderr, a file; ``journal_stream`` is what
    $JOURNAL_STREAM says ("same": the file itself), ``socket_path`` where
    journald's native socket is (default: none, whatever this machine has)."""
    out = tmp_path / "stderr"
    out.touch()
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    env[SOCKET_VARIABLE] = str(socket_path or "")
    if journal_stream == "same":
        stat = out.stat()
        env["JOURNAL_STREAM"] = f"{stat.st_dev}:{stat.st_ino}"
    elif journal_stream is not None:
        env["JOURNAL_STREAM"] = journal_stream
    with out.open("wb") as stderr:
        subprocess.run(
            [sys.executable, "-c", LOGS],
            env=env,
            stderr=stderr,
            check=True,
        )
    return out.read_text().splitlines()


def test_under_journald_each_line_has_its_priority_and_no_time(tmp_path: Path) -> None:
    lines = logged(tmp_path, "same")
    assert lines[:5] == [
        "<7>DEBUG dealer_station.test: a detail",
        "<6>INFO dealer_station.test: a table started",
        "<4>WARNING dealer_station.test: a shoe went quiet",
        "<3>ERROR dealer_station.test: a record was set aside",
        "<2>CRITICAL dealer_station.test: the journal is gone",
    ]
    # journald reads the prefix per line: a traceback's lines are errors too.
    traceback = lines[5:-1]
    assert traceback[0] == "<3>ERROR dealer_station.test: a table failed"
    assert traceback[1] == "<3>Traceback (most recent call last):"
    assert traceback[-1] == "<3>ValueError: a bug"
    assert all(line.startswith("<3>") for line in traceback)
    assert lines[-1] == "<4>WARNING dealer_station.test: table r1: a card again"


@pytest.mark.parametrize("stream", [None, "1:2", "not a stream"])
def test_elsewhere_each_line_carries_its_time(tmp_path: Path, stream: str | None) -> None:
    """No $JOURNAL_STREAM, or one naming another stream (inherited by a child whose
    stderr was redirected), or nonsense: lines for a person, with their time."""
    lines = logged(tmp_path, stream)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING dealer_station.test: a shoe went quiet",
        lines[2],
    )
    assert not any(line.startswith("<") for line in lines)


def test_python_levels_map_onto_syslog_priorities() -> None:
    # sd-daemon(3): <2> crit, <3> err, <4> warning, <6> info, <7> debug.
    assert [syslog_priority(level) for level in (50, 40, 30, 20, 10, 5)] == [2, 3, 4, 6, 7, 7]
    # A level between two takes the lower one's priority (25 is above INFO, below WARNING).
    assert syslog_priority(25) == 6


def journald_fields(datagram: bytes) -> dict[str, str]:
    """A native protocol datagram's fields (systemd.io, "Native Journal Protocol"):
    ``NAME=value`` lines, or ``NAME``, a 64-bit little-endian length and the value."""
    fields: dict[str, str] = {}
    rest = datagram
    while rest:
        line, _, after = rest.partition(b"\n")
        if b"=" in line:
            name, _, value = line.partition(b"=")
            rest = after
        else:
            (size,) = struct.unpack("<Q", after[:8])
            name, value = line, after[8 : 8 + size]
            assert after[8 + size : 9 + size] == b"\n"
            rest = after[9 + size :]
        fields[name.decode()] = value.decode()
    return fields


def test_with_journald_s_socket_each_record_is_a_datagram_with_its_table_and_round(
    tmp_path: Path,
) -> None:
    """journald is not running here: a datagram socket bound where the child is told
    journald's is stands in for it, and reads what the child sends."""
    path = tmp_path / "journal.socket"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as journald:
        journald.bind(str(path))
        journald.settimeout(10)
        lines = logged(tmp_path, "same", path)
        records = [journald_fields(journald.recv(1 << 16)) for _ in range(7)]
    assert lines == []  # all of it went to journald, none also to the stream
    assert [(r["PRIORITY"], r["MESSAGE"].splitlines()[0]) for r in records] == [
        ("7", "DEBUG dealer_station.test: a detail"),
        ("6", "INFO dealer_station.test: a table started"),
        ("4", "WARNING dealer_station.test: a shoe went quiet"),
        ("3", "ERROR dealer_station.test: a record was set aside"),
        ("2", "CRITICAL dealer_station.test: the journal is gone"),
        ("3", "ERROR dealer_station.test: a table failed"),
        ("4", "WARNING dealer_station.test: table r1: a card again"),
    ]
    # A traceback is one record, in one field of many lines.
    assert records[5]["MESSAGE"].splitlines()[-1] == "ValueError: a bug"
    assert records[6]["TABLE"] == "r1" and records[6]["ROUND"] == "R-42"
    assert not any("TABLE" in r or "ROUND" in r for r in records[:6])
    assert {r["SYSLOG_IDENTIFIER"] for r in records} == {"dealer-station"}


def test_when_journald_does_not_answer_its_socket_the_lines_go_to_the_stream(
    tmp_path: Path,
) -> None:
    """A socket file that no one reads (journald stopped): nothing is lost."""
    path = tmp_path / "journal.socket"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as gone:
        gone.bind(str(path))
    lines = logged(tmp_path, "same", path)
    assert lines[2] == "<4>WARNING dealer_station.test: a shoe went quiet"
    assert lines[-1] == "<4>WARNING dealer_station.test: table r1: a card again"

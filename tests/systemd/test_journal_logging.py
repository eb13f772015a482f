"""Log lines as journald reads them (issue 19): under systemd stderr is a stream to
journald, named by ``$JOURNAL_STREAM``; each line then starts with its syslog
priority and carries no time of its own. The stream here is a real file, and the
logging is set up in a real child process, as ``dealer-station run`` sets it up:
the check compares the device and inode of the child's stderr, as sd-daemon(3) says.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_station.logging_setup import syslog_priority

LOGS = """
import logging
from dealer_station.logging_setup import setup_logging
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
"""


def logged(tmp_path: Path, journal_stream: str | None) -> list[str]:
    """The lines the child writes to stderr, a file; ``journal_stream`` is what
    $JOURNAL_STREAM says ("same": the file itself)."""
    out = tmp_path / "stderr"
    out.touch()
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    if journal_stream == "same":
        stat = out.stat()
        env["JOURNAL_STREAM"] = f"{stat.st_dev}:{stat.st_ino}"
    elif journal_stream is not None:
        env["JOURNAL_STREAM"] = journal_stream
    with out.open("wb") as stderr:
        subprocess.run([sys.executable, "-c", LOGS], env=env, stderr=stderr, check=True)
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
    traceback = lines[5:]
    assert traceback[0] == "<3>ERROR dealer_station.test: a table failed"
    assert traceback[1] == "<3>Traceback (most recent call last):"
    assert traceback[-1] == "<3>ValueError: a bug"
    assert all(line.startswith("<3>") for line in traceback)


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

"""Where the station's log lines go, and in what form.

In a shell a line carries its own time. Under systemd, stderr is a stream into
journald (``$JOURNAL_STREAM`` names it), which stamps every line itself and reads
a leading ``<N>`` as the line's syslog priority (sd-daemon(3)): there a line has
no time of its own, and each line, a traceback's too, starts with its priority,
so that ``journalctl -p warning`` finds the station's warnings. Where journald's
native socket is at hand, records go there instead, with fields of their own
(``journald_native``): a record about a table carries its table and the round in
play there (``about``).
"""

from __future__ import annotations

import logging
import os
import re
import sys
from pathlib import Path

# sd-daemon(3)'s levels for Python's: err, warning, info, debug; critical is crit.
_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))
_DEBUG = 7

SHELL_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOURNAL_FORMAT = "%(levelname)s %(name)s: %(message)s"
# Where journald's native socket is, when not where systemd puts it.
SOCKET_VARIABLE = "DEALER_STATION_JOURNAL_SOCKET"


def syslog_priority(level: int) -> int:
    """The syslog priority journald files a record of ``level`` under."""
    return next((p for floor, p in _PRIORITIES if level >= floor), _DEBUG)


class JournalFormatter(logging.Formatter):
    """Every line of a record behind its ``<N>`` priority, and no time."""

    def __init__(self) -> None:
        super().__init__(JOURNAL_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def stderr_is_journal() -> bool:
    """Whether stderr is the stream systemd connected to journald: the
    ``<device>:<inode>`` of ``$JOURNAL_STREAM`` is stderr's own (a child whose
    stderr was redirected inherits the variable, not the stream)."""
    named = re.fullmatch(r"(\d+):(\d+)", os.environ.get("JOURNAL_STREAM", ""))
    if named is None:
        return False
    device, inode = named.groups()
    try:
        stat = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):  # no stderr, or not a file
        return False
    return (stat.st_dev, stat.st_ino) == (int(device), int(inode))


def about(table: str, round_id: str | None = None) -> dict[str, str]:
    """``extra=`` for a record that concerns ``table`` (and ``round_id``, in play
    there): journald files them as ``TABLE=`` and ``ROUND=``."""
    return {"table": table} if round_id is None else {"table": table, "round": round_id}


def setup_logging(level: int | str) -> None:
    """Log at ``level``: to journald's native socket, with fields, when stderr is
    the journal's stream and the socket is there; else to stderr, for journald
    or with each line's time."""
    # Imported here: the native handler builds on this module's formatter.
    from dealer_station.journald_native import JOURNAL_SOCKET, JournaldHandler

    # Empty: the stream alone (a test that reads the stream, on a machine with journald).
    native = os.environ.get(SOCKET_VARIABLE, str(JOURNAL_SOCKET))
    handler: logging.Handler
    if not stderr_is_journal():
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(SHELL_FORMAT))
    elif native and Path(native).is_socket():
        handler = JournaldHandler(Path(native))
    else:
        handler = logging.StreamHandler()
        handler.setFormatter(JournalFormatter())
    logging.basicConfig(level=level, handlers=[handler])

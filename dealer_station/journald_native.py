"""Log records to journald over its native protocol, with the station's own fields.

Over the stream systemd connects to stderr a line is text with a ``<N>`` priority
and nothing more. A datagram to journald's native socket carries fields:
``TABLE=`` and ``ROUND=`` besides ``MESSAGE=`` and ``PRIORITY=``, so that
``journalctl TABLE=r1`` gives a table's lines and ``journalctl ROUND=...`` a
round's, whatever their text (systemd.io, "Native Journal Protocol").
"""

from __future__ import annotations

import logging
import socket
import struct
import sys
from pathlib import Path

from dealer_station.logging_setup import JOURNAL_FORMAT, JournalFormatter, syslog_priority

JOURNAL_SOCKET = Path("/run/systemd/journal/socket")
IDENTIFIER = "dealer-station"
# The attributes of a record (``extra=``) that become fields of their own.
RECORD_FIELDS = {"table": "TABLE", "round": "ROUND"}


def field(name: str, value: str) -> bytes:
    """One field as the protocol wants it: ``NAME=value`` on a line, or, for a
    value with a newline in it (a traceback), its length in 64 bits little-endian."""
    data = value.encode("utf-8", "replace")
    if b"\n" not in data:
        return name.encode() + b"=" + data + b"\n"
    return name.encode() + b"\n" + struct.pack("<Q", len(data)) + data + b"\n"


class JournaldHandler(logging.Handler):
    """Each record a datagram of fields; when journald cannot take it (its socket
    gone, a record larger than a datagram), the record goes to stderr as the
    stream's ``<N>`` lines instead: no line is lost for want of fields."""

    def __init__(self, path: Path = JOURNAL_SOCKET) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter(JOURNAL_FORMAT))
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.fallback = logging.StreamHandler(sys.stderr)
        self.fallback.setFormatter(JournalFormatter())

    def datagram(self, record: logging.LogRecord) -> bytes:
        fields = [
            field("MESSAGE", self.format(record)),
            field("PRIORITY", str(syslog_priority(record.levelno))),
            field("SYSLOG_IDENTIFIER", IDENTIFIER),
            field("LOGGER", record.name),
            field("CODE_FILE", record.pathname),
            field("CODE_LINE", str(record.lineno)),
            field("CODE_FUNC", record.funcName),
        ]
        for attribute, name in RECORD_FIELDS.items():
            value = getattr(record, attribute, None)
            if value is not None:
                fields.append(field(name, str(value)))
        return b"".join(fields)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.sock.sendto(self.datagram(record), self.path)
        except OSError:
            self.fallback.handle(record)

    def close(self) -> None:
        self.sock.close()
        super().close()

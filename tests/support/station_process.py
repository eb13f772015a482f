"""The station as systemd runs it, for the tests that start it as a process:
its config file, the NOTIFY_SOCKET end systemd holds, and the process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from support.broker import Broker

ONE_TABLE = '[[tables]]\nid = "r1"\ngame = "roulette"\n'


def station_toml(
    tmp_path: Path, broker: Broker, *, top: str = "", http_port: int = 0, rest: str = ONE_TABLE
) -> str:
    """A station of the table r1 on ``broker``: ``top`` holds top-level keys,
    ``rest`` the sections after ``[http]`` (its tables, at least)."""
    return (
        f'studio = "s"\nstation = "st"\njournal = "{tmp_path / "j.sqlite3"}"\n{top}'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f"[http]\nport = {http_port}\n{rest}"
    )


class Manager:
    """The NOTIFY_SOCKET end systemd holds: every datagram, in order."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(60)
        self.messages: list[str] = []

    def until(self, line: str) -> list[str]:
        """Every datagram up to and including the next holding ``line``."""
        got: list[str] = []
        while line not in got[-1:] and not (got and line in got[-1].splitlines()):
            got.append(self.sock.recv(4096).decode())
        self.messages += got
        return got


def station_process(
    tmp_path: Path, config: Path, manager: Path, **env: str
) -> subprocess.Popen[bytes]:
    stderr = (tmp_path / "stderr.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
        env={**os.environ, "NOTIFY_SOCKET": str(manager), **env},
        stderr=stderr,
    )

"""A pseudo-terminal that stands in for a device's USB serial port (the shoe's, the wheel sensor's).

The station opens the slave side by a stable path, a symlink like the udev name
``/dev/dealer-shoe``; the simulator writes and reads the master side. Closing it
is an unplug: the station's reads fail exactly as they do when a USB device goes.
"""

from __future__ import annotations

import contextlib
import os
import tty
from pathlib import Path


class PtyPort:
    def __init__(self, link_path: Path) -> None:
        self.link_path = link_path
        self.master: int | None = None
        self._slave: int | None = None

    @property
    def is_open(self) -> bool:
        return self.master is not None

    def open(self) -> None:
        master, slave = os.openpty()
        # Raw before anyone writes: a cooked tty would echo the shoe's bytes back.
        tty.setraw(slave)
        os.set_blocking(master, False)
        # Holding the slave open keeps the master readable and writable before
        # the station opens its end and between its reconnections.
        self.master, self._slave = master, slave
        tmp = self.link_path.with_name(self.link_path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.link_path)

    def close(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        for fd in (self.master, self._slave):
            if fd is not None:
                os.close(fd)
        self.master = self._slave = None

    def write(self, data: bytes) -> int:
        """Writes what the line takes now; like a full UART FIFO, the rest is lost."""
        if self.master is None or not data:
            return 0
        try:
            return os.write(self.master, data)
        except (BlockingIOError, OSError):
            return 0

    def read(self) -> bytes:
        if self.master is None:
            return b""
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

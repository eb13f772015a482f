"""What every simulated serial device shares: its pseudo-terminal and where it lives.

A simulator given no ``link_path`` makes one in a temporary directory of its
own and removes it on `close`; ``with`` closes it too. Each protocol's simulator
adds what its device says on the line (drivers/shoe/simulator.py, the framed
firmware; drivers/shoe/beetek_simulator.py, the ASCII shoe;
drivers/wheel/simulator.py, the wheel's sensor).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from types import TracebackType
from typing import Self

from drivers.pty_port import PtyPort


class PtySimulator:
    def __init__(self, link_path: Path | None, prefix: str, device: str = "dealer-shoe") -> None:
        """``device`` names the symlink in the temporary directory, as udev's rule
        names the real device (systemd/)."""
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        if link_path is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix=prefix)
            link_path = Path(self._tmpdir.name) / device
        self.port = str(link_path)
        self._pty = PtyPort(link_path)

    def close(self) -> None:
        """Called last by a simulator's own `close`, once its port is closed."""
        if self._tmpdir is not None:
            self._tmpdir.cleanup()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

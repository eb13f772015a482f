"""A Bee-Tek style ASCII shoe on a real pseudo-terminal.

It never reads: the protocol has nothing for the station to say. Each call
writes one line at once; `sent` is the ground truth of what the station should
report.
"""

from __future__ import annotations

import time
from pathlib import Path

from drivers.pty_simulator import PtySimulator
from drivers.shoe.events import CardDrawn, CardUnread, ShoeAlarm, ShoeEvent
from drivers.shoe.shuffled_shoe import shuffled_shoe


class BeeTekShoeSimulator(PtySimulator):
    def __init__(self, *, decks: int = 8, seed: int | None = None,
                 link_path: Path | None = None) -> None:
        super().__init__(link_path, "beetek-sim-")
        self.cards_left = shuffled_shoe(decks, seed)
        self.sent: list[ShoeEvent] = []
        self.line_log = bytearray()
        self._pty.open()

    def draw(self, count: int = 1, *, burn: bool = False) -> list[str]:
        drawn = []
        for _ in range(count):
            card = self.cards_left.pop()
            if burn:
                # Burn lines put the suit first: "[Manual Burn Cards]<Card:H3>".
                self._line(f"[Manual Burn Cards]<Card:{card[1]}{card[0]}>")
            else:
                self._line(f"[Game]<Card:{card}>")
            self.sent.append(CardDrawn(card, burn))
            drawn.append(card)
        return drawn

    def draw_unread(self) -> str:
        card = self.cards_left.pop()
        self._line("[Game]<Game>")
        self.sent.append(CardUnread("unread"))
        return card

    def alarm(self, text: str) -> None:
        self._line(f"<Alarm:{text}>")
        self.sent.append(ShoeAlarm("alarm", text))

    def warning(self, code: int) -> None:
        body = f"W0x{code:02X}"
        self._line(f"<{body}>")
        self.sent.append(ShoeAlarm(body, f"shoe warning {body[1:]}"))

    def write_raw(self, data: bytes) -> None:
        self._pty.write(data)
        self.line_log += data

    def stream(self, data: bytes, timeout: float = 60.0) -> None:
        """Write all of `data`, as fast as the station reads it (a UART's flow,
        not a burst that overflows the line)."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the station stopped reading ({len(view)} bytes left)")
            written = self._pty.write(bytes(view[:4096]))
            self.line_log += view[:written]
            view = view[written:]
            if not written:
                time.sleep(0.001)

    def status(self) -> str:
        return ""  # the shoe shows nothing the station sets

    def unplug(self) -> None:
        self._pty.close()

    def replug(self) -> None:
        self._pty.open()

    def close(self) -> None:
        self._pty.close()
        super().close()

    def _line(self, text: str) -> None:
        self.write_raw(text.encode("ascii") + b"\r\n")

"""The plain-ASCII shoe of the Bee-Tek / USPC kind, 9600 baud, one message a line.

    [Game]<Card:4S>               a card, rank then suit
    [Manual Burn Cards]<Card:H3>  a burn card, suit then rank
    [Game]<Game>                  a card passed but was not read
    <Alarm:Shoe Empty>            an alarm
    <W0x01>                       a warning code

Either order of rank and suit is accepted: the two alphabets do not overlap, so
the order is never ambiguous. The protocol has no checksum, no sequence number
and no acknowledgement: a line that does not parse exactly is rejected, never
repaired, and a card line that does not parse becomes an unread card.
"""

from __future__ import annotations

import re

from drivers.shoe.events import CardDrawn, CardUnread, ShoeAlarm, ShoeOffline, ShoeOnline
from drivers.shoe.session import SessionOutput, ShoeSession
from firmware_proto.messages import RANKS, SUITS

BEETEK_BAUDRATE = 9600
MAX_LINE = 128

_LINE = re.compile(r"^(?:\[(?P<mode>[^\]]*)\])?<(?P<body>[^<>]*)>$")
_WARNING = re.compile(r"^W0x[0-9A-Fa-f]{2}$")


def parse_card(token: str) -> str | None:
    """'4S', 'H3', '10D', 'DT' -> 'TD'-style code; None if it is not a card."""
    token = token.strip().upper().replace("10", "T")
    if len(token) != 2:
        return None
    a, b = token[0], token[1]
    if a in RANKS and b in SUITS:
        return a + b
    if a in SUITS and b in RANKS:
        return b + a
    return None


class BeeTekSession(ShoeSession):
    protocol = "beetek"

    def __init__(self) -> None:
        self._line = bytearray()
        self._overlong = False
        self._counters = {"bytes_received": 0, "lines": 0, "cards": 0, "rejected_lines": 0}

    def connected(self, now: float) -> SessionOutput:
        # No handshake exists: an open port is all "online" can mean here.
        self._line.clear()
        self._overlong = False
        return SessionOutput(events=[ShoeOnline(self.protocol, vendor="Bee-Tek/USPC")])

    def received(self, data: bytes, now: float) -> SessionOutput:
        out = SessionOutput()
        self._counters["bytes_received"] += len(data)
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self._overlong:
                    self._reject(out, f"line longer than {MAX_LINE} bytes")
                elif self._line:
                    self._parse(bytes(self._line), out)
                self._line.clear()
                self._overlong = False
            elif len(self._line) < MAX_LINE:
                self._line.append(byte)
            else:
                self._overlong = True
        return out

    def tick(self, now: float) -> SessionOutput:
        return SessionOutput()

    def disconnected(self, reason: str) -> SessionOutput:
        return SessionOutput(events=[ShoeOffline(reason)])

    def counters(self) -> dict[str, int]:
        return dict(self._counters)

    def _parse(self, raw: bytes, out: SessionOutput) -> None:
        self._counters["lines"] += 1
        try:
            line = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            self._reject(out, f"not ASCII: {raw!r}")
            return
        match = _LINE.match(line)
        if match is None:
            self._reject(out, f"unrecognised line: {line!r}")
            return
        mode = match["mode"] or ""
        body = match["body"]
        burn = "burn" in mode.lower()
        if body.startswith("Card:"):
            card = parse_card(body[len("Card:") :])
            if card is None:
                out.events.append(CardUnread(f"unparseable card line: {line!r}", burn))
            else:
                self._counters["cards"] += 1
                out.events.append(CardDrawn(card, burn))
        elif body == "Game" and mode:
            out.events.append(CardUnread("unread", burn))
        elif body.startswith("Alarm:"):
            out.events.append(ShoeAlarm("alarm", body[len("Alarm:") :]))
        elif _WARNING.match(body):
            out.events.append(ShoeAlarm(body, f"shoe warning {body[1:]}"))
        else:
            self._reject(out, f"unrecognised message: {line!r}")

    def _reject(self, out: SessionOutput, reason: str) -> None:
        self._counters["rejected_lines"] += 1
        out.events.append(ShoeAlarm("rejected_line", reason))

"""How the rules say no.

Every engine refuses an input by raising ``Rejected`` with a machine-readable
``reason`` (``not_your_turn``, ``impossible_card``, ``misdeal`` ...) and a human
``detail``. Engines are pure, so a refused input leaves the state as it was: the
caller simply keeps the old state.
"""

from __future__ import annotations


class Rejected(Exception):
    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail

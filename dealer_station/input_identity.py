"""What a device says an input is: a shoe card's identity, a camera's reading,
and the one place that writes them into the journal (and reads a card's back).

Principle 8: a hardware input carries an identity that survives re-inserts and
restarts. A framed shoe names each card by its boot id, the shoe's insertion and
the card's index in that insertion; the camera names its result by the
detector's count of spins and says how sure it is. They travel with the input as
values (`Command.identity`), so the bridges compare fields, not strings, and the
journal's spelling of them is written here only (docs/journal.md).

A Bee-Tek card has no identity of its own: that shoe names nothing and never
sends a card twice, so the card is its journal record.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Digits of the camera's confidence the journal keeps: the detector's score is
# no finer than that, and a record should not pretend it is.
CONFIDENCE_DIGITS = 3

# A card's three numbers are 32 bits at most (PROTOCOL.md: boot id 4 bytes,
# insertion and index 2): a longer run of digits names no card, and int() would
# refuse a very long one rather than say so.
_MOST_DIGITS = len(str(2**32 - 1))


@dataclass(frozen=True)
class CardIdentity:
    """A framed shoe's card: no other card of any shoe, boot or insertion has
    the same three numbers (PROTOCOL.md, version 2)."""

    boot: int
    insertion: int
    index: int


@dataclass(frozen=True)
class SpinReading:
    """The camera's result of one spin: which spin of the detector's count, and
    how sure the detector is (its score, 1 at most)."""

    spin: int
    confidence: float

    def __post_init__(self) -> None:
        # Journaled as a JSON number: NaN or infinity would make the body a text
        # that SQLite's json functions (recall, the shoe's names) refuse to read.
        if not math.isfinite(self.confidence):
            raise ValueError(f"spin {self.spin}: confidence {self.confidence} is not a number")


InputIdentity = CardIdentity | SpinReading


def journal_keys(identity: InputIdentity | None) -> dict[str, str | float]:
    """The keys an input's journal body carries for its identity: ``id``, the
    device's name for it, and for a camera result its ``confidence``, a field
    of its own that a regulator can read and query without parsing the name."""
    if identity is None:
        return {}
    if isinstance(identity, CardIdentity):
        return {"id": f"{identity.boot}:{identity.insertion}:{identity.index}"}
    return {
        "id": f"spin:{identity.spin}",
        "confidence": round(identity.confidence, CONFIDENCE_DIGITS),
    }


def read_card_identity(journal_id: str) -> CardIdentity | None:
    """The shoe card a journaled ``id`` names, or None for an id that names no
    framed shoe's card (a journal's hand-made or foreign ids): such a record
    can never match a card the shoe sends again."""
    parts = journal_id.split(":")
    if len(parts) != 3 or not all(
        p.isascii() and p.isdigit() and len(p) <= _MOST_DIGITS for p in parts
    ):
        return None
    boot, insertion, index = (int(p) for p in parts)
    return CardIdentity(boot, insertion, index)

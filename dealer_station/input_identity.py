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
from typing import Any

from dealer_station.games.events import BALL_SPEED_KEYS, WHEEL_READING_KEYS
from dealer_station.games.roulette_layout import POCKETS

# Digits of the camera's confidence the journal keeps: the detector's score is
# no finer than that, and a record should not pretend it is.
CONFIDENCE_DIGITS = 3

DIRECTIONS = ("clockwise", "counterclockwise")
# Digits of the ball's speed and times the journal keeps: a fit over a second of
# frames is no finer.
BALL_DIGITS = 2

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
    """The camera's result of one spin: which spin of the detector's count, how
    sure the detector is (its score, 1 at most), and what it measured of the
    throw (docs/wheel.md): the integrity monitor's wheel and dealer statistics
    read them from the journal. Each is None where the camera did not see it
    (a croupier's hand-entered number has no reading at all)."""

    spin: int
    confidence: float
    rotor_rpm: float | None = None
    rotor_direction: str | None = None  # "clockwise" | "counterclockwise", seen from above
    ball_direction: str | None = None
    ball_revolutions: float | None = None
    release_pocket: int | None = None  # the rotor's pocket under the ball at its release
    landing_distance: int | None = None  # pockets from it to the number, the way the rotor turns

    def __post_init__(self) -> None:
        # Journaled as JSON numbers: NaN or infinity would make the body a text
        # that SQLite's json functions (recall, the shoe's names) refuse to read.
        for name in ("confidence", "rotor_rpm", "ball_revolutions"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"spin {self.spin}: {name} {value} is not a number")
        for name in ("rotor_direction", "ball_direction"):
            if getattr(self, name) not in (None, *DIRECTIONS):
                raise ValueError(f"spin {self.spin}: {name} {getattr(self, name)!r}")
        # A pocket's number, and a count of pockets short of a whole turn: 0-36 both.
        for name in ("release_pocket", "landing_distance"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value not in POCKETS):
                raise ValueError(f"spin {self.spin}: {name} {value!r} is not 0-36")


@dataclass(frozen=True)
class SensorReading:
    """The wheel sensor's result of one game (docs/wheel_sensor.md): the
    controller's game number and what it measured of the rotor. A checksummed
    line of the game in play: no confidence score, it is believed or refused."""

    game: int
    rotor_rpm: float | None = None
    rotor_direction: str | None = None

    def __post_init__(self) -> None:
        if self.rotor_rpm is not None and not math.isfinite(self.rotor_rpm):
            raise ValueError(f"game {self.game}: rotor_rpm {self.rotor_rpm} is not a number")
        if self.rotor_direction not in (None, *DIRECTIONS):
            raise ValueError(f"game {self.game}: rotor_direction {self.rotor_direction!r}")


@dataclass(frozen=True)
class TwoReadings:
    """Both sources' readings of one spin, as the table's verdict settled or
    held it (``verdict``: ``agreed``, ``camera_only``, ``sensor_only``,
    ``disagree``): each reading's number and identity, None for a source that
    gave none in time."""

    verdict: str
    camera: tuple[int, SpinReading] | None = None
    sensor: tuple[int, SensorReading] | None = None


@dataclass(frozen=True)
class BallReading:
    """What the camera measured of the ball when it closed betting itself
    (docs/wheel.md, "No more bets from the camera"): its speed against the bowl,
    the time it expected the drop in, and the configured threshold of the rule
    that fired (``CloseBets.reason``)."""

    spin: int
    revs_per_s: float | None
    drop_in_s: float | None
    threshold: float | None

    def __post_init__(self) -> None:
        for name in ("revs_per_s", "drop_in_s", "threshold"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"spin {self.spin}: {name} {value} is not a number")


InputIdentity = CardIdentity | SpinReading | SensorReading | TwoReadings | BallReading


def journal_keys(identity: InputIdentity | None) -> dict[str, Any]:
    """The keys an input's journal body carries for its identity: ``id``, the
    device's name for it, and for a camera result its ``confidence`` and what it
    measured of the throw (``WHEEL_READING_KEYS``, those it saw), fields of their
    own that a regulator can read and query without parsing the name."""
    if identity is None:
        return {}
    if isinstance(identity, CardIdentity):
        return {"id": f"{identity.boot}:{identity.insertion}:{identity.index}"}
    if isinstance(identity, SensorReading):
        return _sensor_keys(identity)
    if isinstance(identity, TwoReadings):
        return _readings_keys(identity)
    if isinstance(identity, BallReading):
        ball: dict[str, Any] = {"id": f"spin:{identity.spin}"}
        for name in BALL_SPEED_KEYS:
            value = getattr(identity, name)
            if value is not None:
                ball[name] = round(value, BALL_DIGITS)
        return ball
    keys: dict[str, Any] = {
        "id": f"spin:{identity.spin}",
        "confidence": round(identity.confidence, CONFIDENCE_DIGITS),
    }
    for name in WHEEL_READING_KEYS:
        value = getattr(identity, name)
        if value is not None:
            keys[name] = value
    return keys


def _sensor_keys(reading: SensorReading) -> dict[str, Any]:
    keys: dict[str, Any] = {"id": f"game:{reading.game}"}
    for name in ("rotor_rpm", "rotor_direction"):
        value = getattr(reading, name)
        if value is not None:
            keys[name] = value
    return keys


def _readings_keys(both: TwoReadings) -> dict[str, Any]:
    """The camera's keys at the top, where the monitor and recall read a
    camera's result (else the sensor's), and each source's reading with its
    number under ``readings``: a regulator sees what each said."""
    readings: dict[str, Any] = {}
    top: dict[str, Any] = {}
    for name, reading in (("sensor", both.sensor), ("camera", both.camera)):
        if reading is not None:
            number, identity = reading
            keys = journal_keys(identity)
            readings[name] = {"number": number, **keys}
            top = keys
    return {**top, "verdict": both.verdict, "readings": readings}


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

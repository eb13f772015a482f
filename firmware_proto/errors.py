"""Typed errors of the protocol layer. Every rejection carries its reason."""

from __future__ import annotations

from typing import Literal


class ProtocolError(Exception):
    """Base of every error this package raises."""


class EncodeError(ProtocolError, ValueError):
    """A message or frame that cannot be put on the wire as asked."""


MessageErrorKind = Literal["unknown_type", "bad_length", "bad_field"]


class MessageError(ProtocolError, ValueError):
    """A frame that passed its CRC but does not hold a valid message."""

    def __init__(self, type_code: int, kind: MessageErrorKind, reason: str) -> None:
        super().__init__(f"message type 0x{type_code:02X}: {reason}")
        self.type_code = type_code
        self.kind: MessageErrorKind = kind
        self.reason = reason


class SenderFull(ProtocolError):
    """The shoe's queue of unacknowledged messages is full."""

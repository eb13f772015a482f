"""Devices of one kind by name: the shoe's protocols, the wheel sensor's.

A station's config, its CLI and its tests name a device by a short string (the
shoe's ``protocol``). Everything that differs between two devices of the same
kind is in its entry (how to open it, its options, its simulator, what it can
do), and the code around reads the entry instead of comparing the name: adding
a device is one entry, not a hunt for every ``if name == ...``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any, Generic, Protocol, TypeVar

from drivers.errors import DriverError


class UnknownDevice(DriverError, KeyError):
    """A name no entry has. A KeyError, as a mapping's, but printed as written."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# Options of every serial link (drivers/port_link.py), not of a device's
# protocol: an entry's `open` takes them apart; tests shorten the backoff.
LINK_TUNING = ("reconnect_first", "reconnect_max")


def setting(default: Any, description: str, **constraints: float) -> Any:
    """A field of an entry's options dataclass: its default, what it is (the
    config's schema shows it) and its bounds (``gt=0``), which the config's
    model enforces."""
    return field(default=default, metadata={"description": description, **constraints})


class Named(Protocol):
    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=Named)


class Registry(Mapping[str, E], Generic[E]):
    """An immutable mapping name -> entry, in the order given, with a default.

    ``kind`` is how a refusal names the key ("shoe protocol"); ``unknown`` the
    exception it raises, a subclass of `UnknownDevice` of the device's driver.
    """

    def __init__(self, kind: str, entries: Iterable[E], *, default: str,
                 unknown: type[UnknownDevice] = UnknownDevice) -> None:
        self.kind = kind
        self._entries: dict[str, E] = {}
        for entry in entries:
            if entry.name in self._entries:
                raise ValueError(f"{kind} {entry.name!r} is registered twice")
            self._entries[entry.name] = entry
        if default not in self._entries:
            raise ValueError(f"the default {kind} {default!r} is not registered")
        self.default = default
        self._unknown = unknown

    def __getitem__(self, name: str) -> E:
        try:
            return self._entries[name]
        except KeyError:
            raise self._unknown(
                f"unknown {self.kind} {name!r}; known: {', '.join(sorted(self._entries))}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

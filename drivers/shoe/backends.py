"""Shoe backends by name, as python-can chooses its interfaces.

The station's config names a protocol; `open_shoe` builds the matching link.
Modules are imported only when chosen, so a station without pyserial installed
can still run the virtual shoe.
"""

from __future__ import annotations

import importlib
from typing import Any

from drivers.shoe.link import EventSink, ShoeLink

# name -> (module, factory function)
BACKENDS: dict[str, tuple[str, str]] = {
    "framed": ("drivers.shoe.backend_factories", "framed_link"),
    "beetek": ("drivers.shoe.backend_factories", "beetek_link"),
    "virtual": ("drivers.shoe.virtual", "VirtualShoeLink"),
}


class UnknownBackend(ValueError):
    pass


def open_shoe(protocol: str, *, port: str, on_event: EventSink, **options: Any) -> ShoeLink:
    """A link for `protocol` on `port`; not started (use ``with`` or ``start()``).

    Options of the framed protocol: baudrate (115200), heartbeat_timeout (3.0 s),
    reconnect_first (0.05 s), reconnect_max (2.0 s). Of beetek: baudrate (9600),
    reconnect_first, reconnect_max.
    """
    try:
        module_name, attribute = BACKENDS[protocol]
    except KeyError:
        raise UnknownBackend(
            f"unknown shoe protocol {protocol!r}; known: {', '.join(sorted(BACKENDS))}"
        ) from None
    factory = getattr(importlib.import_module(module_name), attribute)
    link: ShoeLink = factory(port=port, on_event=on_event, **options)
    return link

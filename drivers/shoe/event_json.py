"""Events as JSON objects: {"event": "CardDrawn", "card": "AS", ...}."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent

# Every kind of the ShoeEvent union, by class name: a new kind is read and written
# here as soon as events.py adds it to the union.
EVENT_TYPES: dict[str, type[ShoeEvent]] = {cls.__name__: cls for cls in get_args(ShoeEvent)}


class BadEventJson(ShoeError, ValueError):
    pass


def event_to_json(event: ShoeEvent) -> dict[str, Any]:
    return {"event": type(event).__name__, **dataclasses.asdict(event)}


def event_from_json(data: dict[str, Any]) -> ShoeEvent:
    fields = dict(data)
    name = fields.pop("event", None)
    cls = EVENT_TYPES.get(str(name))
    if cls is None:
        raise BadEventJson(f"unknown event {name!r}")
    try:
        return cls(**fields)
    except TypeError as exc:
        raise BadEventJson(f"{name}: {exc}") from None

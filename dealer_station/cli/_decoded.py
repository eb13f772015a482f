"""How `shoe decode` and `wheel decode` print a capture's events: one JSON object a
line (`--json`, the counters on stderr), or numbered rows a person reads."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any


def print_decoded(rows: Iterable[dict[str, Any]], counters: dict[str, int], *,
                  as_json: bool, width: int) -> None:
    """`rows` are events as JSON objects ({"event": name, ...}); `width` the
    column of the longest event name."""
    for number, data in enumerate(rows, 1):
        if as_json:
            print(json.dumps(data))
        else:
            name = data.pop("event")
            fields = " ".join(f"{k}={v}" for k, v in data.items()
                              if v is not None and v is not False and v != "")
            print(f"{number:5d}  {name:<{width}} {fields}")
    summary = " ".join(f"{k}={v}" for k, v in counters.items())
    print(f"# {summary}", file=sys.stderr if as_json else sys.stdout)

"""The unit's LimitNOFILE covers what the station may hold open (systemd/README.md,
"Descriptors"): the HTTP connection cap, an accept burst, its own and its tables'."""

from __future__ import annotations

import re
from pathlib import Path

from dealer_station.api.server import ACCEPT_BACKLOG
from dealer_station.config import HttpConfig

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "dealer-station.service"
# The process's own (measured: 11 with one table) and six a table for eight tables.
OWN, PER_TABLE, TABLES = 16, 6, 8


def test_limit_nofile_leaves_twice_the_room_the_station_may_need() -> None:
    match = re.search(r"^LimitNOFILE=(\d+)$", UNIT.read_text(), re.MULTILINE)
    assert match is not None, "the unit sets no LimitNOFILE"
    needed = HttpConfig().max_connections + ACCEPT_BACKLOG + OWN + PER_TABLE * TABLES
    assert int(match.group(1)) >= 2 * needed

"""What a reload of the config file (SIGHUP, ``systemctl reload``) may change.

A running station can take new tokens, PINs and dealers (``[auth]``) and new
timers for a table (``[tables.timers]``) without a restart: the first at once, the
second between rounds (``TableActor.reconfigure``). Anything else names what the
station was built of (its tables, its broker, its journal, its HTTP face): a file
that changes it is refused whole, and the station keeps the config it runs.
"""

from __future__ import annotations

from dealer_station.config import StationConfig, TableConfig, TimersConfig


def _fixed_part(table: TableConfig) -> TableConfig:
    return table.model_copy(update={"timers": TimersConfig()})


def unreloadable(running: StationConfig, read: StationConfig) -> list[str]:
    """The keys ``read`` changes that a reload cannot apply, in the file's
    order; none when it may replace ``running``."""
    changed = [
        name
        for name in StationConfig.model_fields
        if name not in ("auth", "tables") and getattr(running, name) != getattr(read, name)
    ]
    ids = [t.id for t in running.tables]
    if [t.id for t in read.tables] != ids:
        changed.append("tables (which tables, or their order)")
        return changed
    for old, new in zip(running.tables, read.tables, strict=True):
        before, after = _fixed_part(old), _fixed_part(new)
        changed += [
            f"tables[{old.id}].{name}"
            for name in TableConfig.model_fields
            if getattr(before, name) != getattr(after, name)
        ]
    return changed

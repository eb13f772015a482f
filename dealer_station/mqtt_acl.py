"""A mosquitto ACL for one station: its user may publish under each of its
tables and on its ``info`` topic, and nowhere else.

Topics name the table, not the station (``<prefix>/<studio>/<table>/...``), so
no mosquitto ``pattern`` on the username covers a station of several tables:
the ACL is generated from the station's config (``dealer-station mqtt acl``).
"""

from __future__ import annotations

from dealer_station.config import StationConfig
from dealer_station.payloads import Topics
from dealer_station.station_info import info_topic


class NoUsername(Exception):
    """The config names no broker user, so no ACL can name it."""


def station_acl(config: StationConfig, source: str) -> str:
    """The ACL's lines for the station of ``config`` (read from ``source``)."""
    user = config.mqtt.username
    if user is None:
        raise NoUsername(
            f"{source}: [mqtt] has no username: an ACL gives rights to a user, and this "
            "station connects anonymously"
        )
    lines = [
        f"# Station {config.station} of studio {config.studio}: "
        f"dealer-station mqtt acl --config {source}",
        f"user {user}",
        *(
            f"topic write {Topics(config.mqtt.prefix, config.studio, table.id).base}/#"
            for table in config.tables
        ),
    ]
    if all(table.id != config.station for table in config.tables):
        # A station named as one of its tables has its info under that table's prefix.
        lines.append(f"topic write {info_topic(config)}")
    return "\n".join(lines) + "\n"

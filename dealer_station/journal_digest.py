"""The daily digest: the journal's chain head, published and logged, so that a
copy kept elsewhere proves the journal up to it was not rewritten later
(docs/journal.md, "The digest").

Published at the start and at every UTC midnight, retained, on each table's
``journal/digest`` topic (the station's credentials publish under its tables'
prefixes only, docs/mqtt.md); every table carries the same digest of the one
journal.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from dealer_station.clock import Clock, iso, utc_now
from dealer_station.journal import Journal
from dealer_station.journal_chain import GENESIS
from dealer_station.payloads import JOURNAL_DIGEST, JournalDigest

if TYPE_CHECKING:
    from dealer_station.mqtt_publisher import TablePublisher

log = logging.getLogger(__name__)

# How often a digest not yet sent looks for its table's broker link again.
RETRY_S = 1.0


def digest(journal: Journal, studio: str, station: str, table: str, at: datetime) -> JournalDigest:
    """The chain head now; an empty journal's is record 0 at the genesis hash."""
    seq, head = journal.chain_head() or (0, GENESIS.hex())
    return JournalDigest(
        table=table, at=iso(at), studio=studio, station=station, seq=seq, hash=head
    )


def next_midnight(now: datetime) -> datetime:
    return (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)


async def publish_daily(
    journal: Journal,
    publishers: Mapping[str, TablePublisher],
    studio: str,
    station: str,
    clock: Clock = utc_now,
) -> None:
    """Publish the digest now and at each UTC midnight, forever. A table whose
    broker is away gets it once its link is up, until the next one is due."""
    while True:
        now = clock()
        due = next_midnight(now)
        head = digest(journal, studio, station, "", now)
        log.info("journal digest at %s: record %d hash %s", head.at, head.seq, head.hash)
        waiting = dict(publishers)
        while waiting and clock() < due:
            for table, publisher in list(waiting.items()):
                payload = head.model_copy(update={"table": table}).model_dump_json()
                topic = publisher.topics.full(JOURNAL_DIGEST)
                link = publisher.link
                if publisher.connected and link.publish(topic, payload, retain=True) is not None:
                    del waiting[table]
            if waiting:
                await asyncio.sleep(RETRY_S)
        await asyncio.sleep(max(0.0, (due - clock()).total_seconds()))

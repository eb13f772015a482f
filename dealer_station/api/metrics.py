"""``GET /metrics``: the station read at scrape time, by Prometheus's conventions.

One `StationCollector` per app reads the station when Prometheus scrapes (on
the loop, the tables' one writer, so it sees each table between two inputs);
nothing is counted twice or kept in a global registry. Counters end in
``_total`` and count since the station started (Prometheus handles the reset
at a restart); gauges read the station now. Every family has one unit, named
last (``_seconds``, ``_bytes``), and its labels sum to something that means
something: the rounds opened, settled and voided are three families, since
their sum counts nothing. Every table's series are labelled ``table``. The
names are docs/api.md's ("Metrics").
"""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    InfoMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from starlette.responses import Response

from dealer_station import __version__
from dealer_station.api.feed import TableFeed
from dealer_station.clock import utc_now
from dealer_station.integrity_watch import current
from dealer_station.latency_histogram import LatencyHistogram
from dealer_station.payloads import SCHEMA_VERSION

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

PREFIX = "dealer_station_"

# The feed's count of each round event type, as the family that exposes it.
ROUND_COUNTERS = {
    "rounds_opened": ("round_opened", "Rounds opened."),
    "rounds_settled": ("round_settled", "Rounds settled."),
    "rounds_voided": ("round_void", "Rounds voided."),
}


def registry_for(station: Station, feeds: dict[str, TableFeed]) -> CollectorRegistry:
    """The app's own registry: the station's families and the process's."""
    registry = CollectorRegistry()
    registry.register(StationCollector(station, feeds))
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    return registry


def exposition(registry: CollectorRegistry) -> Response:
    """The registry read now, in the text format, under its canonical content type."""
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


def shoe_link_family(counter: str) -> str:
    """The family of one of the shoe link's counters: its unit last, as the
    conventions want (``bytes_received`` counts ``received_bytes``)."""
    unit, _, what = counter.partition("_")
    name = f"{what}_{unit}" if unit == "bytes" and what else counter
    return f"{PREFIX}shoe_link_{name}"


def unix_time(at: str) -> float:
    return datetime.fromisoformat(at).timestamp()


def histogram(
    family: HistogramMetricFamily, labels: list[str], observed: LatencyHistogram
) -> None:
    buckets = [("+Inf" if math.isinf(b) else repr(b), n) for b, n in observed.cumulative()]
    family.add_metric(labels, buckets, observed.sum)


class StationCollector(Collector):
    def __init__(self, station: Station, feeds: dict[str, TableFeed]) -> None:
        self.station = station
        self.feeds = feeds

    def collect(self) -> Iterable[Metric]:
        yield from self._station_families()
        yield from self._table_families()

    def _station_families(self) -> Iterator[Metric]:
        build = InfoMetricFamily(
            f"{PREFIX}build", "The station's version, its payloads' schema version, its Python."
        )
        build.add_metric(
            [],
            {
                "version": __version__,
                "schema": str(SCHEMA_VERSION),
                "python": platform.python_version(),
            },
        )
        yield build
        yield GaugeMetricFamily(
            f"{PREFIX}journal_size_bytes",
            "The journal on disk: the database and its write-ahead log.",
            value=self.station.journal.size_bytes(),
        )

    def _table_families(self) -> Iterator[Metric]:
        t = ["table"]

        def counter(name: str, help_text: str, labels: list[str] = t) -> CounterMetricFamily:
            return CounterMetricFamily(PREFIX + name, help_text, labels=labels)

        def gauge(name: str, help_text: str, labels: list[str] = t) -> GaugeMetricFamily:
            return GaugeMetricFamily(PREFIX + name, help_text, labels=labels)

        rounds = {name: counter(name, text) for name, (_, text) in ROUND_COUNTERS.items()}
        cards = counter("cards", "Cards dealt and burned.", [*t, "kind"])
        refusals = counter("refusals", "Inputs refused, by reason.", [*t, "reason"])
        alarms = counter("alarms", "Alarms raised, by code.", [*t, "code"])
        active = gauge("alarms_active", "Alarms a person must act on.")
        connected = gauge("mqtt_connected", "1 if the broker link is up.")
        on_broker = gauge(
            "mqtt_broker",
            "1 for the broker of [mqtt] brokers the link is connected to (host:port); "
            "none while it is down.",
            [*t, "broker"],
        )
        backlog = gauge(
            "mqtt_backlog_messages",
            "Round events journaled and not yet acknowledged by the broker.",
        )
        oldest = gauge(
            "mqtt_oldest_unacked_age_seconds",
            "How long ago the oldest round event the broker has not acknowledged was "
            "journaled; 0 when it has them all.",
        )
        refused = counter(
            "mqtt_publish_refused",
            "Publishes the broker refused (an MQTT 5 PUBACK with a failure reason code, "
            "e.g. not_authorized by its ACL), by reason; each one drops the connection.",
            [*t, "reason"],
        )
        to_puback = HistogramMetricFamily(
            f"{PREFIX}card_to_puback_seconds",
            "A card's time from the station's shoe thread having it to the broker's PUBACK "
            "of its round event.",
            labels=t,
        )
        devices = gauge("device_online", "1 if the device is online.", [*t, "device"])
        in_play = gauge(
            "round_open", "1 while a round is in play (opened, not yet settled or voided)."
        )
        settled_at = gauge(
            "last_settled_timestamp_seconds", "When the table's last round settled (Unix time)."
        )
        frames = counter(
            "camera_frames", "Wheel camera frames analysed; rate() of it is the frame rate."
        )
        integrity = gauge(
            "integrity_alarms", "Findings in alarm at the integrity monitor's last look."
        )
        adjusted = gauge(
            "integrity_p_value",
            "The lowest Bonferroni-adjusted p-value of each test at the last look.",
            [*t, "test"],
        )
        sample = gauge("integrity_sample", "That finding's sample.", [*t, "test"])
        link: dict[str, CounterMetricFamily] = {}
        now = utc_now().timestamp()
        for table, feed in self.feeds.items():
            for name, (event, _) in ROUND_COUNTERS.items():
                rounds[name].add_metric([table], feed.events[event])
            cards.add_metric([table, "dealt"], feed.events["card_dealt"])
            cards.add_metric([table, "burned"], feed.events["burned"])
            for reason, n in sorted(feed.refusals.items()):
                refusals.add_metric([table, reason], n)
            for code, n in sorted(feed.alarms.items()):
                alarms.add_metric([table, code], n)
            actor = feed.actor
            active.add_metric([table], len(actor.alarms.active))
            for device, (state, _) in sorted(actor.devices.items()):
                devices.add_metric([table, device], 1 if state == "online" else 0)
            in_play.add_metric([table], 0 if actor.state is None or actor.state.round_over else 1)
            if actor.last_result is not None:
                settled_at.add_metric([table], unix_time(json.loads(actor.last_result)["at"]))
            publisher = self.station.publishers.get(table)
            if publisher is not None:
                connected.add_metric([table], 1 if publisher.connected else 0)
                if publisher.connected:
                    on_broker.add_metric([table, str(publisher.link.broker)], 1)
                backlog.add_metric([table], publisher.backlog)
                for reason, n in sorted(publisher.link.refusals.items()):
                    refused.add_metric([table, reason], n)
                since = publisher.oldest_unacked_at()
                oldest.add_metric([table], 0 if since is None else now - unix_time(since))
            shoe = self.station.shoes.get(table)
            if publisher is not None and shoe is not None:  # only a shoe's cards are timed
                histogram(to_puback, [table], publisher.card_to_puback)
            if shoe is not None and shoe.link is not None:
                for key, n in sorted(shoe.link.counters().items()):
                    name = shoe_link_family(key)
                    if name not in link:
                        link[name] = CounterMetricFamily(
                            name, f"The shoe link's own counter {key}.", labels=t
                        )
                    link[name].add_metric([table], n)
            camera = self.station.cameras.get(table)
            if camera is not None:
                frames.add_metric([table], camera.frames)
            report = self.station.watches[table].report
            if report is not None:
                integrity.add_metric([table], len(report.alarms))
                # Per test, its worst finding now (a dealer's, a day's): bounded labels.
                worst: dict[str, tuple[float, int]] = {}
                for v in current(report):
                    test = v.finding.test
                    if test not in worst or v.adjusted < worst[test][0]:
                        worst[test] = (v.adjusted, v.finding.sample)
                for test, (p, n) in sorted(worst.items()):
                    adjusted.add_metric([table, test], p)
                    sample.add_metric([table, test], n)
        yield from rounds.values()
        yield from (cards, refusals, alarms, active, connected, on_broker, backlog, oldest)
        yield refused
        yield to_puback
        yield from (devices, in_play, settled_at, *link.values(), frames)
        yield from (integrity, adjusted, sample)

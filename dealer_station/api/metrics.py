"""``GET /metrics``: Prometheus's text exposition format, written by hand.

Counters count since the station started (Prometheus handles the reset at a
restart); gauges read the station now. Every series is labelled by table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from dealer_station.api.feed import TableFeed
from dealer_station.integrity_watch import current

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

Sample = tuple[dict[str, str], float]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(labels: dict[str, str]) -> str:
    if not labels:
        return ""
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(labels.items())) + "}"


def _family(name: str, kind: str, help_text: str, samples: Iterable[Sample]) -> list[str]:
    name = f"dealer_station_{name}"
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    lines += [f"{name}{_labels(labels)} {value:g}" for labels, value in samples]
    return lines


def render(station: Station, feeds: dict[str, TableFeed]) -> str:
    rounds: list[Sample] = []
    cards: list[Sample] = []
    refusals: list[Sample] = []
    alarms: list[Sample] = []
    active: list[Sample] = []
    connected: list[Sample] = []
    backlog: list[Sample] = []
    devices: list[Sample] = []
    link: list[Sample] = []
    frames: list[Sample] = []
    integrity: list[Sample] = []
    adjusted: list[Sample] = []
    sample: list[Sample] = []
    for table, feed in feeds.items():
        t = {"table": table}
        for kind, event in (("opened", "round_opened"), ("settled", "round_settled")):
            rounds.append(({**t, "event": kind}, feed.events[event]))
        rounds.append(({**t, "event": "voided"}, feed.events["round_void"]))
        cards += [({**t, "kind": "dealt"}, feed.events["card_dealt"])]
        cards += [({**t, "kind": "burned"}, feed.events["burned"])]
        refusals += [({**t, "reason": r}, n) for r, n in sorted(feed.refusals.items())]
        alarms += [({**t, "code": c}, n) for c, n in sorted(feed.alarms.items())]
        actor = feed.actor
        active.append((t, len(actor.alarms.active)))
        publisher = station.publishers.get(table)
        if publisher is not None:
            connected.append((t, 1 if publisher.connected else 0))
            backlog.append((t, publisher.backlog))
        for device, (state, _) in sorted(actor.devices.items()):
            devices.append(({**t, "device": device}, 1 if state == "online" else 0))
        shoe = station.shoes.get(table)
        if shoe is not None and shoe.link is not None:
            link += [({**t, "counter": k}, v) for k, v in sorted(shoe.link.counters().items())]
        camera = station.cameras.get(table)
        if camera is not None:
            frames.append((t, camera.frames))
        report = station.watches[table].report
        if report is not None:
            integrity.append((t, len(report.alarms)))
            # Per test, its worst finding now (a dealer's, a day's): bounded labels.
            worst: dict[str, tuple[float, int]] = {}
            for v in current(report):
                test = v.finding.test
                if test not in worst or v.adjusted < worst[test][0]:
                    worst[test] = (v.adjusted, v.finding.sample)
            for test, (p, n) in sorted(worst.items()):
                adjusted.append(({**t, "test": test}, p))
                sample.append(({**t, "test": test}, n))
    lines = [
        *_family("rounds_total", "counter", "Rounds opened, settled, voided.", rounds),
        *_family("cards_total", "counter", "Cards dealt and burned.", cards),
        *_family("refusals_total", "counter", "Inputs refused, by reason.", refusals),
        *_family("alarms_total", "counter", "Alarms raised, by code.", alarms),
        *_family("alarms_active", "gauge", "Alarms a person must act on.", active),
        *_family("mqtt_connected", "gauge", "1 if the broker link is up.", connected),
        *_family(
            "mqtt_backlog",
            "gauge",
            "Round events journaled and not yet acknowledged by the broker.",
            backlog,
        ),
        *_family("device_online", "gauge", "1 if the device is online.", devices),
        *_family("shoe_link", "counter", "The shoe link's own counters.", link),
        *_family(
            "camera_frames_total",
            "counter",
            "Wheel camera frames analysed; rate() of it is the frame rate.",
            frames,
        ),
        *_family(
            "integrity_alarms",
            "gauge",
            "Findings in alarm at the integrity monitor's last look.",
            integrity,
        ),
        *_family(
            "integrity_p_value",
            "gauge",
            "The lowest Bonferroni-adjusted p-value of each test at the last look.",
            adjusted,
        ),
        *_family("integrity_sample", "gauge", "That finding's sample.", sample),
    ]
    return "\n".join(lines) + "\n"

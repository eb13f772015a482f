"""A broker whose ACL denies the table's round events: over MQTT 5 mosquitto
answers each such publish with a PUBACK "Not authorized" (0x87), and logs
nothing. That is no acknowledgement: the cursor stays before the first refused
event, the refusal is logged and counted, the table reads offline (its will),
and once the ACL is fixed every event reaches the studio, in order."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from support.broker import Broker, Subscriber
from support.dealing import dealt_baccarat
from support.scrape import value
from support.station import StationThread

from dealer_station.api.feed import TableFeed
from dealer_station.api.metrics import registry_for
from dealer_station.backoff import Backoff
from dealer_station.config import MqttConfig, StationConfig, parse_config
from dealer_station.mqtt_acl import station_acl
from dealer_station.mqtt_forget import ForgetFailed, forget_table
from dealer_station.mqtt_link import MqttLink
from dealer_station.payloads import RETAINED, Topics
from dealer_station.station_info import info_topic

# The studio's consumers (this test's subscriber connects anonymously) read everything.
READERS = "topic read dealer-station/#\n"
REFUSED = "dealer_station_mqtt_publish_refused_total"


def _acl_without_round_events(config: StationConfig) -> str:
    """A hand-written ACL that names the table's retained topics and its info,
    and forgets ``round/event``: the station connects, goes online, and each
    round event is refused."""
    topics = Topics(config.mqtt.prefix, config.studio, "bac")
    lines = ["user station", f"topic write {info_topic(config)}"]
    lines += [f"topic write {topics.full(t)}" for t in RETAINED]
    return READERS + "\n".join(lines) + "\n"


def _acl_broker(workdir: Path) -> tuple[Broker, Path]:
    broker = Broker(workdir)
    acl = workdir / "mosquitto.acl"
    acl.write_text(READERS)
    # "user root": mosquitto drops to its own user otherwise, which cannot read
    # pytest's private directory, where it reads the ACL again on SIGHUP.
    broker.conf.write_text(
        f"listener {broker.port} 127.0.0.1\nallow_anonymous true\nuser root\n"
        f"acl_file {acl}\npersistence false\nmax_queued_messages 100000\n"
    )
    return broker, acl


def test_round_events_the_broker_refuses_stay_in_the_outbox_until_its_acl_is_fixed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="dealer_station.mqtt_link")
    broker, acl = _acl_broker(tmp_path)
    mqtt = f'host = "127.0.0.1"\nport = {broker.port}\nusername = "station"\n'
    with dealt_baccarat(tmp_path / "journal.sqlite3", broker.port, mqtt) as config:
        # Before the broker starts: a station that came first would be refused its info.
        acl.write_text(_acl_without_round_events(config))
        broker.start()
        events = Subscriber(broker.port, "dealer-station/test/bac/round/event")
        status = Subscriber(broker.port, "dealer-station/test/bac/status")
        try:
            with StationThread(config) as st:
                assert broker.process is not None
                st.wait_until(lambda: st.station is not None and "bac" in st.station.publishers)
                assert st.station is not None
                station = st.station
                publisher = station.publishers["bac"]

                st.wait_until(
                    lambda: st.call(lambda: publisher.link.refusals.get("not_authorized", 0)),
                    timeout=60,
                )
                assert st.call(lambda: publisher.acked) == 0  # the first event was refused
                # Refused on two connections at least: the link came back and was refused again.
                st.wait_until(lambda: st.call(lambda: publisher.connects) >= 2, timeout=60)
                assert st.call(lambda: st.actor("bac").msg_seq) > 1
                assert st.call(lambda: publisher.acked) == 0
                assert st.call(lambda: station.journal.acked("bac")) == 0
                assert events.messages == []
                # The table read offline in between: the broker sent its will.
                status.wait_for(
                    lambda ms: any(json.loads(m.payload)["detail"] == "last will" for m in ms)
                )
                lines = [r.getMessage() for r in caplog.records]
                refused = [line for line in lines if "refused the publish" in line]
                assert refused
                assert all(
                    f"127.0.0.1:{broker.port}" in line
                    and "dealer-station/test/bac/round/event" in line
                    and "Not authorized" in line
                    for line in refused
                )
                # Once per connection, not once per message.
                assert len(refused) <= st.call(lambda: publisher.connects)
                assert sum(st.call(lambda: dict(publisher.link.refusals)).values()) >= len(refused)

                def scrape() -> str:
                    feeds = {"bac": TableFeed(station.actors["bac"], station.journal, {})}
                    return generate_latest(registry_for(station, feeds)).decode()

                counted = value(st.call(scrape), REFUSED, table="bac", reason="not_authorized")
                assert counted >= len(refused)

                acl.write_text(READERS + station_acl(config, "station.toml"))
                broker.process.send_signal(signal.SIGHUP)
                last = st.call(lambda: st.actor("bac").msg_seq)
                st.wait_until(
                    lambda: st.call(lambda: station.journal.acked("bac")) >= last, timeout=60
                )
                events.wait_for(
                    lambda ms: {json.loads(m.payload)["seq"] for m in ms} >= set(range(1, last + 1))
                )
        finally:
            events.close()
            status.close()
            broker.stop()

    first_seen: list[int] = []
    for message in events.messages:
        seq = json.loads(message.payload)["seq"]
        if seq not in first_seen:
            first_seen.append(seq)
    assert first_seen[:last] == list(range(1, last + 1))


class CountedBackoff(Backoff):
    """A short back-off that counts its resets (a connection taken as healthy)."""

    def __init__(self) -> None:
        super().__init__(0.001, 0.004, random.Random(3))
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1
        super().reset()


def test_the_link_tells_a_refused_publish_from_an_acknowledged_one(tmp_path: Path) -> None:
    """One link, the broker's ACL letting it publish under ``ok/`` only: each
    connection publishes one message to each; only the first is acknowledged,
    the second drops the connection, and the back-off is reset by the first
    connection only, not by those that follow a refusal."""
    broker, acl = _acl_broker(tmp_path)
    acl.write_text("user link\ntopic write ok/#\n")
    broker.start()
    backoff = CountedBackoff()
    acked: list[int] = []
    sent: dict[int, str] = {}

    async def scenario() -> MqttLink:
        link = MqttLink(
            MqttConfig(host="127.0.0.1", port=broker.port, username="link"),
            "refused-test",
            name="refused test",
            will=None,
            max_inflight=4,
            backoff=backoff,
        )

        def connected() -> None:
            for topic in ("ok/a", "denied/b"):
                mid = link.publish(topic, "{}")
                assert mid is not None
                sent[mid] = topic

        link.on_connected = connected
        link.on_puback = lambda mid, when: acked.append(mid)
        link.start()
        for _ in range(2000):
            if link.refusals.get("not_authorized", 0) >= 3:
                break
            await asyncio.sleep(0.005)
        await link.close()
        return link

    try:
        link = asyncio.run(scenario())
    finally:
        broker.stop()
    assert link.refusals.get("not_authorized", 0) >= 3
    assert acked and {sent[mid] for mid in acked} == {"ok/a"}
    assert backoff.resets == 1


def test_a_refused_goodbye_ends_the_close_with_the_will(tmp_path: Path) -> None:
    """The clean ``offline`` refused at a stop: the close ends, the refusal is
    counted, and the link leaves with its will, so the last ``online`` does
    not stand."""
    broker, acl = _acl_broker(tmp_path)
    acl.write_text("topic read ok/#\nuser link\ntopic write ok/#\n")
    broker.start()
    status = Subscriber(broker.port, "ok/status")

    async def scenario() -> MqttLink:
        link = MqttLink(
            MqttConfig(host="127.0.0.1", port=broker.port, username="link"),
            "goodbye-test",
            name="goodbye test",
            will=lambda: ("ok/status", '{"state": "offline"}'),
            max_inflight=4,
        )
        link.start()
        for _ in range(2000):
            if link.connected:
                break
            await asyncio.sleep(0.005)
        assert link.connected
        await link.close(goodbye=("denied/status", '{"state": "offline"}'))
        return link

    try:
        link = asyncio.run(scenario())
        status.wait_for(lambda ms: any(b"offline" in m.payload for m in ms))
    finally:
        status.close()
        broker.stop()
    assert link.refusals == {"not_authorized": 1}
    assert link.client.socket() is None


def test_forget_fails_when_the_broker_refuses_to_clear(tmp_path: Path) -> None:
    broker, acl = _acl_broker(tmp_path)
    acl.write_text("")  # anonymous: no right to write anything
    broker.start()
    config = parse_config(
        f'studio = "test"\nstation = "st"\njournal = "{tmp_path / "j.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        '[[tables]]\nid = "bac"\ngame = "baccarat"\n'
    )
    try:
        with pytest.raises(ForgetFailed, match=r"refused .*not_authorized"):
            asyncio.run(forget_table(config, "rou"))
    finally:
        broker.stop()

"""The broker dies mid-shoe and comes back: the table never stops, and every
event reaches the studio after the reconnect, in order."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from support.broker import Broker, Subscriber
from support.dealing import dealt_baccarat
from support.station import StationThread, config_for

from dealer_station.config import StationConfig, TlsConfig, parse_config
from dealer_station.mqtt_publisher import TablePublisher


def _settled(st: StationThread) -> int:
    """Rounds the table settled (its statistics keep them)."""
    result: int = st.call(lambda: len(st.actor("bac").stats.settled))
    return result


def _roulette_station(journal: Path, port: int, mqtt: str = "") -> StationConfig:
    """A station with one roulette table (no device: its first events are enough),
    ``mqtt`` added to its broker section."""
    return parse_config(
        f'studio = "test"\nstation = "st"\njournal = "{journal}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n{mqtt}'
        '[http]\nport = 0\n[[tables]]\nid = "rou"\ngame = "roulette"\n'
    )


def _publisher(st: StationThread, table: str = "rou") -> TablePublisher:
    """The table's MQTT publisher, once the station has started it."""
    st.wait_until(lambda: st.station is not None and table in st.station.publishers)
    assert st.station is not None
    return st.station.publishers[table]


def test_broker_stopped_mid_shoe_then_every_event_arrives_in_order(tmp_path: Path) -> None:
    """The consumer has a persistent session on a broker that keeps it across its
    restart, as the game server must: with a clean one, what the station resends
    before the consumer is back is lost to it (the test's race, not the station's)."""
    broker = Broker(tmp_path, persistent=True)
    broker.start()
    sub = Subscriber(
        broker.port,
        "dealer-station/test/bac/round/event",
        client_id="restart-consumer",
        clean_session=False,
    )
    try:
        with (
            dealt_baccarat(tmp_path / "journal.sqlite3", broker.port) as config,
            StationThread(config) as st,
        ):
            st.wait_until(lambda: _settled(st) >= 3, timeout=60)
            broker.stop()
            before = _settled(st)
            st.wait_until(lambda: _settled(st) >= before + 3, timeout=60)
            publisher = st.station.publishers["bac"] if st.station else None
            assert publisher is not None
            assert st.call(lambda: publisher.backlog) > 0  # held while the broker is away
            broker.start()
            st.wait_until(lambda: st.call(lambda: publisher.connects) >= 2, timeout=60)
            st.wait_until(lambda: st.call(lambda: publisher.backlog) == 0, timeout=60)
            last = st.call(lambda: st.actor("bac").msg_seq)
            sub.wait_for(
                lambda ms: {json.loads(m.payload)["seq"] for m in ms} >= set(range(1, last))
            )
    finally:
        sub.close()
        broker.stop()

    first_seen: list[int] = []
    for message in sub.messages:
        seq = json.loads(message.payload)["seq"]
        if seq not in first_seen:
            first_seen.append(seq)
    assert first_seen[: last - 1] == list(range(1, last))


def test_station_started_before_its_broker_goes_online_when_the_broker_comes(
    broker: Broker, tmp_path: Path
) -> None:
    """The station keeps trying a broker that is not there yet (a studio
    powered up in any order), and publishes its retained state once it is."""
    broker.stop()
    config = config_for(
        '[[tables]]\nid = "rou"\ngame = "roulette"\n', tmp_path / "journal.sqlite3", broker.port
    )
    with StationThread(config) as st:
        publisher = _publisher(st)
        time.sleep(1.5)  # at least one refused attempt and its back-off
        assert st.call(lambda: publisher.connects) == 0
        broker.start()
        sub = Subscriber(broker.port, "dealer-station/test/rou/status")
        st.wait_until(lambda: st.call(lambda: publisher.connects) == 1, timeout=30)
        statuses = sub.wait_for(lambda ms: any(b'"online"' in m.payload for m in ms))
        sub.close()
    assert json.loads(statuses[-1].payload)["state"] == "online"


def test_wrong_credentials_are_refused_and_the_right_ones_connect(tmp_path: Path) -> None:
    """A broker that checks passwords (mosquitto's password_file): the station
    with a wrong password never publishes and keeps running; with the right one
    it goes online."""
    passwords = tmp_path / "passwd"
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwords), "station", "s3cret"], check=True
    )
    broker = Broker(tmp_path)
    broker.conf.write_text(
        # "user root": started as root (as CI is), mosquitto would otherwise drop
        # to its own user, which cannot read a file in pytest's private directory.
        f"listener {broker.port} 127.0.0.1\nallow_anonymous false\nuser root\n"
        f"password_file {passwords}\npersistence false\n"
    )
    broker.start()
    try:
        for password, connects in (("wrong", 0), ("s3cret", 1)):
            config = _roulette_station(
                tmp_path / f"{password}.sqlite3",
                broker.port,
                f'username = "station"\npassword = "{password}"\n',
            )
            with StationThread(config) as st:
                link = _publisher(st)
                if connects:
                    st.wait_until(lambda p=link: st.call(lambda: p.connected), timeout=30)
                else:
                    time.sleep(2.5)  # the refusal, and a retry or two
                assert st.call(lambda p=link: p.connects) == connects
    finally:
        broker.stop()


def _certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1, made by openssl."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
            "/CN=test studio CA", "-keyout", "ca.key", "-out", "ca.crt")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", "server.key", "-out", "server.csr")  # fmt: skip
    (directory / "san.ext").write_text("subjectAltName = IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "1", "-extfile", "san.ext",
            "-out", "server.crt")  # fmt: skip
    return directory / "ca.crt", directory / "server.crt", directory / "server.key"


def test_tls_to_the_broker_with_the_studio_ca(tmp_path: Path) -> None:
    """mosquitto with a TLS listener: the station checks the broker's certificate
    against the studio's CA, connects, and its round events are acknowledged
    (the PUBACKs read through TLS)."""
    ca, cert, key = _certificates(tmp_path)
    broker = Broker(tmp_path)
    broker.conf.write_text(
        f"listener {broker.port} 127.0.0.1\nallow_anonymous true\nuser root\n"
        f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\npersistence false\n"
    )
    broker.start()
    try:
        config = _roulette_station(
            tmp_path / "j.sqlite3", broker.port, f'tls = {{ ca_file = "{ca}" }}\n'
        )
        with StationThread(config) as st:
            link = _publisher(st)
            st.wait_until(lambda: st.call(lambda: link.connected), timeout=30)
            assert st.call(lambda: st.actor("rou").msg_seq) > 0  # the table's first events
            st.wait_until(lambda: st.call(lambda: link.backlog) == 0, timeout=30)
        # Without the studio's CA the certificate is not trusted: no connection.
        untrusting = config.model_copy(
            update={"mqtt": config.mqtt.model_copy(update={"tls": TlsConfig()})}
        )
        with StationThread(untrusting) as st:
            link = _publisher(st)
            time.sleep(2.5)
            assert st.call(lambda: link.connects) == 0
    finally:
        broker.stop()

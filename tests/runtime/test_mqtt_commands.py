"""``dealer-station mqtt forget`` and ``dealer-station mqtt acl``, run as
commands against a real mosquitto and a real station of two tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from support.broker import Broker, Received, Subscriber
from support.station import StationThread

from dealer_station.config import load_config

ONE_TABLE = '[[tables]]\nid = "bac"\ngame = "baccarat"\n'
TWO_TABLES = '[[tables]]\nid = "rou"\ngame = "roulette"\n' + ONE_TABLE


def _config_file(path: Path, port: int, tables: str, mqtt_extra: str = "") -> Path:
    path.write_text(
        f'studio = "test"\nstation = "st"\njournal = "{path.parent / "journal.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n{mqtt_extra}[http]\nport = 0\n{tables}'
    )
    return path


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", "mqtt", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def _online(messages: list[Received], table: str) -> bool:
    return any(
        m.topic == f"dealer-station/test/{table}/status" and b'"online"' in m.payload
        for m in messages
    )


def _retained_now(port: int) -> set[str]:
    """The retained topics under the studio, as a new subscriber gets them.
    mosquitto sends a subscription's retained messages together, so once bac's
    status is in, every one is."""
    sub = Subscriber(port, "dealer-station/test/#")
    got = sub.wait_for(lambda ms: any(m.topic.endswith("/bac/status") for m in ms))
    sub.close()
    return {m.topic for m in got if m.retain and m.payload}


def test_forget_clears_a_removed_tables_retained_topics_only(
    broker: Broker, tmp_path: Path
) -> None:
    both = _config_file(tmp_path / "both.toml", broker.port, TWO_TABLES)
    sub = Subscriber(broker.port, "dealer-station/test/+/status")
    with StationThread(load_config(both)):
        sub.wait_for(lambda ms: _online(ms, "rou") and _online(ms, "bac"))
    sub.close()
    before = _retained_now(broker.port)
    assert {
        "dealer-station/test/rou/status",
        "dealer-station/test/rou/round/state",
        "dealer-station/test/rou/state",
    } <= before

    # A table the config still runs is refused, and nothing is cleared.
    refused = _command("forget", "--config", str(both), "--table", "rou")
    assert refused.returncode == 2
    assert "still in the config" in refused.stderr
    assert _retained_now(broker.port) == before

    one = _config_file(tmp_path / "one.toml", broker.port, ONE_TABLE)
    done = _command("forget", "--config", str(one), "--table", "rou")
    assert done.returncode == 0, done.stderr
    assert "cleared dealer-station/test/rou/status" in done.stdout
    after = _retained_now(broker.port)
    assert not {t for t in after if t.startswith("dealer-station/test/rou/")}
    # The other table and the station's info are untouched.
    assert after == {t for t in before if not t.startswith("dealer-station/test/rou/")}
    assert "dealer-station/test/st/info" in after


def test_forget_without_a_broker_says_so(tmp_path: Path) -> None:
    from support.broker import free_port

    one = _config_file(tmp_path / "one.toml", free_port(), ONE_TABLE)
    result = _command("forget", "--config", str(one), "--table", "rou")
    assert result.returncode == 1
    assert "no connection to the broker" in result.stderr


def test_the_generated_acl_lets_a_station_publish_under_each_of_its_tables_only(
    tmp_path: Path,
) -> None:
    passwords = tmp_path / "passwd"
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwords), "station-st", "s3cret"], check=True
    )
    broker = Broker(tmp_path)
    config = _config_file(
        tmp_path / "station.toml",
        broker.port,
        TWO_TABLES,
        'username = "station-st"\npassword = "s3cret"\n',
    )
    acl = _command("acl", "--config", str(config))
    assert acl.returncode == 0, acl.stderr
    # Anonymous readers (the lines before any user) read everything.
    (tmp_path / "acl").write_text("topic read dealer-station/#\n" + acl.stdout)
    broker.conf.write_text(
        f"listener {broker.port} 127.0.0.1\nallow_anonymous true\nuser root\n"
        f"password_file {passwords}\nacl_file {tmp_path / 'acl'}\npersistence false\n"
    )
    broker.start()
    try:
        sub = Subscriber(broker.port, "dealer-station/#")
        with StationThread(load_config(config)):
            got = sub.wait_for(
                lambda ms: (
                    _online(ms, "rou")
                    and _online(ms, "bac")
                    and {"rou", "bac"}
                    <= {m.topic.split("/")[2] for m in ms if "/round/" in m.topic}
                    and any(m.topic == "dealer-station/test/st/info" for m in ms)
                )
            )
        # The station's user, publishing beyond its tables: dropped by the
        # broker. The message after it, on its own table, shows both were handled.
        intruder = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
        intruder.username_pw_set("station-st", "s3cret")
        intruder.connect("127.0.0.1", broker.port)
        intruder.loop_start()
        intruder.publish("dealer-station/test/other/status", "{}", qos=1).wait_for_publish(10)
        intruder.publish("dealer-station/test/rou/probe", "{}", qos=1).wait_for_publish(10)
        got = sub.wait_for(lambda ms: any(m.topic.endswith("/rou/probe") for m in ms))
        intruder.loop_stop()
        intruder.disconnect()
        sub.close()
    finally:
        broker.stop()
    assert not any("/other/" in m.topic for m in got)
    online = [json.loads(m.payload) for m in got if m.topic.endswith("/status")]
    assert {s["table"] for s in online} == {"rou", "bac"}


def test_acl_refuses_a_station_without_a_username(tmp_path: Path) -> None:
    config = _config_file(tmp_path / "station.toml", 1883, TWO_TABLES)
    result = _command("acl", "--config", str(config))
    assert result.returncode == 2
    assert "no username" in result.stderr


def test_the_example_acl_holds_each_example_stations_generated_lines() -> None:
    root = Path(__file__).parents[2]
    example = (root / "examples" / "mosquitto-acl.conf").read_text()
    configs = sorted((root / "examples").glob("*.toml"))
    assert configs
    for config in configs:
        result = subprocess.run(
            [sys.executable, "-m", "dealer_station", "mqtt", "acl", "--config",
             str(config.relative_to(root))],
            capture_output=True, text=True, timeout=60, cwd=root,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert result.stdout in example, config.name

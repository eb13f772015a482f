"""A real mosquitto on a loopback port, and a subscriber that records what it gets.

Debian's mosquitto is installed by ``./dev test``; tests that need a broker use
the ``broker`` fixture (tests/conftest.py) and fail, not skip, without one.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Broker:
    """mosquitto in a subprocess; ``stop()`` and ``start()`` again on the same port
    (the broker-restart tests). Without ``persistent`` a restarted broker has
    forgotten everything, as a broker whose disk was lost would; with it, ``stop``
    is a clean shutdown, after which mosquitto has saved its sessions, their
    queued messages and the retained ones to its store, as a studio's broker
    restarted for an upgrade."""

    def __init__(self, workdir: Path, port: int | None = None, persistent: bool = False) -> None:
        self.port = port or free_port()
        self.workdir = workdir
        self.persistent = persistent
        self.conf = workdir / "mosquitto.conf"
        store = (
            # "user root": started as root (as CI is), mosquitto would otherwise drop
            # to its own user, which cannot write to pytest's private directory.
            f"persistence true\npersistence_location {workdir}/\nuser root\n"
            if persistent
            else "persistence false\n"
        )
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\n{store}"
            "max_queued_messages 100000\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if not Path(MOSQUITTO).exists():
            raise RuntimeError("mosquitto is not installed: run ./dev test, which installs it")
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=(self.workdir / "mosquitto.log").open("ab"),
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def freeze(self, frozen: bool = True) -> None:
        """Stop the broker's process (SIGSTOP) or let it go on (SIGCONT): a broker
        too busy to answer. Its clients' bytes wait in its sockets meanwhile."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def kill(self) -> None:
        """``kill -9``, persistent or not: the broker keeps only what it had
        saved to its store (``autosave_interval``) before it died."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            if self.persistent:
                self.process.send_signal(signal.SIGCONT)  # a frozen one too
                self.process.terminate()
            else:
                self.process.kill()
            self.process.wait(timeout=30)
            self.process = None


@dataclass
class Received:
    topic: str
    payload: bytes
    retain: bool
    at: float
    # The MQTT 5 properties, for a subscriber that speaks MQTT 5.
    properties: Any = None


@dataclass
class Subscriber:
    """Subscribes to ``topic`` and keeps every message with its arrival time
    (and its properties, with ``protocol`` MQTT 5). With a ``client_id`` and
    ``clean_session`` false, a consumer's persistent session (MQTT 3.1.1): the
    broker queues for it while it is away."""

    port: int
    topic: str = "#"
    protocol: MQTTProtocolVersion = mqtt.MQTTv311
    client_id: str = ""
    clean_session: bool = True
    messages: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id or f"test-sub-{id(self)}",
            protocol=self.protocol,
            clean_session=None if self.protocol == mqtt.MQTTv5 else self.clean_session,
        )
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(self.topic, qos=1)
        # Back quickly after a broker restart: before the station, whose first
        # retry comes after a second.
        # (paho's annotations say int; its back-off is computed in float seconds.)
        self.client.reconnect_delay_set(min_delay=0.05, max_delay=0.2)  # type: ignore[arg-type]
        self.client.connect("127.0.0.1", self.port)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append(
                Received(
                    message.topic,
                    bytes(message.payload),
                    message.retain,
                    time.perf_counter(),
                    getattr(message, "properties", None),
                )
            )

    def on(self, suffix: str) -> list[Received]:
        with self.lock:
            return [m for m in self.messages if m.topic.endswith(suffix)]

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                snapshot = list(self.messages)
            if predicate(snapshot):
                return snapshot
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting on {self.topic}; got {len(snapshot)} messages")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def running_broker(workdir: Path) -> Iterator[Broker]:
    broker = Broker(workdir)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()

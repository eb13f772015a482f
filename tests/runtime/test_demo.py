"""The README's first command: ``dealer-station demo`` on this machine, as a
newcomer runs it. Everything is real: the demo process, its broker (mosquitto,
or the embedded amqtt broker speaking MQTT 3.1.1 where mosquitto is missing),
the simulated shoes on pseudo-terminals, the recorded wheel and the console."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from support.broker import free_port

TABLES = ("baccarat-1", "blackjack-1", "roulette-1")


@pytest.mark.parametrize(("choice", "protocol"), [("mosquitto", "5"), ("embedded", "3.1.1")])
def test_demo_shows_three_live_tables(choice: str, protocol: str, tmp_path: Path) -> None:
    http_port = free_port()
    demo = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "demo", "--http-port", str(http_port),
         "--dir", str(tmp_path), "--broker", choice],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert demo.stdout is not None
    printed: list[str] = []
    try:
        port = None
        for line in demo.stdout:
            printed.append(line)
            match = re.search(r"broker\s+(.+) on 127\.0\.0\.1:(\d+)", line)
            if match:
                assert match.group(1).startswith(choice if choice == "mosquitto" else "amqtt")
                port = int(match.group(2))
            if line.strip().startswith("stop"):
                break
        assert port is not None, "the demo did not say where its broker is"
        assert any("kept after the demo stops" in line for line in printed)  # --dir
        console = next(line.split()[1] for line in printed if line.strip().startswith("console"))
        # Keep reading what the demo prints, so that its pipe never fills.
        threading.Thread(target=lambda: [None for _ in demo.stdout or ()], daemon=True).start()

        seen: dict[str, set[str]] = {t: set() for t in TABLES}
        online: set[str] = set()
        lock = threading.Lock()

        def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
            payload = json.loads(message.payload)
            with lock:
                if message.topic.endswith("/status") and payload["state"] == "online":
                    online.add(payload["table"])
                elif message.topic.endswith("/round/event"):
                    seen[payload["table"]].add(payload["type"])

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            protocol=mqtt.MQTTv5 if protocol == "5" else mqtt.MQTTv311,
        )
        client.on_message = on_message
        client.on_connect = lambda c, u, f, rc, p: c.subscribe("dealer-station/#", 1)
        client.connect("127.0.0.1", port)
        client.loop_start()

        def live() -> bool:
            with lock:
                return (
                    online == set(TABLES)
                    and "card_dealt" in seen["baccarat-1"]
                    and "card_dealt" in seen["blackjack-1"]
                    and "round_settled" in seen["roulette-1"]  # a spin read off the video
                )

        deadline = time.monotonic() + 120
        while not live() and time.monotonic() < deadline:
            assert demo.poll() is None, "the demo stopped"
            time.sleep(0.2)
        client.loop_stop()
        assert live(), f"online {sorted(online)}, events {seen}"
        with urllib.request.urlopen(console.split("#")[0], timeout=10) as page:
            assert page.status == 200
            assert b"<html" in page.read().lower()
    finally:
        demo.send_signal(signal.SIGINT)
        code = demo.wait(timeout=30)
    assert code == 0


def test_a_demo_without_its_broker_says_what_to_install() -> None:
    """amqtt is the demo's extra, not a station's dependency: a machine without it
    (simulated: its import is blocked in the demo's process, since this machine
    has it) and asked for the embedded broker is told what to install, before it
    starts anything."""
    blocked = (
        "import sys; sys.modules['amqtt'] = None; from dealer_station.cli import main; "
        "sys.exit(main(['demo', '--broker', 'embedded', '--http-port', '0']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'dealer-station[demo]'" in done.stderr
    assert "Traceback" not in done.stderr

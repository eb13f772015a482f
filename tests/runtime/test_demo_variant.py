"""``dealer-station demo --blackjack-variant NAME``: the demo's blackjack table
plays any shipped variant, so anyone can watch the hole card of
``blackjack-3-position`` stay face down; the self-driving croupier plays it
through to settlement. An unknown name is one clear line and exit code 2."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from support.broker import free_port

from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS


def test_an_unknown_variant_is_one_clear_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "demo", "--blackjack-variant", "blackjak-3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "'blackjak-3'" in lines[0] and "blackjack-3-position" in lines[0]
    assert done.stdout == ""


def test_the_demo_plays_the_three_position_hole_card_face_down(tmp_path: Path) -> None:
    variant = "blackjack-3-position"
    assert variant in SHIPPED_VARIANTS
    demo = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "demo", "--http-port", str(free_port()),
         "--dir", str(tmp_path), "--broker", "mosquitto", "--blackjack-variant", variant],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert demo.stdout is not None
    try:
        port = None
        for line in demo.stdout:
            match = re.search(r"broker\s+.+ on 127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
            if line.strip().startswith("stop"):
                break
        assert port is not None, "the demo did not say where its broker is"
        threading.Thread(target=lambda: [None for _ in demo.stdout or ()], daemon=True).start()

        events: list[dict[str, Any]] = []
        variants: set[str] = set()
        lock = threading.Lock()

        def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
            payload = json.loads(message.payload)
            with lock:
                if message.topic.endswith("/blackjack-1/round/state"):
                    variants.add(payload["variant"])
                elif message.topic.endswith("/blackjack-1/round/event"):
                    events.append(payload)

        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.on_message = on_message
        client.on_connect = lambda c, u, f, rc, p: c.subscribe("dealer-station/#", 1)
        client.connect("127.0.0.1", port)
        client.loop_start()

        def settled_after_a_reveal() -> bool:
            with lock:
                kinds = [e["type"] for e in events]
            return (
                "hole_card_revealed" in kinds
                and "round_settled" in kinds[kinds.index("hole_card_revealed") :]
            )

        deadline = time.monotonic() + 150
        while not settled_after_a_reveal() and time.monotonic() < deadline:
            assert demo.poll() is None, "the demo stopped"
            time.sleep(0.2)
        client.loop_stop()
        assert settled_after_a_reveal(), [e["type"] for e in events]
        assert variants == {variant}
        with lock:
            down = [e for e in events if e["type"] == "card_dealt" and e["data"]["face"] == "down"]
        assert down, "no card was dealt face down"
        assert all(set(e["data"]) == {"to", "face"} for e in down)
    finally:
        demo.send_signal(signal.SIGINT)
        code = demo.wait(timeout=30)
    assert code == 0

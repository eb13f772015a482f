"""The demo station's cold start and resident memory.

    .venv/bin/python benchmarks/demo_footprint.py [--settle 20]

Starts ``dealer-station demo`` (three tables: two PTY shoes, the recorded wheel,
the console, mosquitto in its own process), and reports:

- cold start: from spawning the process to the last table's retained ``status``
  turning ``online`` (the ``at`` the station stamps on it, UTC with ms);
- resident memory (VmRSS and its peak, VmHWM) of the station's process after
  ``--settle`` seconds of play (mosquitto, a separate process, not counted).
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def memory_kib(pid: int) -> dict[str, int]:
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--settle", type=float, default=20.0)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="demo-footprint-")
    spawned = time.time()
    process = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "demo", "--http-port", str(free_port()),
         "--dir", workdir],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdout is not None
    port = None
    for line in process.stdout:
        match = re.search(r"broker\s+\S+.* on 127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
            break
    assert port is not None, "the demo did not say where its broker is"
    online: dict[str, float] = {}

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        payload = json.loads(message.payload)
        if payload["state"] == "online":
            at = datetime.fromisoformat(payload["at"].replace("Z", "+00:00")).timestamp()
            online.setdefault(payload["table"], at)

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = on_message
    client.on_connect = lambda c, u, f, rc, p: c.subscribe("dealer-station/+/+/status", 1)
    client.connect("127.0.0.1", port)
    client.loop_start()
    deadline = time.monotonic() + 60
    while len(online) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(args.settle)
    memory = memory_kib(process.pid)
    process.terminate()
    process.wait(timeout=30)
    client.loop_stop()
    print(f"tables online: {sorted(online)}")
    print(f"cold start to the last table online: {max(online.values()) - spawned:.2f} s")
    print(
        f"station RSS after {args.settle:.0f} s: {memory['VmRSS'] / 1024:.1f} MiB "
        f"(peak {memory['VmHWM'] / 1024:.1f} MiB)"
    )


if __name__ == "__main__":
    main()

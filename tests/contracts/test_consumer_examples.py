"""The consumer's examples (docs/consumers.md) against the contract: the Home
Assistant snippet and the Node-RED flow read the availability field the
committed `Availability` schema names, with the values it allows; the flow's
stale-will filter runs in Node.js as Node-RED runs a function node; the
reference consumer's logic holds events back across a failed recall."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from dealer_station.payloads import Availability

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SCHEMA = json.loads((ROOT / "contracts/schemas/Availability.json").read_text())
# The field a consumer reads for online/offline: the one property with an enum.
(FIELD,) = [name for name, p in SCHEMA["properties"].items() if "enum" in p]
STATES = set(SCHEMA["properties"][FIELD]["enum"])


def _availability_reads(value_template: str) -> str:
    (field,) = re.findall(r"value_json\.(\w+)", value_template)
    return str(field)


def test_home_assistant_reads_the_availability_json() -> None:
    mqtt = yaml.safe_load((EXAMPLES / "home-assistant.yaml").read_text())["mqtt"]
    entities = [e for kind in ("binary_sensor", "sensor") for e in mqtt[kind]]
    availabilities = [a for e in entities for a in e.get("availability", [])]
    assert availabilities and all(e.get("availability") for e in mqtt["sensor"])
    for entry in availabilities:
        assert entry["topic"].endswith(("/status", "/device/shoe")), entry
        assert _availability_reads(entry["value_template"]) == FIELD
        assert {entry["payload_available"], entry["payload_not_available"]} == STATES
    for entity in entities:
        if entity["state_topic"].endswith(("/status", "/device/shoe")):
            assert _availability_reads(entity["value_template"]) == FIELD
            assert {entity["payload_on"], entity["payload_off"]} == STATES
    assert len({e["unique_id"] for e in entities}) == len(entities)


def _flow() -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = json.loads((EXAMPLES / "node-red-flow.json").read_text())
    return nodes


def test_node_red_flow_parses_the_json_and_switches_on_the_state() -> None:
    nodes = {n["id"]: n for n in _flow()}
    assert len(nodes) == len(_flow())
    tab = next(n["id"] for n in nodes.values() if n["type"] == "tab")
    for node in nodes.values():
        for outputs in node.get("wires", []):
            assert all(target in nodes for target in outputs), node["id"]
        assert node.get("z", tab) == tab
    (entry,) = [n for n in nodes.values() if n["type"] == "mqtt in"]
    assert entry["topic"].endswith("/status") and nodes[entry["broker"]]["type"] == "mqtt-broker"
    # Follow the first wire of each node: a json node parses, then a switch routes.
    path = [entry]
    while path[-1]["wires"]:
        path.append(nodes[path[-1]["wires"][0][0]])
    types = [n["type"] for n in path]
    node = path[types.index("switch", types.index("json"))]
    assert node["property"] == f"payload.{FIELD}"
    assert {rule["v"] for rule in node["rules"]} == STATES
    assert node["outputs"] == len(node["rules"]) == len(node["wires"])


# Node-RED runs a function node's body as function(msg, context, node).
HARNESS = """
const [func, payloads] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const store = {};
const context = {get: (k) => store[k], set: (k, v) => { store[k] = v; }};
const node = {warn: () => {}};
const body = new Function("msg", "context", "node", func);
console.log(JSON.stringify(payloads.map((p) => body({payload: p}, context, node) !== null)));
"""


def test_node_red_flow_drops_a_late_will_of_an_older_session() -> None:
    (function,) = [n for n in _flow() if n["type"] == "function"]

    def status(state: str, boot: str, connection: int) -> dict[str, Any]:
        return Availability(
            table="bac-1", at="2026-12-02T05:00:00.000Z", state=state,
            boot=boot, connection=connection,
        ).model_dump()  # fmt: skip

    sequence = [
        (status("online", "b1", 1), True),
        (status("offline", "b1", 1), True),  # its own will: the table is down
        (status("online", "b1", 2), True),
        (status("offline", "b1", 1), False),  # connection 1's will, late
        (status("online", "b2", 1), True),  # a restart: a new boot
        (status("offline", "b1", 2), False),
        (status("offline", "b2", 1), True),
    ]
    run = subprocess.run(
        ["node", "-e", HARNESS],
        input=json.dumps([function["func"], [p for p, _ in sequence]]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(run.stdout) == [passes for _, passes in sequence]


def _consumer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference_consumer", EXAMPLES / "consumer.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _event(seq: int, v: int = 1) -> dict[str, Any]:
    return {"v": v, "table": "bac", "id": f"test/bac/{seq}", "seq": seq, "type": "card_dealt"}


def test_the_consumer_holds_back_what_follows_a_gap_until_the_recall_answers() -> None:
    consumer = _consumer()
    journal = [_event(seq) for seq in range(1, 9)]
    reachable = [False]

    def fetch(table: str, after: int) -> tuple[list[dict[str, Any]], int | None]:
        if not reachable[0]:
            raise consumer.Refused(f"{table}: the station is down")
        return journal[after : after + 2], None if after + 2 >= len(journal) else after + 2

    out: list[dict[str, Any]] = []
    c = consumer.Consumer(fetch, out.append, None)
    for seq in (1, 2, 2, 1):
        c.event("bac", json.dumps(_event(seq)).encode())
    for seq in (5, 6):  # 3 and 4 never came: a gap the recall cannot close yet
        with pytest.raises(consumer.Refused):
            c.event("bac", json.dumps(_event(seq)).encode())
    assert [e["seq"] for e in out] == [1, 2] and c.duplicates == 2
    reachable[0] = True
    c.retry()
    c.event("bac", json.dumps(_event(6)).encode())  # the broker's copy, late
    c.state_seq("bac", json.dumps({"seq": 8}).encode())  # the tail no event showed
    assert out == journal
    with pytest.raises(consumer.Refused, match="schema v 2"):
        c.event("bac", json.dumps(_event(9, v=2)).encode())
    assert out == journal

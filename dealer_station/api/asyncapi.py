"""The AsyncAPI 3.0 document of the station's event-driven face: the MQTT
topics of a table (docs/mqtt.md) and the WebSocket feed that relays them
(``/tables/{table}/ws``, api/live.py), built from the same code the station
runs: the topics and payloads of ``payloads.py``, the config's defaults, the
feed's frames. Each message's payload refers to its committed JSON Schema
(``schemas/<name>.json`` beside this document).
"""

from __future__ import annotations

from typing import Any

from dealer_station.api.feed import HEARTBEAT_SECONDS
from dealer_station.api.live import AUTH_SECONDS
from dealer_station.config import HttpConfig, MqttConfig
from dealer_station.contracts.schemas import VERSION
from dealer_station.payloads import (
    DEVICES,
    INTEGRITY,
    JOURNAL_DIGEST,
    RESULT,
    ROUND_EVENT,
    ROUND_STATE,
    STATE,
    STATS,
    STATUS,
    device_topic,
)

MQTT_BINDING = "0.2.0"
WS_BINDING = "0.1.0"
SCHEMA_FORMAT = "application/schema+json;version=draft-07"


# (relative topic, message, retained, what it is): the table's MQTT topics.
TOPICS: tuple[tuple[str, str, bool, str], ...] = (
    (
        STATUS,
        "Availability",
        True,
        "the station's link: online after the retained state; "
        "offline on a clean stop or by the last will",
    ),
    *(
        (device_topic(d), "Availability", True, f"the {d.replace('_', ' ')} comes and goes")
        for d in DEVICES
    ),
    (ROUND_STATE, "RoundState", True, "the table now, after every input it handled"),
    (
        STATE,
        "TableOpening",
        True,
        "whether the table opens rounds: open, closing (after the round in play), closed",
    ),
    (
        ROUND_EVENT,
        "RoundEvent",
        False,
        "each card, decision, bet, result, void, refusal, alarm; "
        "a per-table seq without gaps and a stable id: drop duplicates by id",
    ),
    (RESULT, "RoundEvent", True, "the last round_settled"),
    (STATS, "Stats", True, "after each round: baccarat's roads, roulette's statistics"),
    (JOURNAL_DIGEST, "JournalDigest", True, "the journal's chain head, at the start and daily"),
    (INTEGRITY, "Integrity", True, "the integrity monitor's last report"),
)


# One example per message, as a consumer sees it on the wire (docs/mqtt.md);
# tests/contracts/test_committed.py validates each against its schema.
EXAMPLES: dict[str, dict[str, Any]] = {
    "Availability": {
        "v": 1,
        "table": "bac-1",
        "at": "2026-11-30T07:30:00.000Z",
        "state": "online",
        "detail": "",
        "boot": "9f1c2d3e4b5a46f7a8b9c0d1e2f3a4b5",
        "connection": 1,
    },
    "RoundEvent": {
        "v": 1,
        "table": "bac-1",
        "at": "2026-11-30T07:36:25.299Z",
        "id": "studio-a/bac-1/6",
        "seq": 6,
        "round": "bac-1-000001",
        "type": "card_dealt",
        "source": "shoe",
        "data": {"card": "4D", "to": "player", "face": "up", "score": 4},
    },
    "TableOpening": {
        "v": 1,
        "table": "bac-1",
        "at": "2026-12-02T21:58:03.412Z",
        "state": "closing",
        "by": "Eva Novak",
        "reason": "end of shift",
    },
    "JournalDigest": {
        "v": 1,
        "table": "bac-1",
        "at": "2026-12-02T00:00:00.004Z",
        "studio": "studio-a",
        "station": "pi-7",
        "seq": 418532,
        "hash": "50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c",
    },
}


def _key(topic: str) -> str:
    return topic.replace("/", "_")


def _message(name: str) -> dict[str, Any]:
    message: dict[str, Any] = {
        "name": name,
        "contentType": "application/json",
        "payload": {"schemaFormat": SCHEMA_FORMAT, "schema": {"$ref": f"schemas/{name}.json"}},
    }
    if name in EXAMPLES:
        message["examples"] = [{"name": name, "payload": EXAMPLES[name]}]
    return message


def document() -> dict[str, Any]:
    mqtt, http = MqttConfig.model_fields, HttpConfig.model_fields
    prefix = mqtt["prefix"].default
    parameters = {
        "prefix": {"description": "[mqtt] prefix", "default": prefix},
        "studio": {"description": "the config's studio"},
        "table": {"description": "the table's id"},
    }
    base = "{prefix}/{studio}/{table}"
    names = sorted({m for _, m, _, _ in TOPICS} | {"FeedFrame", "Info"})
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    for topic, message, retained, what in TOPICS:
        key = _key(topic)
        channels[key] = {
            "address": f"{base}/{topic}",
            "description": what,
            "parameters": parameters,
            "servers": [{"$ref": "#/servers/broker"}],
            "messages": {message: {"$ref": f"#/components/messages/{message}"}},
        }
        operations[f"publish_{key}"] = {
            "action": "send",
            "channel": {"$ref": f"#/channels/{key}"},
            "summary": f"{'retained' if retained else 'not retained'}, QoS 1",
            "bindings": {"mqtt": {"qos": 1, "retain": retained, "bindingVersion": MQTT_BINDING}},
        }
    channels["station_info"] = {
        "address": "{prefix}/{studio}/{station}/info",
        "description": "what the station runs (package and schema version, tables and "
        "variants, boot id, start time), sent by each table's link on each connection",
        "parameters": {
            "prefix": parameters["prefix"],
            "studio": parameters["studio"],
            "station": {"description": "the config's station"},
        },
        "servers": [{"$ref": "#/servers/broker"}],
        "messages": {"Info": {"$ref": "#/components/messages/Info"}},
    }
    operations["publish_station_info"] = {
        "action": "send",
        "channel": {"$ref": "#/channels/station_info"},
        "summary": "retained, QoS 1",
        "bindings": {"mqtt": {"qos": 1, "retain": True, "bindingVersion": MQTT_BINDING}},
    }
    channels["live"] = {
        "address": "/tables/{table}/ws",
        "description": "the table's topics relayed, each message {topic, payload}: the "
        "retained ones and the round in play's events first, then every change; a "
        f"`station` frame every {HEARTBEAT_SECONDS:g} s. The client's first message is "
        f'{{"token": "..."}} within {AUTH_SECONDS:g} s (4401: no valid token, 4404: no table).',
        "parameters": {"table": parameters["table"]},
        "servers": [{"$ref": "#/servers/station"}],
        "messages": {"FeedFrame": {"$ref": "#/components/messages/FeedFrame"}},
        "bindings": {"ws": {"method": "GET", "bindingVersion": WS_BINDING}},
    }
    operations["relay_live"] = {
        "action": "send",
        "channel": {"$ref": "#/channels/live"},
        "summary": "the live feed, to the console, the overlay and any client",
    }
    return {
        "asyncapi": "3.0.0",
        "id": f"urn:dealer-station:asyncapi:v{VERSION}",
        "info": {
            "title": "dealer station: MQTT topics and the live feed",
            "version": f"{VERSION}.0.0",
            "description": f"Payload schema version v{VERSION} (CHANGELOG.md says what "
            "changes it). Generated from the code by `dealer-station schema --write "
            "contracts/`; docs/mqtt.md is the prose.",
        },
        "defaultContentType": "application/json",
        "servers": {
            "broker": {
                "host": f"{mqtt['host'].default}:{mqtt['port'].default}",
                "protocol": "mqtt",
                "protocolVersion": "5",
                "description": "the studio's broker ([mqtt] host and port; MQTT 5, or 3.1.1 "
                "by [mqtt] protocol). One client per table; paho's session defaults (a clean "
                "session on the first connection).",
                "bindings": {
                    "mqtt": {
                        "clientId": "<studio>-<station>-<table>",
                        "cleanSession": True,
                        "keepAlive": mqtt["keepalive"].default,
                        "lastWill": {
                            "topic": f"{base}/{STATUS}",
                            "qos": 1,
                            "retain": True,
                            "message": 'Availability: {"state": "offline", "detail": "last will"}',
                        },
                        "bindingVersion": MQTT_BINDING,
                    }
                },
            },
            "station": {
                "host": f"{http['host'].default}:{http['port'].default}",
                "protocol": "ws",
                "description": "the station's HTTP server ([http] host and port)",
            },
        },
        "channels": channels,
        "operations": operations,
        "components": {"messages": {name: _message(name) for name in names}},
    }

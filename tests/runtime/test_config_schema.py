"""`dealer-station schema --config` prints the JSON Schema of the station's config
file, and every setting in it says what it is (issue 14, step 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from dealer_station.contracts.schemas import json_schemas
from drivers.shoe.backends import WIRED


def _config_schema() -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "dealer_station", "schema", "--config"],
        capture_output=True,
        text=True,
        check=True,
    )
    schema: dict[str, Any] = json.loads(result.stdout)
    return schema


def test_every_setting_has_a_description() -> None:
    schema = _config_schema()
    models = {"StationConfig": schema, **schema["$defs"]}
    assert {"MqttConfig", "HttpConfig", "TableConfig", "AuthConfig"} <= models.keys()
    undescribed = [
        f"{model}.{name}"
        for model, definition in models.items()
        for name, prop in definition.get("properties", {}).items()
        if not str(prop.get("description", "")).strip()
    ]
    assert undescribed == []


def test_the_shoe_is_a_union_of_the_registry_s_protocols() -> None:
    schema = _config_schema()
    shoe = schema["$defs"]["TableConfig"]["properties"]["shoe"]
    (union,) = [choice for choice in shoe["anyOf"] if "oneOf" in choice]
    assert union["discriminator"]["propertyName"] == "protocol"
    mapping = union["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(WIRED)
    for name, ref in mapping.items():
        member = schema["$defs"][ref.removeprefix("#/$defs/")]
        assert member["properties"]["protocol"]["const"] == name
        assert "port" in member["required"]


def test_the_default_is_still_the_mqtt_payloads() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dealer_station", "schema"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == json_schemas()


"""`dealer-station schema --config` prints the JSON Schema of the station's config
file, and every setting in it says what it is (issue 14, step 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from dealer_station.payloads import json_schemas


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


def test_the_default_is_still_the_mqtt_payloads() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dealer_station", "schema"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == json_schemas()


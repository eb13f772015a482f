"""The committed contracts (``contracts/``) are what the code generates, and
are valid documents of their kinds.

A change to a payload model, a route, a body or the vocabulary changes a file
under ``contracts/``: this test fails with the diff and the command that
rewrites them, so every contract change is a reviewed diff.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from pydantic import BaseModel

from dealer_station.api import bodies
from dealer_station.api.app import describe
from dealer_station.api.contract_files import WRITE_COMMAND, contract_files, differences, write
from dealer_station.contracts.schemas import DIALECT
from dealer_station.contracts.vocabulary import RefusalReason

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "contracts"
ASYNCAPI_SCHEMA = Path(__file__).parent / "asyncapi_schema" / "3.0.0.json"


def test_the_committed_contracts_are_the_codes() -> None:
    diff = differences(CONTRACTS)
    assert not diff, f"{diff}\nthe contracts differ from the code: run `{WRITE_COMMAND}`"


def test_a_changed_contract_shows_as_a_diff_and_the_command_fixes_it(tmp_path: Path) -> None:
    write(tmp_path)
    assert differences(tmp_path) == ""
    schema = tmp_path / "schemas" / "RoundEvent.json"
    schema.write_text(schema.read_text().replace('"card_dealt"', '"card_drawn"'))
    (tmp_path / "schemas" / "Gone.json").write_text("{}\n")
    check = [sys.executable, "-m", "dealer_station", "schema", "--check", str(tmp_path)]
    result = subprocess.run(check, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1
    assert '"card_drawn"' in result.stdout
    assert "committed/schemas/Gone.json" in result.stdout
    assert WRITE_COMMAND in result.stdout
    assert sorted(write(tmp_path)) == ["schemas/Gone.json", "schemas/RoundEvent.json"]
    assert subprocess.run(check, capture_output=True, cwd=ROOT).returncode == 0


def test_the_asyncapi_document_is_valid_asyncapi_3() -> None:
    document = json.loads((CONTRACTS / "asyncapi.json").read_text())
    validator = jsonschema_rs.validator_for(json.loads(ASYNCAPI_SCHEMA.read_text()))
    errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors, "\n".join(errors)
    # Every message's payload is a committed schema, and its examples fit it.
    examples = 0
    for message in document["components"]["messages"].values():
        schema = json.loads((CONTRACTS / message["payload"]["schema"]["$ref"]).read_text())
        check = jsonschema_rs.Draft202012Validator(schema, validate_formats=True)
        for example in message.get("examples", []):
            check.validate(example["payload"])
            examples += 1
    assert examples >= 3


def test_every_schema_has_its_id_and_dialect_and_is_a_valid_schema() -> None:
    ids = set()
    for name, text in contract_files().items():
        if not name.startswith("schemas/"):
            continue
        schema = json.loads(text)
        assert schema["$schema"] == DIALECT
        assert schema["$id"].endswith(":" + Path(name).stem)
        ids.add(schema["$id"])
        jsonschema_rs.meta.validate(schema)
    assert len(ids) == len([n for n in contract_files() if n.startswith("schemas/")])


def test_operation_ids_are_the_route_functions_and_unique() -> None:
    document = describe().openapi()
    ids = [op["operationId"] for path in document["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert {"place_bet", "decide", "get_state", "healthz"} <= set(ids)


def test_a_refusal_names_its_reason_from_the_enum() -> None:
    refusal = describe().openapi()["components"]["schemas"]["Refusal"]
    assert refusal["properties"]["reason"]["enum"] == [r.value for r in RefusalReason]


def _examples(model: type[BaseModel]) -> list[Any]:
    examples = model.model_config.get("json_schema_extra") or {}
    assert isinstance(examples, dict)
    found = examples.get("examples", [])
    assert isinstance(found, list)
    return found


REQUEST_BODIES = [
    m
    for m in vars(bodies).values()
    if isinstance(m, type) and issubclass(m, bodies.Body) and m is not bodies.Body
]


@pytest.mark.parametrize(
    "model", [*REQUEST_BODIES, bodies.Accepted, bodies.Refusal], ids=lambda m: m.__name__
)
def test_each_body_has_an_example_its_model_takes(model: type[BaseModel]) -> None:
    examples = _examples(model)
    assert examples, f"{model.__name__} has no example"
    for example in examples:
        model.model_validate(example)

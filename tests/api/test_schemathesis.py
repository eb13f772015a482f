"""Property-based requests from the published OpenAPI schema, against the real
station: whatever schemathesis makes up, the station never answers 500, and
every answer is one the schema documents, in the documented shape.

Each request carries a token of a role that may call the operation, and names
a real table, so the fuzzing gets past the doors to the tables themselves. The
counts of answers by status are printed (``pytest -s``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import APIOperation, checks
from support.broker import Broker
from support.station_rig import TABLES, TOKENS, Rig, running, station_config

EXAMPLES = 30
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


@pytest.fixture(scope="module")
def fuzzed(module_broker: Broker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    workdir = tmp_path_factory.mktemp("fuzzed")
    with running(station_config(workdir, module_broker.port, TABLES)) as station:
        yield station


def role_for(path: str) -> str:
    if "/pit-boss/" in path:
        return "pit_boss"
    if path in ("/auth/pit-boss", "/auth/pit-bosses", "/tables/{table}/round/deal"):
        return "croupier"
    if path.startswith(("/tables/{table}/shoe", "/tables/{table}/wheel")):
        return "croupier"
    if any(p in path for p in ("/bets", "/decisions", "/offers", "/rounds", "/round/")):
        return "game_server"
    return "viewer"


def test_no_generated_request_breaks_the_station(fuzzed: Rig) -> None:
    schema = schemathesis.openapi.from_url(fuzzed.url + "/openapi.json")
    statuses: Counter[int] = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    tables = [t["id"] for t in TABLES]

    def fuzzer(operation: APIOperation) -> Callable[[], None]:
        token = TOKENS[role_for(operation.path)]

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def fuzz(case: schemathesis.Case) -> None:
            if "table" in (case.path_parameters or {}):
                # Mostly a real table; now and then whatever was generated (a 404).
                name = case.path_parameters["table"]
                if len(name) % 4 < 3:
                    case.path_parameters["table"] = tables[len(name) % 4]
            response = case.call(headers={"Authorization": f"Bearer {token}"})
            statuses[response.status_code] += 1
            case.validate_response(response, checks=CHECKS)

        return fuzz

    for operation in operations:
        fuzzer(operation)()
    print(
        f"schemathesis: {len(operations)} operations, {sum(statuses.values())} requests, "
        f"statuses {dict(sorted(statuses.items()))}"
    )
    assert statuses and 500 not in statuses

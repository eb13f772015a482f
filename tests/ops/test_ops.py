"""ops/: the Prometheus alert rules and the Grafana dashboard hold together.

promtool (Debian's ``prometheus`` package, which ``./dev test`` installs) checks
the rules, runs their unit tests (ops/alerts_test.yml) and parses every query
of the dashboard; a live station with a shoe, against a real mosquitto, is
scraped to show that every metric name they use is one it exposes.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.broker import running_broker
from support.scrape import exposed_names
from support.station_rig import running, shoe_tables, station_config

from drivers.shoe.simulator import FramedShoeSimulator

OPS = Path(__file__).resolve().parents[2] / "ops"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is missing: Debian's prometheus package (./dev test) has it"
)
# A series name in PromQL: what follows is a label set, a range or an operator.
NAME = re.compile(r"\b((?:dealer_station|process|python)_[a-zA-Z0-9_]*)\b")


def promtool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    assert PROMTOOL is not None
    return subprocess.run(
        [PROMTOOL, *map(str, args)], capture_output=True, text=True, timeout=60, check=False
    )


def dashboard_queries() -> list[str]:
    dashboard: dict[str, Any] = json.loads((OPS / "grafana-dashboard.json").read_text())
    queries = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    queries += [v["query"]["query"] for v in dashboard["templating"]["list"]]
    return queries


def rule_queries() -> list[str]:
    rules = yaml.safe_load((OPS / "alerts.yml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


@needs_promtool
def test_the_alert_rules_are_valid() -> None:
    checked = promtool("check", "rules", OPS / "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@needs_promtool
def test_each_alert_fires_when_it_should_and_not_before() -> None:
    tested = promtool("test", "rules", OPS / "alerts_test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr


@needs_promtool
def test_every_dashboard_query_is_promql(tmp_path: Path) -> None:
    # promtool parses PromQL only in rule files: each query becomes a recording rule,
    # with the dashboard's variables as Grafana would fill them.
    queries = [q for q in dashboard_queries() if not q.startswith("label_values(")]
    assert queries
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query{i}", "expr": q.replace("$instance", ".*")
                     .replace("$table", ".*")}
                    for i, q in enumerate(queries)
                ],
            }
        ]
    }
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump(rules))
    checked = promtool("check", "rules", path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture(scope="module")
def scraped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The /metrics of a station with a framed shoe and a roulette table."""
    work = tmp_path_factory.mktemp("ops")
    for broker in running_broker(work):
        yield _scrape(broker.port, work)


def _scrape(broker_port: int, work: Path) -> str:
    with (
        FramedShoeSimulator(decks=8, seed=3) as sim,
        running(station_config(work, broker_port, shoe_tables(sim.port))) as rig,
    ):
        rig.wait_until(lambda: rig.get("/readyz").status_code == 200)
        return rig.get("/metrics", "viewer").text


def test_every_metric_the_rules_and_the_dashboard_use_is_exposed(scraped: str) -> None:
    used = {name for q in rule_queries() + dashboard_queries() for name in NAME.findall(q)}
    assert len(used) > 20  # the pattern finds the names, not nothing
    assert used - exposed_names(scraped) == set()

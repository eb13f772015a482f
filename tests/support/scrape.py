"""A station's /metrics as Prometheus reads it: parsed by prometheus_client's
own parser, not by the station's code."""

from __future__ import annotations

from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

# The samples each type of family exposes, after the family's name.
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("_count", "_sum", "_created"),
    "info": ("_info",),
    "gauge": ("",),
}


def families(text: str) -> dict[str, Metric]:
    return {f.name: f for f in text_string_to_metric_families(text)}


def exposed_names(text: str) -> set[str]:
    """Every series name the exposition declares, with or without samples now."""
    names: set[str] = set()
    for family in families(text).values():
        names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
        names |= {s.name for s in family.samples}
    return names


def value(text: str, name: str, **labels: str) -> float:
    """The one sample of that name whose labels are exactly these."""
    found = [
        s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name == name and s.labels == labels
    ]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} samples {name}{labels} in /metrics")
    return found[0]

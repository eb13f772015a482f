"""The lock files (requirements/*.lock, made by ``./dev lock``) are what
pyproject.toml asks for, pinned with hashes: ``./dev`` installs
requirements/dev.lock, a station (systemd/README.md) requirements/station.lock,
so two Pis installed a week apart run the same software."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
# A Pi's Debian bookworm and this machine: CPython 3.11 on Linux.
ENVIRONMENT = {"python_version": "3.11", "python_full_version": "3.11.2", "sys_platform": "linux",
               "platform_system": "Linux", "implementation_name": "cpython",
               "platform_python_implementation": "CPython", "extra": ""}  # fmt: skip

PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)(?: ; (?P<marker>[^\\]+?))?\s*\\?$")


def pins(lock: str) -> dict[str, list[tuple[Version, int]]]:
    """Each package of a lock: its versions (one a platform or Python, by
    marker, where they differ) that apply here, with how many hashes each has."""
    found: dict[str, list[tuple[Version, int]]] = {}
    current: list[tuple[Version, int]] | None = None
    for line in (ROOT / "requirements" / lock).read_text().splitlines():
        match = PIN.match(line)
        if match:
            marker = match["marker"]
            if marker is None or Marker(marker.strip()).evaluate(ENVIRONMENT):
                current = found.setdefault(canonicalize_name(match["name"]), [])
                current.append((Version(match["version"]), 0))
            else:
                current = None
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = current[-1]
            current[-1] = (version, hashes + 1)
    return found


def wanted(*extras: str) -> list[Requirement]:
    out = [Requirement(r) for r in PROJECT["dependencies"]]
    for extra in extras:
        for text in PROJECT["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == canonicalize_name(PROJECT["name"]):
                out += wanted(*requirement.extras)  # the project's own extra, as in test's
            else:
                out.append(requirement)
    return out


@pytest.mark.parametrize(("lock", "extras"), [("station.lock", ()), ("dev.lock", ("demo", "test"))])
def test_the_lock_pins_what_the_project_asks_for_with_hashes(
    lock: str, extras: tuple[str, ...]
) -> None:
    locked = pins(lock)
    for requirement in wanted(*extras):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{lock} lacks {requirement}"
        for version, hashes in locked[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"{lock}: {name}=={version} is not {requirement}"
            )
            assert hashes > 0, f"{lock}: {name}=={version} has no hash"
    for name, versions in locked.items():
        assert all(hashes > 0 for _, hashes in versions), f"{lock}: {name} has no hash"


def test_a_station_installs_neither_the_demo_broker_nor_the_tests() -> None:
    station = pins("station.lock")
    for extra in ("demo", "test"):
        for requirement in wanted(extra):
            direct = canonicalize_name(requirement.name)
            if direct not in {canonicalize_name(r.name) for r in wanted()}:
                assert direct not in station, f"station.lock installs {direct} ({extra})"


def test_the_runtime_pins_are_the_same_in_both_locks() -> None:
    # A station and the tests run the same versions of what a station runs.
    station, dev = pins("station.lock"), pins("dev.lock")
    for name, versions in station.items():
        assert [v for v, _ in dev[name]] == [v for v, _ in versions], name

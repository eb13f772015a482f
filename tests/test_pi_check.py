"""The quick part of the arm64 check (``tools/pi-check --quick``): a Pi installs
requirements/station.lock from wheels, each compiled package's an aarch64 one
whose hash the lock holds. It asks the package index (no emulation); the whole
check, under qemu, is run by hand (systemd/README.md, "Check on arm64 before a Pi")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The station's packages with compiled code (C, C++ or Rust extensions).
COMPILED = {"numpy", "opencv-python-headless", "pydantic-core", "websockets"}


def quick(lock: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOT / "tools/pi-check"), "--quick", "--lock", str(lock)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHON": sys.executable},
        timeout=240,
    )


def test_the_station_lock_has_an_aarch64_wheel_for_every_compiled_package() -> None:
    run = quick(ROOT / "requirements/station.lock")
    assert run.returncode == 0, run.stderr
    kinds = dict(line.split() for line in run.stdout.splitlines() if line.startswith("  "))
    assert set(kinds) >= COMPILED
    for name in COMPILED:
        assert "aarch64" in kinds[name], f"{name}: {kinds[name]}"
    assert {kinds[name] for name in set(kinds) - COMPILED} == {"pure"}


def test_a_lock_without_the_pis_hash_is_refused(tmp_path: Path) -> None:
    # numpy pinned as in the station's lock, but with none of its files' hashes.
    lock = (ROOT / "requirements/station.lock").read_text()
    numpy = re.search(r"^numpy==.*?(?=^\S)", lock, re.S | re.M)
    assert numpy
    pin = numpy[0].splitlines()[0].rstrip(" \\")
    wrong = lock.replace(numpy[0], f"{pin} \\\n    --hash=sha256:{'0' * 64}\n")
    (tmp_path / "station.lock").write_text(wrong)
    run = quick(tmp_path / "station.lock")
    assert run.returncode == 1
    assert "numpy" in run.stderr


def test_a_package_a_pi_would_build_from_source_is_named(tmp_path: Path) -> None:
    # numpy 1.23.1 came before CPython 3.11's wheels (1.23.2): for a Pi's 3.11 it is
    # the source archive alone, pinned here by that archive's hash.
    sdist = "d748ef349bfef2e1194b59da37ed5a29c19ea8d7e6342019921ba2ba4fd8b624"
    (tmp_path / "station.lock").write_text(f"numpy==1.23.1 \\\n    --hash=sha256:{sdist}\n")
    run = quick(tmp_path / "station.lock")
    assert run.returncode == 1
    assert "numpy==1.23.1: no wheel for a Pi" in run.stderr

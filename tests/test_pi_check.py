"""The quick part of the arm64 check (``tools/pi-check --quick``): a Pi installs
requirements/station.lock from wheels, each compiled package's an aarch64 one
whose hash the lock holds. It asks the package index (no emulation); the whole
check, under qemu, is run by hand (systemd/README.md, "Check on arm64 before a Pi").
Its steps' own machinery (timeouts, CPU, the demo's online) is tested natively."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tools.pi_check import (
    DEMO_SECONDS,
    CheckFailed,
    Place,
    Timings,
    rules_tests_command,
    run_demo,
)

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


def native_place(tmp_path: Path) -> Place:
    # The project's own venv, which ./dev set up: this machine's side of the check.
    return Place("native", None, str(ROOT), str(Path(sys.executable).parents[1]), tmp_path)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_step_past_its_timeout_fails_and_its_every_process_is_killed(tmp_path: Path) -> None:
    # The shell waits for a child of its own, as pip waits for a build or a
    # test for its qemu: both must go.
    sleeper = ["sh", "-c", f"sleep 600 & echo $! > {tmp_path}/child; wait"]
    place = native_place(tmp_path)
    with pytest.raises(CheckFailed, match="sleeper was still running after 3 s: stopped"):
        place.run(Timings(), "sleeper", "sleeper", sleeper, timeout=3)
    child = int((tmp_path / "child").read_text())
    # A SIGKILL takes effect soon, not at once.
    for _ in range(100):
        if not alive(child):
            break
        time.sleep(0.1)
    assert not alive(child)


def test_a_step_counts_the_cpu_of_its_children(tmp_path: Path) -> None:
    spin = "import time\nwhile time.process_time() < 0.3: pass"
    timings = Timings()
    place = native_place(tmp_path)
    place.run(timings, "spin", "spin", ["sh", "-c", f'"$0" -c "{spin}"', sys.executable], 60)
    figure = timings.steps["spin"]["native"]
    assert figure.cpu is not None and figure.cpu >= 0.3


def test_the_rules_tests_have_no_per_test_limit_under_emulation_only(tmp_path: Path) -> None:
    native = native_place(tmp_path)
    arm64 = Place("arm64", tmp_path / "root", "/src", "/opt/venv", tmp_path)
    assert "--timeout=0" in rules_tests_command(arm64)
    assert not any(arg.startswith("--timeout") for arg in rules_tests_command(native))


@pytest.mark.slow
def test_the_demo_goes_online_natively(tmp_path: Path) -> None:
    timings = Timings()
    statuses = run_demo(native_place(tmp_path), timings)
    tables = ("baccarat-1", "blackjack-1", "roulette-1")
    assert statuses == {f"dealer-station/demo/{table}/status": "online" for table in tables}
    assert set(timings.steps) == {"demo: start to online", f"demo: {DEMO_SECONDS} s"}
    whole = timings.steps[f"demo: {DEMO_SECONDS} s"]["native"]
    assert whole.cpu is not None and whole.cpu > 0

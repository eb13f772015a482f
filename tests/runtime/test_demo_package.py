"""``pip install .`` then ``dealer-station demo``: the demo needs nothing of the
repository beside the package. A wheel is built from the working tree (a venv
install would take minutes here), unpacked, and imported alone: the demo's
wheel clip is found in it through importlib.resources, not in tests/."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("dealer_station", "drivers", "vision", "firmware_proto")

FIND_THE_CLIP = """
import sys
from pathlib import Path

import dealer_station
from dealer_station.demo import wheel_clip
from drivers.recorded_wheel import RecordedWheel

root = Path(sys.argv[1]).resolve()
assert Path(dealer_station.__file__).resolve().is_relative_to(root), dealer_station.__file__
with wheel_clip() as clip:
    RecordedWheel(clip)  # refuses a clip that is not there
    print(clip.resolve())
"""


@pytest.mark.slow
def test_the_installed_package_carries_the_demo_wheel_clip(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=240,
    )
    (built,) = tmp_path.glob("dealer_station-*.whl")
    installed = tmp_path / "installed"
    with zipfile.ZipFile(built) as wheel:
        names = wheel.namelist()
        wheel.extractall(installed)
    assert "dealer_station/demo_wheel/valid-190.avi" in names
    # The demo's croupiers play the packaged basic strategy tables.
    assert "dealer_station/strategy_tables/live-blackjack.json" in names
    assert not [n for n in names if n.startswith("tests/")]

    found = subprocess.run(
        [sys.executable, "-P", "-c", FIND_THE_CLIP, str(installed)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    clip = Path(found.stdout.strip())
    assert clip == (installed / "dealer_station" / "demo_wheel" / "valid-190.avi").resolve()


def test_the_station_code_names_no_path_into_tests() -> None:
    """What the package reads at run time is in the package: no module opens a
    file under the repository's tests/ (a docstring may still mention tests)."""
    path_into_tests = re.compile(r"""["'/]tests(/|["'])""")
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if path_into_tests.search(line)
    ]
    assert found == []

"""Score the unit's sandbox the way systemd does, without installing it.

    .venv/bin/python benchmarks/systemd_security.py

Runs ``systemd-analyze security --offline=yes systemd/dealer-station.service`` and
prints the overall exposure (0.0 best, 10.0 worst) and every check the unit does not
pass with its weight. tests/systemd/test_units.py holds the threshold and the reason
for each exposure that is accepted.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "dealer-station.service"


def main() -> int:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        print("systemd-analyze is not installed (Debian: apt install systemd)", file=sys.stderr)
        return 2
    command = [analyze, "security", "--offline=yes", "--no-pager", str(UNIT)]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    table = subprocess.run(
        [*command, "--json=short"], capture_output=True, text=True, check=True
    ).stdout
    overall = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", text)
    if overall is None:
        print(text, file=sys.stderr)
        return 1
    version = subprocess.run(
        [analyze, "--version"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]
    print(f"$ systemd-analyze security --offline=yes systemd/{UNIT.name}   ({version})")
    for check in json.loads(table):
        if check["set"] is False:
            print(f"  {check['exposure']}  {check['name']:<45} {check['description']}")
    print(f"overall exposure: {overall.group(1)} {overall.group(2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

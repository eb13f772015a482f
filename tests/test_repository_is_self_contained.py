"""A clone of the repository holds its own spec.

The architecture is docs/architecture.md, the rules are docs/rules.md and the
operators' rule texts are in docs/sources/. No tracked file may point outside
the repository for them: not to a folder beside the clone, nor to the names the
spec had there (the rules page, the design page, the seed texts' folder).

The patterns are built from pieces, so that this file does not match them and
is checked like every other.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OUTSIDE = re.compile(
    "|".join(
        (
            re.escape(".." + "/shared"),
            r"\b" + "RULES" + r"\.md\b",
            r"\b" + "DESIGN" + r"\.md\b",
            r"\b" + "seeds" + "/",
        )
    ).encode()
)


def tracked_files() -> list[str]:
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    return [name for name in listing.decode().split("\0") if name]


def test_the_listing_is_the_repository() -> None:
    names = tracked_files()
    assert "README.md" in names
    assert "docs/architecture.md" in names
    assert "docs/rules.md" in names


def test_no_tracked_file_points_outside_the_repository() -> None:
    found: list[str] = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():  # deleted in the work tree, not yet committed
            continue
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            match = OUTSIDE.search(line)
            if match is not None:
                found.append(f"{name}:{number}: {match.group().decode()}")
    assert not found, "files that cite the spec outside the repository:\n" + "\n".join(found)


def test_the_sources_are_where_the_rules_say() -> None:
    """Every rule text docs/rules.md names is in docs/sources/."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"docs/sources/([\w.-]+\.txt)", rules))
    assert named, "docs/rules.md names no source text"
    missing = sorted(n for n in named if not (ROOT / "docs" / "sources" / n).is_file())
    assert not missing, f"docs/rules.md names texts not in docs/sources/: {missing}"

"""Contact sheets of the browser tests' screenshots, one image a screen with
every size it was taken at side by side, for docs/images/screens/.

    ./dev test tests/browser          # takes the screenshots (artifacts/screenshots)
    .venv/bin/python tools/contact_sheets.py [--height 360]

A screen's shots are named ``<screen>-<W>x<H>.png`` by the tests
(tests/support/browser_pages.py); a screen shot at one size only is left out,
as it has nothing to set beside. Each shot is scaled to the same height, so a
phone's tall page and a 16:9 screen are compared at a glance; the size is
written under each.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
SHOT = re.compile(r"^(?P<screen>.+)-(?P<w>\d+)x(?P<h>\d+)\.png$")
GAP = 16
LABEL = 28

Image = npt.NDArray[np.uint8]


def sheet(shots: list[tuple[int, int, Path]], height: int) -> Image:
    tiles: list[Image] = []
    for w, h, path in sorted(shots, key=lambda s: (s[0] * s[1], s[0])):
        picture = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if picture is None:
            raise SystemExit(f"contact_sheets: cannot read {path}")
        width = max(1, round(picture.shape[1] * height / picture.shape[0]))
        tile: Image = np.full((height + LABEL, width, 3), 255, np.uint8)
        tile[:height] = cv2.resize(picture, (width, height), interpolation=cv2.INTER_AREA)
        cv2.putText(
            tile,
            f"{w}x{h}",
            (4, height + LABEL - 8),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (40, 40, 40),
            1,
            cv2.LINE_AA,
        )
        tiles.append(tile)
    gap = np.full((height + LABEL, GAP, 3), 255, np.uint8)
    row: list[Image] = []
    for tile in tiles:
        row += [tile, gap]
    return np.hstack(row[:-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, default=ROOT / "artifacts" / "screenshots")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "screens")
    parser.add_argument("--height", type=int, default=360)
    args = parser.parse_args(argv)
    screens: dict[str, list[tuple[int, int, Path]]] = defaultdict(list)
    for path in sorted(args.shots.glob("*.png")):
        match = SHOT.match(path.name)
        if match:
            screens[match["screen"]].append((int(match["w"]), int(match["h"]), path))
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for screen, shots in sorted(screens.items()):
        if len(shots) < 2:
            continue
        cv2.imwrite(
            str(args.out / f"{screen}.png"),
            sheet(shots, args.height),
            [cv2.IMWRITE_PNG_COMPRESSION, 9],
        )
        written += 1
    print(f"contact_sheets: {written} sheets in {args.out}")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())

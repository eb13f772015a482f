"""The station on arm64 before a Pi: a Debian bookworm arm64 root built with
mmdebstrap, run through qemu-user's binfmt handler, where the station is
installed from requirements/station.lock and run; each step is timed there and
natively, for the slowdown (systemd/README.md, "Check on arm64 before a Pi").

    ./dev pi-check            # the whole check, as root (minutes; the root is cached)
    ./dev pi-check --quick    # only: the lock holds an aarch64 wheel of every package

The quick part needs no emulation and no root: pip resolves the lock for a
Pi's platform (CPython 3.11, glibc 2.36, aarch64) from wheels only, and each
chosen file's hash must be one of the lock's. CI runs it (tests/test_pi_check.py);
the whole check is run by hand, its figures written into the README.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
PI_ROOT = CACHE / "pi-root"
NATIVE = CACHE / "pi-native"

# The root's recipe: a change to any of it builds the root anew. The packages a
# station needs on a Pi (systemd/README.md step 1), and mosquitto with its
# client so that the demo goes online and its messages can be read.
SUITE = "bookworm"
ARCH = "arm64"
PACKAGES = (
    "python3",
    "python3-venv",
    "sqlite3",
    "mosquitto",
    "mosquitto-clients",
    "ca-certificates",
)
RECIPE = {"suite": SUITE, "arch": ARCH, "variant": "apt", "packages": sorted(PACKAGES)}

# The rules tests' own tools, taken from requirements/dev.lock with what they need.
TEST_TOOLS = ("pytest", "pytest-timeout", "hypothesis")
RULES_TESTS = "tests/games"
WHEEL_FIXTURE = "tests/fixtures/wheel/valid-190"  # .mkv, and .json: the number it shows
DEMO_SECONDS = 30
DEMO_TABLES = 3  # baccarat, blackjack, roulette
VENV = "/opt/dealer-station/venv"
HOST_PACKAGES = {
    "mmdebstrap": "mmdebstrap",
    "arch-test": "arch-test",
    "qemu-aarch64-static": "qemu-user-static",
    "update-binfmts": "binfmt-support",
    "mosquitto_sub": "mosquitto-clients",
    "unshare": "util-linux",
}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"  # Debian's, on both sides


class CheckFailed(Exception):
    """A step that could not be done, with what to do about it."""


# --- the quick part: a Pi's wheels in the lock ------------------------------------------

PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)")
# pip takes a --platform tag as it is (no older manylinux with it): every glibc a
# bookworm Pi runs wheels for, 2.17 (manylinux2014) to its own 2.36.
PI_PLATFORM = [
    arg for minor in range(17, 37) for arg in ("--platform", f"manylinux_2_{minor}_aarch64")
]
PIP_DRY_RUN = [
    "install",
    "--dry-run",
    "--quiet",
    "--no-deps",
    "--ignore-installed",
    "--only-binary",
    ":all:",
]
PI_PYTHON = ["--python-version", "3.11", "--implementation", "cp", "--abi", "cp311"]


@dataclass(frozen=True)
class PiWheels:
    """What a Pi installs from a lock: each package's wheel, pure or compiled
    (its platform tag), or pip's reasons why it cannot."""

    kinds: dict[str, str]
    problems: list[str]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pi_wheels(lock: Path) -> PiWheels:
    """pip resolves the lock for a Pi from wheels only (``--only-binary :all:``)
    and checks each chosen file's hash against the lock's (``--require-hashes``,
    implied by the hashes): a package with no aarch64 or pure wheel, or a wheel
    whose hash the lock lacks, fails it, and pip names the package.
    ``--dry-run`` reads the wheels' metadata, not the wheels."""
    with tempfile.TemporaryDirectory(prefix="pi-check-") as tmp:
        report = Path(tmp) / "report.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                *PIP_DRY_RUN,
                *PI_PLATFORM,
                *PI_PYTHON,
                "--target",
                str(Path(tmp) / "target"),
                "--report",
                str(report),
                "-r",
                str(lock),
            ],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            # pip's own words, a file's address shortened to its name.
            said = re.sub(r"https?://\S+/", "", run.stderr).strip().splitlines()
            reason = [line for line in said if line.startswith(("ERROR", "    "))] or said[-5:]
            reason += [
                f"{found}: no wheel for a Pi (CPython 3.11 on aarch64, or pure): "
                "it would be built from source there, if it builds at all"
                for found in re.findall(r"No matching distribution found for (\S+)", run.stderr)
            ]
            return PiWheels({}, [f"pip cannot install {lock.name} on a Pi from wheels:", *reason])
        chosen = json.loads(report.read_text())["install"]
    kinds = {}
    for item in chosen:
        filename = item["download_info"]["url"].rsplit("/", 1)[-1]
        platform = filename.removesuffix(".whl").rsplit("-", 1)[-1]
        kinds[canonical(item["metadata"]["name"])] = "pure" if platform == "any" else platform
    return PiWheels(kinds, [])


def run_quick(lock: Path) -> int:
    found = pi_wheels(lock)
    for name, kind in sorted(found.kinds.items()):
        print(f"  {name:28} {kind}")
    if found.problems:
        print(f"pi-check: {lock.name} is not installable on a Pi from wheels:", file=sys.stderr)
        for line in found.problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    compiled = sum(kind != "pure" for kind in found.kinds.values())
    print(
        f"pi-check: {lock.name}: an aarch64 wheel for each of its {len(found.kinds)} packages "
        f"({compiled} compiled), each hash in the lock"
    )
    return 0


# --- the host: packages, binfmt, the root -----------------------------------------------


def sh(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """A host command whose failure ends the check, with its own words."""
    run = subprocess.run(list(args), capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if run.returncode != 0:
        raise CheckFailed(
            f"{' '.join(args)} failed ({run.returncode}): {run.stderr.strip()[-2000:]}"
        )
    return run  # type: ignore[no-any-return]


def ensure_host_tools() -> None:
    missing = sorted(
        {
            pkg
            for tool, pkg in HOST_PACKAGES.items()
            if shutil.which(tool) is None and not Path("/usr/sbin", tool).exists()
        }
    )
    if not missing:
        return
    print(f"pi-check: installing {' '.join(missing)}", flush=True)
    sh("apt-get", "update", "-q")
    sh(
        "apt-get",
        "install",
        "-y",
        "-q",
        *missing,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def ensure_binfmt() -> str:
    """Makes the kernel run aarch64 programs through qemu; returns its interpreter,
    which a chroot must hold too unless the handler is fixed (flag F: the kernel
    opened it at registration, as Debian's qemu-user-static registers it)."""
    if not (BINFMT / "status").exists():
        run = subprocess.run(
            ["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise CheckFailed(
                f"binfmt_misc is not mounted at {BINFMT} and root cannot mount it here "
                f"({run.stderr.strip()}): run pi-check in a VM or on a host, not in an "
                "unprivileged container"
            )
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True)
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        raise CheckFailed(
            f"qemu-aarch64 is not enabled in {BINFMT} after `update-binfmts --enable "
            "qemu-aarch64`: see `update-binfmts --display qemu-aarch64`"
        )
    fields = dict(line.split(" ", 1) for line in entry.read_text().splitlines()[1:] if " " in line)
    return "" if "F" in fields.get("flags:", "") else fields["interpreter"]


def recipe_digest() -> str:
    return hashlib.sha256(json.dumps(RECIPE, sort_keys=True).encode()).hexdigest()


def ensure_root() -> dict[str, object]:
    """The arm64 root, built once for its recipe; returns its build record
    (recipe, first-build seconds, size in bytes, built by this run or not)."""
    record_file = PI_ROOT / "build.json"
    target = PI_ROOT / "root"
    if record_file.exists() and target.is_dir():
        record: dict[str, object] = json.loads(record_file.read_text())
        if record["recipe"] == recipe_digest():
            return {**record, "built_now": False}
    print(f"pi-check: building the {SUITE} {ARCH} root with mmdebstrap (minutes)", flush=True)
    building = PI_ROOT / "root.new"
    for stale in (building, target):
        shutil.rmtree(stale, ignore_errors=True)
    PI_ROOT.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # No mirror named: mmdebstrap takes Debian's default one.
    sh(
        "mmdebstrap",
        "--mode=root",
        f"--variant={RECIPE['variant']}",
        f"--architectures={ARCH}",
        f"--include={','.join(PACKAGES)}",
        SUITE,
        str(building),
    )
    seconds = time.monotonic() - started
    building.rename(target)
    record = {"recipe": recipe_digest(), "seconds": round(seconds, 1), "bytes": tree_bytes(target)}
    record_file.write_text(json.dumps(record, indent=2) + "\n")
    return {**record, "built_now": True}


def tree_bytes(path: Path) -> int:
    return int(sh("du", "-sb", "--one-file-system", str(path)).stdout.split()[0])


def copy_project(target: Path) -> None:
    """The work tree's files (tracked and new, not ignored), as a Pi gets them."""
    shutil.rmtree(target, ignore_errors=True)
    listed = sh("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def rules_test_lock(dev_lock: Path) -> str:
    """The test tools' part of requirements/dev.lock: each tool and, over and
    over, every package whose ``# via`` names one already taken."""
    blocks: dict[str, str] = {}
    via: dict[str, set[str]] = {}
    name = ""
    for line in dev_lock.read_text().splitlines(keepends=True):
        pin = PIN.match(line)
        if pin:
            name = canonical(pin["name"])
            blocks[name], via[name] = "", set()
        if not name:
            continue
        blocks[name] += line
        comment = line.strip().removeprefix("#").strip().removeprefix("via").strip()
        if line.strip().startswith("#") and comment and not comment.startswith("-"):
            via[name].add(canonical(comment.split()[0]))
    taken = set(TEST_TOOLS)
    while grown := {n for n, by in via.items() if n not in taken and by & taken}:
        taken |= grown
    return "".join(blocks[n] for n in sorted(taken))


# --- the steps, under emulation and natively ---------------------------------------------


@dataclass
class Place:
    """Where the steps run: the arm64 root (through unshare and chroot) or this
    machine; ``src`` and ``venv`` are paths as the commands there see them."""

    name: str
    root: Path | None
    src: str
    venv: str
    logs: Path

    def command(self, args: Sequence[str]) -> list[str]:
        env = [
            "/usr/bin/env",
            "-i",
            "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
            "HOME=/root",
            "LANG=C.UTF-8",
            "TZ=UTC",
            f"PIP_CERT={CA_BUNDLE}",
        ]
        inside = [*env, "sh", "-c", 'cd "$0" && exec "$@"', self.src, *args]
        if self.root is None:
            return inside
        # A private mount namespace: /proc and /dev inside the root vanish with the
        # command, even one that is killed.
        mount = (
            'r=$0; mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" '
            '&& exec chroot "$r" "$@"'
        )
        return [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            mount,
            str(self.root),
            *inside,
        ]

    def run(self, step: str, args: Sequence[str], timeout: float = 3600) -> str:
        """Runs one command, its output kept in the step's log; returns the output."""
        log = self.logs / f"{self.name}-{step}.log"
        run = subprocess.run(self.command(args), capture_output=True, text=True, timeout=timeout)
        log.write_text(run.stdout + run.stderr)
        if run.returncode != 0:
            raise CheckFailed(
                f"{self.name}: {step} failed ({run.returncode}), see {log}:\n"
                + (run.stdout + run.stderr)[-1500:]
            )
        return run.stdout + run.stderr


@dataclass
class Timings:
    steps: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @contextmanager
    def timed(self, place: Place, step: str) -> Iterator[None]:
        print(f"pi-check: {place.name}: {step}", flush=True)
        started = time.monotonic()
        yield
        self.steps.setdefault(step, {})[place.name] = time.monotonic() - started


def run_steps(place: Place, timings: Timings) -> None:
    py, bin_ = f"{place.venv}/bin/python", f"{place.venv}/bin"
    with timings.timed(place, "venv"):
        place.run(
            "venv",
            ["sh", "-c", f'rm -rf "{place.venv}" && /usr/bin/python3 -m venv "{place.venv}"'],
        )
    with timings.timed(place, "install the lock"):
        out = place.run(
            "install-lock",
            [
                py,
                "-m",
                "pip",
                "install",
                "--no-cache-dir",
                "--require-hashes",
                "-r",
                "requirements/station.lock",
            ],
        )
    built = sorted(set(re.findall(r"Building wheel for (\S+)", out)))
    if built:
        timings.notes.append(f"{place.name}: built from source, no wheel: {', '.join(built)}")
    with timings.timed(place, "install the project"):
        place.run(
            "install-project", [py, "-m", "pip", "install", "--no-cache-dir", "--no-deps", "."]
        )
    with timings.timed(place, "--version"):
        version = place.run("version", [f"{bin_}/dealer-station", "--version"]).strip()
    with timings.timed(place, "odds baccarat"):
        place.run("odds-baccarat", [f"{bin_}/dealer-station", "odds", "baccarat"])
    with timings.timed(place, "odds roulette"):
        place.run("odds-roulette", [f"{bin_}/dealer-station", "odds", "roulette"])
    with timings.timed(place, "wheel detect"):
        out = place.run(
            "wheel-detect",
            [f"{bin_}/dealer-station", "wheel", "detect", "--json", f"{WHEEL_FIXTURE}.mkv"],
        )
    expect_wheel_number(place, out)
    with timings.timed(place, "test tools (dev.lock)"):
        place.run(
            "test-tools",
            [
                py,
                "-m",
                "pip",
                "install",
                "--no-cache-dir",
                "--require-hashes",
                "-r",
                "rules-tests.lock",
            ],
        )
    with timings.timed(place, f"rules tests ({RULES_TESTS})"):
        out = place.run(
            "rules-tests", [f"{bin_}/pytest", "-q", "-p", "no:cacheprovider", RULES_TESTS]
        )
    timings.notes.append(f"{place.name}: {version}; rules tests: {out.strip().splitlines()[-1]}")
    # The demo runs for a fixed time: what differs is how soon it is online.
    print(f"pi-check: {place.name}: demo ({DEMO_SECONDS} s)", flush=True)
    timings.steps.setdefault("demo: start to online", {})[place.name] = run_demo(place, timings)


def expect_wheel_number(place: Place, output: str) -> None:
    truth = json.loads((ROOT / f"{WHEEL_FIXTURE}.json").read_text())["number"]
    results = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    numbers = [r.get("number") for r in results if r.get("type") == "result"]
    if numbers != [truth]:
        raise CheckFailed(
            f"{place.name}: wheel detect read {numbers} from {WHEEL_FIXTURE}.mkv, "
            f"which shows {truth}"
        )


def run_demo(place: Place, timings: Timings) -> float:
    """The demo for DEMO_SECONDS; it must go online: every table's retained
    ``status`` says online on its broker. Returns the seconds from the start
    to the station's first broker connection."""
    log = place.logs / f"{place.name}-demo.log"
    with log.open("w") as out:
        started = time.monotonic()
        demo = subprocess.Popen(
            place.command(
                [
                    f"{place.venv}/bin/dealer-station",
                    "demo",
                    "--http-port",
                    str(free_port()),
                    "--seed",
                    "7",
                    "--broker",
                    "mosquitto",
                ]
            ),
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        online: float | None = None
        try:
            while time.monotonic() - started < DEMO_SECONDS:
                if demo.poll() is not None:
                    raise CheckFailed(
                        f"{place.name}: the demo ended ({demo.returncode}), see {log}"
                    )
                if online is None and "connected to the broker" in log.read_text():
                    online = time.monotonic() - started
                time.sleep(0.2)
            watch = re.search(
                r"watch MQTT  mosquitto_sub -h (\S+) -p (\d+) -t '([^']+)'", log.read_text()
            )
            if online is None or watch is None:
                raise CheckFailed(
                    f"{place.name}: the demo did not go online in {DEMO_SECONDS} s, see {log}"
                )
            host, broker_port, topics = watch.groups()
            seen = subprocess.run(
                place.command(
                    ["mosquitto_sub", "-h", host, "-p", broker_port, "-t", topics, "-v", "-W", "3"]
                ),
                capture_output=True,
                text=True,
            ).stdout
        finally:
            demo.send_signal(signal.SIGINT)
            try:
                demo.wait(30)
            except subprocess.TimeoutExpired:
                demo.kill()
                demo.wait()
    statuses = [line for line in seen.splitlines() if line.split(" ", 1)[0].endswith("/status")]
    if len(statuses) != DEMO_TABLES or not all('"online"' in line for line in statuses):
        raise CheckFailed(
            f"{place.name}: the demo's broker holds {statuses!r}, not {DEMO_TABLES} tables online"
        )
    timings.notes.append(
        f"{place.name}: demo online, {DEMO_TABLES} tables' status online, "
        f"{len(seen.splitlines())} messages read in 3 s"
    )
    return online


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- the whole check ---------------------------------------------------------------------


def run_whole() -> int:
    if os.geteuid() != 0:
        raise CheckFailed(
            "the whole check builds a root and chroots into it: run it as root "
            "(`--quick` needs neither)"
        )
    ensure_host_tools()
    interpreter = ensure_binfmt()
    record = ensure_root()
    root = PI_ROOT / "root"
    if interpreter:  # a handler not fixed at registration is looked up inside the root
        (root / interpreter.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(interpreter, root / interpreter.lstrip("/"))
    # pip in the root reaches the index as this machine does: its name servers, and
    # the certificate authorities it trusts (a network whose proxy signs with its own).
    shutil.copyfile("/etc/resolv.conf", root / "etc/resolv.conf")
    shutil.copyfile(CA_BUNDLE, root / CA_BUNDLE.lstrip("/"))
    logs = CACHE / "pi-check-logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    tests_lock = rules_test_lock(ROOT / "requirements/dev.lock")
    arm64 = Place("arm64", root, "/src", VENV, logs)
    native = Place("native", None, str(NATIVE / "src"), str(NATIVE / "venv"), logs)
    for src in (root / "src", NATIVE / "src"):
        copy_project(src)
        (src / "rules-tests.lock").write_text(tests_lock)
    machine = arm64.run("machine", ["uname", "-m"]).strip()
    if machine != "aarch64":
        raise CheckFailed(f"the root runs as {machine!r}, not aarch64: binfmt did not take it")
    timings = Timings()
    for place in (arm64, native):
        run_steps(place, timings)
    print_table(timings, record, tree_bytes(root))
    return 0


def print_table(timings: Timings, record: dict[str, object], root_bytes: int) -> None:
    print(f"\n{'step':32} {'arm64 (qemu)':>13} {'native':>9} {'ratio':>7}")
    for step, by_place in timings.steps.items():
        arm64, native = by_place["arm64"], by_place["native"]
        print(f"{step:32} {arm64:12.1f}s {native:8.1f}s {arm64 / native:6.1f}x")
    print(
        f"\nroot: {SUITE} {ARCH}, built in {record['seconds']} s"
        + (" (by this run)" if record["built_now"] else " (cached)")
        + f", {int(str(record['bytes'])) / 2**20:.0f} MiB as built, "
        f"{root_bytes / 2**20:.0f} MiB with the venv and the project"
    )
    for note in timings.notes:
        print(f"  {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="only check that the lock holds an aarch64 wheel of every package",
    )
    parser.add_argument("--lock", type=Path, default=ROOT / "requirements/station.lock")
    args = parser.parse_args(argv)
    try:
        return run_quick(args.lock) if args.quick else run_whole()
    except CheckFailed as failure:
        print(f"pi-check: {failure}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

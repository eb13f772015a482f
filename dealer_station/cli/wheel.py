"""`dealer-station wheel`: calibrate the wheel camera, detect spins in a video, render
spins; decode a capture of the wheel's own sensor.

`wheel detect VIDEO --json` prints one JSON object per line (docs/wheel.md):
spin results, no-results with their reason, and alarms. `wheel decode CAPTURE
--json` prints the sensor's events, one JSON object per line (docs/wheel_sensor.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from drivers.wheel.backends import SENSORS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    wheel = subparsers.add_parser("wheel", help="the roulette wheel camera")
    sub = wheel.add_subparsers(dest="wheel_command", metavar="SUBCOMMAND", required=True)

    cal = sub.add_parser("calibrate", help="find the wheel in a video; write the calibration file")
    cal.add_argument("source", help="video file, device index or stream URL")
    cal.add_argument("--out", required=True, type=Path, help="calibration file (JSON) to write")
    cal.add_argument("--debug-image", type=Path, help="default: OUT with .png")
    cal.add_argument("--seconds", type=float, default=1.0, help="video used to calibrate")
    cal.set_defaults(handler=_calibrate)

    det = sub.add_parser("detect", help="detect spins in a video; print results and alarms")
    det.add_argument("video", help="video file, device index or stream URL")
    det.add_argument("--calibration", type=Path, help="calibration file; default: find the wheel")
    det.add_argument("--json", action="store_true", help="JSON lines (the only output format)")
    det.add_argument("--phases", action="store_true", help="also print phase changes")
    det.add_argument(
        "--speeds", action="store_true", help="also print the ball's speed on the track"
    )
    det.add_argument("--min-revolutions", type=float, default=3.0)
    det.set_defaults(handler=_detect)

    ren = sub.add_parser("render", help="render synthetic spins with their ground truth")
    ren.add_argument("--out", required=True, type=Path, help="folder for SEED.mkv + SEED.json")
    ren.add_argument("--seed", type=int, default=0, help="first seed")
    ren.add_argument("--count", type=int, default=1)
    ren.add_argument(
        "--scenario", help="valid, few_revolutions, same_direction, ...; default random"
    )
    ren.add_argument("--resolution", help="WxH; default random")
    ren.add_argument("--fps", type=float, help="default random")
    ren.add_argument("--clean", action="store_true", help="no noise, compression or flicker")
    ren.add_argument(
        "--look", default="plain", help="a named real-world look (docs/wheel.md); default plain"
    )
    ren.add_argument(
        "--from-seconds", type=float, default=0.0, help="start the clip this far into the spin"
    )
    ren.add_argument("--max-seconds", type=float, help="end the clip this far into the spin")
    ren.set_defaults(handler=_render)

    dec = sub.add_parser(
        "decode",
        help="print the events in a capture of the wheel's sensor",
        description="Print the events a station would read from CAPTURE: raw bytes from "
        "the wheel's sensor, or a pyserial spy:// hexdump "
        "(spy:///dev/dealer-wheel?file=capture.txt).",
    )
    dec.add_argument("capture", metavar="CAPTURE")
    dec.add_argument("--protocol", choices=tuple(SENSORS), default=SENSORS.default)
    dec.add_argument("--json", action="store_true", help="one JSON object a line")
    dec.set_defaults(handler=_decode)


def _source(text: str) -> str | int:
    return int(text) if text.isdigit() else text


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from drivers.camera import CameraSource, CameraUnavailable
    from vision.calibration import CalibrationError, calibrate
    from vision.debug import draw_calibration

    frames = []
    try:
        for f in CameraSource(_source(args.source)).frames():
            frames.append(f.image)
            if f.time >= args.seconds:
                break
    except CameraUnavailable as e:
        print(f"wheel calibrate: {e}", file=sys.stderr)
        return 2
    step = max(1, len(frames) // 24)
    try:
        calibration = calibrate(frames[::step])
    except CalibrationError as e:
        print(f"wheel calibrate: {e.reason}: {e.detail}", file=sys.stderr)
        return 1
    calibration.save(args.out)
    debug = args.debug_image or args.out.with_suffix(".png")
    cv2.imwrite(str(debug), draw_calibration(frames[-1], calibration))
    print(f"wrote {args.out} and {debug}")
    return 0


def _emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")


def _detect(args: argparse.Namespace) -> int:
    from drivers.camera import CameraSource, CameraUnavailable
    from vision.calibration import Calibration
    from vision.detector import WheelDetector
    from vision.observations import Alarm, AlarmKind, BallSpeed, PhaseChange, as_json
    from vision.params import DetectorParams

    calibration = Calibration.load(args.calibration) if args.calibration else None
    detector = WheelDetector(calibration, DetectorParams(min_revolutions=args.min_revolutions))
    last_t = 0.0
    frames = 0
    try:
        for f in CameraSource(_source(args.video)).frames():
            frames += 1
            last_t = f.time
            for obs in detector.feed(f.image, f.time):
                if isinstance(obs, PhaseChange) and not args.phases:
                    continue
                if isinstance(obs, BallSpeed) and not args.speeds:
                    continue
                _emit(as_json(obs))
    except CameraUnavailable as e:
        _emit(as_json(Alarm(AlarmKind.NO_FRAMES, True, str(e), -1, 0.0)))
        return 1
    if frames == 0:
        _emit(as_json(Alarm(AlarmKind.NO_FRAMES, True, "the video has no frames", -1, 0.0)))
        return 1
    for obs in detector.finish(last_t):
        _emit(as_json(obs))
    return 0


def _decode(args: argparse.Namespace) -> int:
    from dealer_station.cli._decoded import print_decoded
    from drivers.wheel import WheelError
    from drivers.wheel.capture import decode_capture, read_capture
    from drivers.wheel.events import EVENT_TYPES

    try:
        decoded = decode_capture(read_capture(Path(args.capture)), args.protocol)
    except (OSError, WheelError) as exc:
        print(f"wheel decode: {exc}", file=sys.stderr)
        return 2
    print_decoded((event.to_json() for event in decoded.events), decoded.counters,
                  as_json=args.json, width=max(map(len, EVENT_TYPES)))
    return 0


def _render(args: argparse.Namespace) -> int:
    from drivers.camera_recording import write_ffv1
    from vision.render import Scenario, UnknownLook, make_spin

    args.out.mkdir(parents=True, exist_ok=True)
    resolution = None
    if args.resolution:
        w, h = args.resolution.lower().split("x")
        resolution = (int(w), int(h))
    overrides = {"noise_sigma": 0.0, "jpeg_quality": 0, "flicker": 0.0} if args.clean else None
    scenario = Scenario(args.scenario) if args.scenario else None
    for seed in range(args.seed, args.seed + args.count):
        try:
            spin = make_spin(
                seed,
                scenario,
                resolution=resolution,
                fps=args.fps,
                overrides=overrides,
                look_name=args.look,
            )
        except UnknownLook as e:
            print(f"wheel render: {e}", file=sys.stderr)
            return 2
        truth = spin.truth.as_dict()
        first = round(args.from_seconds * spin.look.fps)
        end = spin.frame_count
        if args.max_seconds:
            end = min(end, int(args.max_seconds * spin.look.fps))
        # Frame numbers in the truth count from the clip's first frame, as a reader's do.
        truth["first_frame"] = first
        truth["frame_count"] = end - first
        for key in ("rest_frame", "launch_frame"):
            if truth[key] is not None:
                truth[key] -= first
        if truth["rest_time"] is not None:
            truth["rest_time"] -= first / spin.look.fps
        written = write_ffv1(
            args.out / f"{seed}.mkv", (spin.render(i) for i in range(first, end)), spin.look.fps
        )
        (args.out / f"{seed}.json").write_text(json.dumps(truth, indent=2) + "\n")
        print(f"{seed}: {truth['scenario']} number={truth['number']} frames={written}")
    return 0

"""Rules as data: building a frozen rules dataclass from a TOML mapping.

Every game's rules are a dataclass of named parameters with documented
defaults. A variant file sets some of them; a key the dataclass does not have, or
a value of the wrong type, is refused with the key named, so a typo in a studio's
file is an error and not a silently different game.
"""

from __future__ import annotations

import tomllib
import types
import typing
from dataclasses import MISSING, fields, is_dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def parse_ratio(text: str) -> Fraction:
    """``"3:2"`` to 3/2: what a win pays per unit staked."""
    left, sep, right = text.partition(":")
    if not sep or not left.strip().isdigit() or not right.strip().isdigit() or int(right) == 0:
        raise ValueError(f"{text!r} is not a payout ratio like '3:2'")
    return Fraction(int(left), int(right))


class RuleFileError(ValueError):
    """A variant file that cannot be played. ``key`` names the offending entry."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        super().__init__(f"{source}: {key}: {problem}")
        self.source = source
        self.key = key
        self.problem = problem


def _convert(value: Any, hint: Any, source: str, key: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(value, arg, source, key)
            except RuleFileError:
                continue
        raise RuleFileError(source, key, f"{value!r} is not a {hint}")
    if origin is typing.Literal:
        if value not in args:
            choices = ", ".join(repr(a) for a in args)
            raise RuleFileError(source, key, f"{value!r} is not one of {choices}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RuleFileError(source, key, "must be a list")
        item = args[0]
        return tuple(_convert(v, item, source, f"{key}[{i}]") for i, v in enumerate(value))
    if is_dataclass(hint) and isinstance(hint, type):
        if not isinstance(value, dict):
            raise RuleFileError(source, key, "must be a table")
        return build_rules(hint, value, source, prefix=f"{key}.")
    if hint is Decimal:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise RuleFileError(source, key, "money and ratios are written as strings or integers")
        try:
            return Decimal(value)
        except InvalidOperation:
            raise RuleFileError(source, key, f"{value!r} is not a number") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleFileError(source, key, "must be true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleFileError(source, key, "must be an integer")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RuleFileError(source, key, "must be a string")
        return value
    raise RuleFileError(source, key, f"unsupported parameter type {hint}")


def build_rules(cls: type[T], mapping: dict[str, Any], source: str, prefix: str = "") -> T:
    """Build ``cls`` from ``mapping``; every key must be a field of ``cls``."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    for key in mapping:
        if key not in names:
            raise RuleFileError(source, prefix + key, "unknown parameter")
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name in mapping:
            values[f.name] = _convert(mapping[f.name], hints[f.name], source, prefix + f.name)
        elif f.default is MISSING and f.default_factory is MISSING:
            raise RuleFileError(source, prefix + f.name, "missing required parameter")
    try:
        return cls(**values)
    except ValueError as exc:
        raise RuleFileError(source, prefix.rstrip(".") or "(file)", str(exc)) from None


def shipped_variants(game: str) -> tuple[str, ...]:
    """The names of the variants the package ships for ``game``, sorted."""
    variants = resources.files("dealer_station.games") / "variants"
    return tuple(
        sorted(
            item.name.removesuffix(".toml")
            for item in variants.iterdir()
            if item.name.endswith(".toml")
            and tomllib.loads(item.read_text(encoding="utf-8")).get("game") == game
        )
    )


def read_variant_file(name_or_path: str, game: str) -> tuple[dict[str, Any], str]:
    """The mapping of a shipped variant (by name) or of a file (by path).

    A file may say ``extends = "other-variant"``: it starts from that variant and
    overrides what it sets.
    """
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        text, source = path.read_text(encoding="utf-8"), str(path)
    else:
        resource = resources.files("dealer_station.games") / "variants" / f"{name_or_path}.toml"
        if not resource.is_file():
            raise RuleFileError(name_or_path, "variant", "no such variant file")
        text, source = resource.read_text(encoding="utf-8"), f"variants/{name_or_path}.toml"
    try:
        mapping = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleFileError(source, "(file)", f"not valid TOML: {exc}") from None
    file_game = mapping.pop("game", None)
    if file_game != game:
        raise RuleFileError(source, "game", f"is {file_game!r}, expected {game!r}")
    parent = mapping.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise RuleFileError(source, "extends", "must be a variant name")
        base, _ = read_variant_file(parent, game)
        base.update(mapping)
        mapping = base
    return mapping, source

"""Every refusal reason and every source the code can produce is in the
contract's enums (dealer_station/contracts/vocabulary.py).

The code is read, not run: each call that refuses (``Rejected(reason, ...)``,
``Refusal(reason=...)``, ``Outcome(False, seq, reason, ...)``) or that names
a source (``Command(source, ...)``) with a literal is collected. A reason that
is not a literal must come from one of the few places listed in ``COMPUTED``,
whose words are collected too; a new computed reason fails the test until it
is listed, so no reason reaches a consumer unannounced.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from dealer_station.api.commands import SOURCE_OF_ROLE
from dealer_station.contracts.vocabulary import RefusalReason, Source
from dealer_station.games.blackjack import OFFER_ANSWERS
from dealer_station.wheel_readings import SOURCE_NAMES

PACKAGE = Path(__file__).resolve().parents[2] / "dealer_station"

# (file, function) of each refusal whose reason is computed, and where its
# words come from: the literals those functions return, or the dict in the
# function (`_decide`'s what-is-due table), or the offer kinds.
COMPUTED = {
    ("games/blackjack.py", "_answer_offer"),  # f"{kind}_not_offered"
    ("games/blackjack.py", "_decide"),  # a dict of what is due, or why_not's
    ("api/table_commands.py", "wheel_result"),  # camera_online, sensor_online
    ("api/commands.py", "answer"),  # the table's outcome, already a reason
    ("api/pit_boss.py", "respin"),  # the table's outcome, already a reason
    ("table_writes.py", "_refused"),  # a Rejected's reason
}
# The functions whose returned literals are reasons (why_not and what it asks).
REASON_FUNCTIONS = {"why_not", "split_refusal"}


def _functions(tree: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node


def _call_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _reason_arg(call: ast.Call) -> ast.expr | None:
    name = _call_name(call)
    for keyword in call.keywords:
        if keyword.arg == "reason" and name in {"Rejected", "Refusal", "Outcome"}:
            return keyword.value
    if name == "Rejected" and call.args:
        return call.args[0]
    if name == "Outcome" and len(call.args) >= 3:
        return call.args[2]
    return None


def _picked(function: ast.AST) -> Iterator[str]:
    """The literals a computed ``reason`` is picked from in its function: what
    is assigned to ``reason`` (a table's values and its default), or what a
    loop binds ``reason`` to."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "reason" for t in node.targets
        ):
            keys = {id(k) for d in ast.walk(node.value) if isinstance(d, ast.Dict) for k in d.keys}
            yield from (
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str) and id(c) not in keys
            )
        if isinstance(node, ast.For) and isinstance(node.target, ast.Tuple):
            names = [t.id if isinstance(t, ast.Name) else "" for t in node.target.elts]
            if "reason" in names and isinstance(node.iter, ast.Tuple):
                at = names.index("reason")
                for item in node.iter.elts:
                    word = item.elts[at] if isinstance(item, ast.Tuple) else None
                    if isinstance(word, ast.Constant):
                        yield str(word.value)


def _code() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text())


def produced_reasons() -> tuple[set[str], set[tuple[str, str]]]:
    """The reasons the code writes, and the computed sites found."""
    reasons: set[str] = {f"{kind}_not_offered" for kind, _ in OFFER_ANSWERS.values()}
    computed: set[tuple[str, str]] = set()
    for rel, tree in _code():
        for fname, function in _functions(tree):
            if fname in REASON_FUNCTIONS:
                for node in ast.walk(function):
                    if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant):
                        reasons.add(str(node.value.value))
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                arg = _reason_arg(node)
                if arg is None:
                    continue
                if isinstance(arg, ast.Constant):
                    reasons.add(str(arg.value))
                    continue
                computed.add((rel, fname))
                reasons.update(_picked(function))
    reasons.discard("")
    return reasons, computed


def test_every_reason_the_code_refuses_with_is_in_the_enum() -> None:
    reasons, _ = produced_reasons()
    missing = sorted(reasons - set(RefusalReason))
    assert not missing, f"add to RefusalReason (and docs/events.md): {missing}"


def test_every_computed_reason_comes_from_a_known_place() -> None:
    _, computed = produced_reasons()
    unknown = sorted(computed - COMPUTED)
    assert not unknown, f"a computed refusal reason: list it in COMPUTED with its words: {unknown}"


def test_every_source_a_command_names_is_in_the_enum() -> None:
    sources = {*SOURCE_OF_ROLE.values(), *SOURCE_NAMES.values()}
    for _, tree in _code():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in {"Command", "command"}:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    sources.add(first.value)
    missing = sorted(sources - set(Source))
    assert not missing, f"add to Source: {missing}"

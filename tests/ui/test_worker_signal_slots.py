"""A worker's signal never reaches a widget through a lambda, a partial or a plain function.

PySide runs a slot that is not a QObject's method in the thread its sender lives in (so found
with PySide6 6.11; its documentation does not say), even with `Qt.QueuedConnection`: a
lambda connected to a worker's signal runs on the worker, and a widget it touches there can
crash the window. This reads app/ui: the workers are the objects handed to a `WorkerThread`
or to `JobThreads.start`, or moved to a thread, and each signal they declare may be
connected only to a method of a QObject, or through `connect_in_thread_of`, or with an explicit
`Qt.ConnectionType.DirectConnection`: a slot that is meant to run on the worker (it touches no
widget; the turn's retrieve step hands an answer to a queue that way). The rule goes by
the signal's name, on whatever object: a GUI object's signal of the same name is held to it
too, which costs a method at most.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.repo import REPO_ROOT

UI = REPO_ROOT / "app" / "ui"


@dataclass(frozen=True)
class Module:
    path: Path
    tree: ast.Module

    @property
    def name(self) -> str:
        return self.path.relative_to(REPO_ROOT).as_posix()


@cache
def ui_modules() -> list[Module]:
    return [Module(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(UI.rglob("*.py"))]


def thread_users(modules: list[Module]) -> list[Module]:
    """The modules that hand workers to threads: all but the thread wrapper itself."""
    return [module for module in modules if module.path != UI / "threads.py"]


def classes(modules: list[Module]) -> dict[str, ast.ClassDef]:
    return {node.name: node for module in modules for node in ast.walk(module.tree) if isinstance(node, ast.ClassDef)}


def declared_signals(cls: ast.ClassDef) -> set[str]:
    return {
        target.id
        for statement in cls.body
        if isinstance(statement, ast.Assign) and _calls(statement.value, "Signal")
        for target in statement.targets
        if isinstance(target, ast.Name)
    }


def _calls(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Call) and _last_name(node.func) == name


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def handed_to_threads(module: Module) -> Iterator[tuple[ast.expr, int]]:
    """The expressions naming a worker object: what a `WorkerThread`, `JobThreads.start` or `moveToThread` is given."""
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = _last_name(node.func)
        job_start = name == "start" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant | ast.JoinedStr)
        if name == "WorkerThread" or job_start:
            yield node.args[0], node.lineno
        elif name == "moveToThread" and isinstance(node.func, ast.Attribute):
            yield node.func.value, node.lineno


def worker_class(module: Module, worker: ast.expr, known: dict[str, ast.ClassDef]) -> str | None:
    """The class of the object `worker` names: the class `self` is in, or what it was assigned from in this module."""
    text = ast.unparse(worker)
    if text == "self":
        for cls in ast.walk(module.tree):
            if isinstance(cls, ast.ClassDef) and any(node is worker for node in ast.walk(cls)):
                return cls.name
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Assign) and any(ast.unparse(target) == text for target in node.targets):
            made = [
                _last_name(call.func)
                for call in ast.walk(node.value)
                if isinstance(call, ast.Call) and _last_name(call.func) in known
            ]
            if made:
                return made[-1]
    return None


def worker_signals(modules: list[Module]) -> tuple[set[str], list[str]]:
    """The names of the signals emitted on worker threads, and the workers whose class could not be told."""
    known = classes(modules)
    names: set[str] = set()
    unknown = []
    for module in thread_users(modules):
        for worker, line in handed_to_threads(module):
            cls = worker_class(module, worker, known)
            if cls is None:
                unknown.append(f"{module.name}:{line}: {ast.unparse(worker)}")
            else:
                names |= declared_signals(known[cls])
    return names, unknown


def thread_blind_slot(slot: ast.expr) -> bool:
    """A lambda, a call's result (functools.partial …) or a plain name (a function): not a QObject's method."""
    return isinstance(slot, ast.Lambda | ast.Call | ast.Name)


def runs_on_the_sender_by_choice(connect: ast.Call) -> bool:
    """`connect(slot, Qt.ConnectionType.DirectConnection)`: the author asked for the sender's thread."""
    given = [*connect.args[1:], *(keyword.value for keyword in connect.keywords)]
    return any(_last_name(arg) == "DirectConnection" for arg in given)


def test_the_workers_and_their_signals_are_found() -> None:
    names, unknown = worker_signals(ui_modules())
    assert unknown == [], "a worker whose class this test cannot tell: assign it from its class in the same module"
    assert {"failed", "retrieved", "token", "loadFailed", "state", "sampled"} <= names  # a few there must be


def test_no_worker_signal_is_connected_to_a_lambda_a_partial_or_a_plain_function() -> None:
    modules = ui_modules()
    names, _unknown = worker_signals(modules)
    found = [
        f"{module.name}:{node.lineno}: {ast.unparse(node.func.value)}.connect({ast.unparse(node.args[0])[:60]})"
        for module in modules
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "connect"
        and node.args
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr in names
        and thread_blind_slot(node.args[0])
        and not runs_on_the_sender_by_choice(node)
    ]
    assert found == [], (
        "these slots run on the worker's thread: connect a method of a QObject that lives in the GUI thread, "
        "or use app.ui.threads.connect_in_thread_of:\n" + "\n".join(found)
    )

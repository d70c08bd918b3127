"""Finds text a person reads that bypasses translation, by walking the code's syntax trees.

In `app/ui`: a string literal (or an f-string with words in it) handed straight to a call that
shows text — `setText`, `setToolTip`, `QLabel(...)`, `QPushButton(...)`, `addAction`,
`setWindowTitle`, `setPlaceholderText`, `QMessageBox.warning` … — or raised as an error's
message, instead of going through `tr()` / `QCoreApplication.translate()`.

In `app/core` (outside the API server, which answers programs in OpenAI's English): text a
person reads that is not marked with `N_()` — the message of an exception Glassbox defines,
a setting's label and explanation (`FieldSpec`), a notice about the settings file
(`notices.append(...)`), and the words of the functions that compose text for people (`message`, `note`, `advice`,
`quality_note`, `describe_*` returning `str`).
"""

from __future__ import annotations

import ast
import builtins
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SHOWING_METHODS = frozenset(
    {
        "setText",
        "setToolTip",
        "setStatusTip",
        "setWhatsThis",
        "setWindowTitle",
        "setPlaceholderText",
        "setTitle",
        "setAccessibleName",
        "setAccessibleDescription",
        "setLabelText",
        "setTabText",
        "setTabToolTip",
        "setItemText",
        "setHeaderLabels",
        "setHorizontalHeaderLabels",
        "setPrefix",
        "setSuffix",
        "setSpecialValueText",
        "setFormat",
        "showMessage",
        "addAction",
        "addMenu",
        "addTab",
        "addItem",
        "addRow",
        "insertItem",
        "setInformativeText",
        "setDetailedText",
        "show_error",
        "show_notice",
    }
)
SHOWING_CLASSES = frozenset(
    {
        "QLabel",
        "QPushButton",
        "QToolButton",
        "QCheckBox",
        "QRadioButton",
        "QGroupBox",
        "QAction",
        "QMenu",
        "QDockWidget",
        "QToolBar",
        "QMessageBox",
        "QCommandLinkButton",
    }
)
MESSAGE_BOX_FUNCTIONS = frozenset({"information", "warning", "critical", "question", "about"})
DATA_AFTER = {"addItem": 1, "insertItem": 2}  # the arguments after the text are the item's data, not shown
TRANSLATING = frozenset({"tr", "translate", "N_"})
# A setting's label and explanation, shown beside its field: (positions, keywords) of the texts
# A load stage's detail, shown in Load details.
CORE_TEXT_ARGUMENTS = {"FieldSpec": ((1, 5), ("label", "explanation")), "LoadStage": ((2,), ("detail",))}
CORE_NOTICE_LISTS = frozenset({"notices", "problems"})  # notices.append(...): shown when the settings are read
CORE_TEXT_FUNCTIONS = frozenset({"message", "note", "advice", "quality_note"})
CORE_TEXT_PREFIX = "describe_"
# _cut_message(), _over_limit_notice(), refusal_reason(): words for people
CORE_TEXT_SUFFIXES = ("_message", "_notice", "_reason")
BRIDGE_FUNCTIONS = frozenset({"error", "warning", "info"})  # message.error(...): app/ui/message.py
# A signal that carries words to the user (failed, notice, loadFailed, statusMessage …): what it emits is shown.
MESSAGE_SIGNAL_WORDS = ("fail", "notice", "error", "warn", "message", "refus", "problem", "status")


@dataclass(frozen=True)
class Breach:
    path: Path
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def _is_words(node: ast.AST) -> bool:
    """A literal a person would read: it has two letters in a row (not "", " · ", "%", "{}")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    else:
        return False
    return any(a.isalpha() and b.isalpha() for a, b in itertools.pairwise(text))


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _translated_nodes(tree: ast.AST) -> set[int]:
    """Every node inside a tr()/translate()/N_() call or a format spec: already taken care of."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in TRANSLATING:
            inside.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            inside.update(id(sub) for sub in ast.walk(node.format_spec))
        # compared with, a key or an index: data, never shown
        if isinstance(node, ast.Compare):
            inside.update(id(operand) for operand in (node.left, *node.comparators))
        if isinstance(node, ast.Dict):
            inside.update(id(key) for key in node.keys if key is not None)
        if isinstance(node, ast.Subscript):
            inside.update(id(sub) for sub in ast.walk(node.slice))
    return inside


def _literal_words(expressions: Iterable[ast.expr], translated: set[int]) -> list[ast.AST]:
    """The outermost untranslated literals with words among `expressions` (a conditional's branches included)."""
    found: list[ast.AST] = []
    for expression in expressions:
        pending: list[ast.AST] = [expression]
        while pending:
            node = pending.pop()
            if id(node) in translated:
                continue
            if _is_words(node):
                found.append(node)
                continue
            if isinstance(node, ast.IfExp):
                pending += [node.body, node.orelse]
            elif isinstance(node, ast.BoolOp):
                pending += node.values
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                pending += [node.left, node.right]
            elif isinstance(node, (ast.List, ast.Tuple)):
                pending += node.elts
            elif isinstance(node, ast.Call) and _name(node.func) == "fill" and node.args:
                pending.append(node.args[0])  # the template: fill(self.tr("..."), ...) is fine, fill("...") is not
            elif isinstance(node, ast.Call) and _name(node.func) in ("format", "join") and node.args:
                pending += [node.func.value] if isinstance(node.func, ast.Attribute) else []
                pending += node.args
    return found


def _has_space(node: ast.AST) -> bool:
    """Words, not a kind or a key ("import", "token"): a message has a space in its literal text."""
    return any(isinstance(s, ast.Constant) and isinstance(s.value, str) and " " in s.value for s in ast.walk(node))


def _emits_message(call: ast.Call) -> bool:
    """`self.failed.emit(...)`, `worker.notice.emit(...)`: a signal whose name says it carries words to the user."""
    if _name(call.func) != "emit" or not isinstance(call.func, ast.Attribute):
        return False
    signal = _name(call.func.value).lower()
    return any(word in signal for word in MESSAGE_SIGNAL_WORDS)


def _is_bridge_call(call: ast.Call) -> bool:
    """`message.error(...)`, `message.warning(...)`, `message.info(...)`."""
    return (
        _name(call.func) in BRIDGE_FUNCTIONS
        and isinstance(call.func, ast.Attribute)
        and _name(call.func.value) == "message"
    )


def ui_breaches(path: Path, source: str | None = None) -> list[Breach]:
    """Literal text handed to a call that shows it (Qt, a message signal, the message bridge), not through tr()."""
    source = source if source is not None else path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    translated = _translated_nodes(tree)
    breaches = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            error = _name(node.exc.func)
            # Glassbox's errors end up in a notice; Python's own (TypeError, LookupError) mean a bug, for the log
            if error.endswith(("Error", "Exception")) and not hasattr(builtins, error):
                for literal in _literal_words(node.exc.args, translated):
                    breaches.append(Breach(path, literal.lineno, ast.unparse(literal)[:100]))
            continue
        if not isinstance(node, ast.Call):
            continue
        if _emits_message(node) or _is_bridge_call(node):
            for literal in _literal_words(node.args, translated):
                if _has_space(literal):
                    breaches.append(Breach(path, literal.lineno, ast.unparse(literal)[:100]))
            continue
        name = _name(node.func)
        shows = name in SHOWING_METHODS or name in SHOWING_CLASSES
        if (
            name in MESSAGE_BOX_FUNCTIONS
            and isinstance(node.func, ast.Attribute)
            and _name(node.func.value) == "QMessageBox"
        ):
            shows = True
        if not shows:
            continue
        positional = node.args[: DATA_AFTER[name]] if name in DATA_AFTER else node.args
        arguments = [*positional, *(k.value for k in node.keywords if k.arg in ("text", "title", "toolTip"))]
        for literal in _literal_words(arguments, translated):
            breaches.append(Breach(path, literal.lineno, ast.unparse(literal)[:100]))
    return breaches


def core_error_classes(sources: Iterable[str]) -> set[str]:
    """The exception classes the core defines (directly or through one another)."""
    bases: dict[str, list[str]] = {}
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [_name(base) for base in node.bases]
    errors: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in errors and any(p in errors or p.endswith(("Error", "Exception")) for p in parents):
                errors.add(name)
                grew = True
    return errors


def _composes_text(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.FunctionDef)
        and (
            node.name in CORE_TEXT_FUNCTIONS
            or node.name.startswith(CORE_TEXT_PREFIX)
            or node.name.endswith(CORE_TEXT_SUFFIXES)
        )
        and isinstance(node.returns, ast.Name)
        and node.returns.id == "str"
    )


def core_breaches(path: Path, errors: set[str], source: str | None = None) -> list[Breach]:
    """Core text a person reads that is not marked with N_()."""
    source = source if source is not None else path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    translated = _translated_nodes(tree)
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        # an error Glassbox defines, raised or made to be returned or sent on (return RemoteError(...))
        if isinstance(node, ast.Call) and _name(node.func) in errors:
            # the message is the first argument with a space in it (a kind such as "preset" comes before it)
            for argument in node.args:
                words = [sub for sub in ast.walk(argument) if id(sub) not in translated and _is_words(sub)]
                # (Load and Store are one shared node each: being inside a tr() says nothing of them)
                marked = any(
                    id(sub) in translated for sub in ast.walk(argument) if not isinstance(sub, ast.expr_context)
                )
                if words or marked:
                    has_space = any(
                        isinstance(sub, ast.Constant) and isinstance(sub.value, str) and " " in sub.value
                        for sub in ast.walk(argument)
                    )
                    if has_space:
                        found += words
                        break
                elif isinstance(argument, ast.Call):
                    break  # composed by a function (describe_os_error(...)): its words are checked where they are
        if (
            isinstance(node, ast.Call)
            and _name(node.func) in ("append", "extend")
            and isinstance(node.func, ast.Attribute)
            and _name(node.func.value) in CORE_NOTICE_LISTS
        ):
            found += [sub for a in node.args for sub in ast.walk(a) if id(sub) not in translated and _is_words(sub)]
        if isinstance(node, ast.Call) and _name(node.func) in CORE_TEXT_ARGUMENTS:
            positions, keywords = CORE_TEXT_ARGUMENTS[_name(node.func)]
            texts = [node.args[i] for i in positions if i < len(node.args)]
            texts += [k.value for k in node.keywords if k.arg in keywords]
            found += [text for text in texts if id(text) not in translated and _is_words(text)]
        if _composes_text(node):
            assert isinstance(node, ast.FunctionDef)
            body = node.body[1:] if ast.get_docstring(node) else node.body
            for statement in body:
                found += [sub for sub in ast.walk(statement) if id(sub) not in translated and _is_words(sub)]
    inner = {id(sub) for node in found for sub in ast.walk(node) if sub is not node}
    return [Breach(path, n.lineno, ast.unparse(n)[:100]) for n in found if id(n) not in inner]

"""A test fails on a Python log record of level WARNING or above that it did not declare.

Records come from any logger and any thread, while the test's fixtures are set up, while it
runs and while it is torn down. A test declares the records it expects, one marker each:

    @pytest.mark.expected_log("app.core.models.library", logging.WARNING, r"cannot read .*\\.gguf")

The level must match exactly, the logger is the one named or one below it in logging's
hierarchy (a package names its modules' loggers), the pattern is searched in the message.
A declared record that never comes fails a test that otherwise passed, so declarations
cannot outlive the behaviour they describe. Records every test may meet (llama.cpp's own
remarks on the starter model) are declared once, in the `log_fail_expected` ini lines
"LOGGER LEVEL PATTERN". After qutebrowser's tests/helpers/logfail.py; this one collects the
records and judges them after each phase, so a record on a worker thread fails the test too.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Generator, Iterable
from dataclasses import dataclass

import pytest

FAIL_LEVEL = logging.WARNING
MARKER = "expected_log"


@dataclass(frozen=True)
class ExpectedLog:
    logger: str
    level: int
    pattern: re.Pattern[str]

    def matches(self, record: logging.LogRecord) -> bool:
        return (
            (record.name == self.logger or record.name.startswith(self.logger + "."))
            and record.levelno == self.level
            and self.pattern.search(record.getMessage()) is not None
        )

    def __str__(self) -> str:
        return f"{logging.getLevelName(self.level)} {self.logger}: /{self.pattern.pattern}/"


class _Recorder(logging.Handler):
    """Keeps every record of level WARNING or above, from whichever thread logs it."""

    def __init__(self) -> None:
        super().__init__(FAIL_LEVEL)
        self._records: list[logging.LogRecord] = []
        self._taken = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._taken:
            self._records.append(record)

    def take(self) -> list[logging.LogRecord]:
        """The records since the last take."""
        with self._taken:
            records, self._records = self._records, []
        return records


_FORMATTER = logging.Formatter("%(levelname)s %(name)s [%(threadName)s]: %(message)s")

seen_key = pytest.StashKey[set[ExpectedLog]]()
passed_key = pytest.StashKey[bool]()


class LogFailPlugin:
    def __init__(self, everywhere: list[ExpectedLog]) -> None:
        self._recorder = _Recorder()
        self._everywhere = everywhere

    def install(self) -> None:
        logging.getLogger().addHandler(self._recorder)

    def uninstall(self) -> None:
        logging.getLogger().removeHandler(self._recorder)

    def _unexpected(self, item: pytest.Item) -> list[logging.LogRecord]:
        """The records since the last look that `item` did not declare; notes the declarations seen."""
        declared = _declared(item)
        seen = item.stash.setdefault(seen_key, set())
        unexpected = []
        for record in self._recorder.take():
            matching = [expected for expected in declared if expected.matches(record)]
            seen.update(matching)
            if not matching and not any(expected.matches(record) for expected in self._everywhere):
                unexpected.append(record)
        return unexpected

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        item.stash[seen_key] = set()
        item.stash[passed_key] = False
        self._recorder.take()  # whatever came between tests belongs to none of them

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.when != "call":
            return report
        unexpected = self._unexpected(item)  # from the setup and the test itself
        if unexpected:
            text = _describe(unexpected)
            if report.passed:
                report.outcome = "failed"
                report.longrepr = text
            else:
                report.sections.append(("Unexpected log records", text))
        item.stash[passed_key] = report.passed
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        yield
        unexpected = self._unexpected(item)
        if unexpected:
            pytest.fail(_describe(unexpected), pytrace=False)
        missing = [expected for expected in _declared(item) if expected not in item.stash[seen_key]]
        if missing and item.stash[passed_key]:
            lines = "\n".join(f"  {expected}" for expected in missing)
            pytest.fail(f"expected log records that never came:\n{lines}", pytrace=False)


def _declared(item: pytest.Item) -> list[ExpectedLog]:
    return [_expected_log(*marker.args, **marker.kwargs) for marker in item.iter_markers(MARKER)]


def _expected_log(logger: str, level: int, pattern: str) -> ExpectedLog:
    return ExpectedLog(logger, level, re.compile(pattern))


def _describe(records: Iterable[logging.LogRecord]) -> str:
    lines = "\n".join(_FORMATTER.format(record) for record in records)
    return (
        "unexpected log records (declare the expected ones with "
        f"@pytest.mark.{MARKER}(logger, level, pattern)):\n{lines}"
    )


def _parse_everywhere(line: str) -> ExpectedLog:
    logger, level, pattern = line.split(maxsplit=2)
    return _expected_log(logger, logging.getLevelNamesMapping()[level], pattern)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "log_fail_expected",
        type="linelist",
        help="log records every test may meet without failing, one 'LOGGER LEVEL PATTERN' a line",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(logger, level, pattern): the test logs this record; a WARNING or worse it does not declare fails it",
    )
    plugin = LogFailPlugin([_parse_everywhere(line) for line in config.getini("log_fail_expected")])
    plugin.install()
    config.add_cleanup(plugin.uninstall)
    config.pluginmanager.register(plugin, "logfail")

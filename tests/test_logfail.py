"""The suite's log guard fails a test on a WARNING or ERROR record it did not declare."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

LOGGING_TESTS = """
import logging
import threading

import pytest

log = logging.getLogger("app.core.sample")


def test_info_and_debug_are_not_judged():
    log.info("loaded")
    log.debug("details")


def test_an_undeclared_warning_fails():
    log.warning("the disk is almost full")


def test_an_undeclared_error_on_a_worker_thread_fails():
    worker = threading.Thread(target=lambda: log.error("the download broke"), name="downloader")
    worker.start()
    worker.join()


@pytest.mark.expected_log("app.core.sample", logging.WARNING, r"cannot read .*\\.json")
def test_a_declared_warning_passes():
    log.warning("cannot read settings.json")


@pytest.mark.expected_log("app.core.sample", logging.WARNING, "cannot read")
def test_a_declared_record_at_another_level_still_fails():
    log.error("cannot read settings.json")


@pytest.mark.expected_log("app.core.sample", logging.WARNING, "cannot read")
def test_a_declared_record_that_never_comes_fails():
    pass


@pytest.mark.expected_log("app.core.sample", logging.WARNING, "cannot read")
def test_a_failing_test_is_not_blamed_for_a_missing_record():
    assert False, "the test's own failure"


@pytest.fixture
def noisy_teardown():
    yield
    log.warning("left a temporary file behind")


def test_a_record_from_a_fixture_teardown_fails_the_teardown(noisy_teardown):
    pass


def test_everywhere_allows_a_known_remark():
    logging.getLogger("llama.cpp").warning("using full-size SWA cache")
"""


def test_the_guard_fails_tests_on_unexpected_records_and_names_them(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_logging=LOGGING_TESTS)
    pytester.makeini("[pytest]\nlog_fail_expected =\n    llama.cpp WARNING full-size SWA cache\n")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "tests.helpers.logfail", "-rA")
    result.assert_outcomes(passed=5, failed=4, errors=2)  # two pass, then fail at their teardown
    outcomes = set(re.findall(r"^(PASSED|FAILED|ERROR) test_logging\.py::(\w+)", result.stdout.str(), re.M))
    assert {(name, outcome) for outcome, name in outcomes if outcome != "PASSED"} == {
        ("test_an_undeclared_warning_fails", "FAILED"),
        ("test_an_undeclared_error_on_a_worker_thread_fails", "FAILED"),
        ("test_a_declared_record_at_another_level_still_fails", "FAILED"),
        ("test_a_failing_test_is_not_blamed_for_a_missing_record", "FAILED"),  # by its assert, no teardown error
        ("test_a_declared_record_that_never_comes_fails", "ERROR"),
        ("test_a_record_from_a_fixture_teardown_fails_the_teardown", "ERROR"),
    }
    result.stdout.re_match_lines(
        [
            r"unexpected log records \(declare the expected ones with @pytest\.mark\.expected_log\(.*",
            re.escape("WARNING app.core.sample [MainThread]: the disk is almost full"),
        ]
    )
    result.stdout.re_match_lines([re.escape("ERROR app.core.sample [downloader]: the download broke")])
    result.stdout.re_match_lines([re.escape("ERROR app.core.sample [MainThread]: cannot read settings.json")])
    result.stdout.re_match_lines(
        [r"expected log records that never came:", re.escape("  WARNING app.core.sample: /cannot read/")]
    )
    result.stdout.re_match_lines([re.escape("WARNING app.core.sample [MainThread]: left a temporary file behind")])

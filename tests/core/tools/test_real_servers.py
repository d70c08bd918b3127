"""The MCP client against servers no one here wrote: mcp-server-time, mcp-server-git and server-everything."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from app.core.tools.config import McpServer
from app.core.tools.errors import CallStopped, McpError
from app.core.tools.manager import McpManager, ServerState
from app.core.tools.results import PartKind
from tests.core.tools.conftest import python_server


def test_time_server_lists_its_tools_with_schemas_and_answers_a_call(manager: McpManager) -> None:
    manager.configure([python_server("time", "mcp-server-time", "--local-timezone", "UTC")])

    tools = {tool.name: tool for tool in manager.tools("time")}
    result = manager.call(
        "time", "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}
    )

    assert {"get_current_time", "convert_time"} <= set(tools)
    assert tools["convert_time"].input_schema["type"] == "object"
    assert "target_timezone" in tools["convert_time"].input_schema["properties"]
    assert all(tool.usable and tool.description for tool in tools.values())
    assert not result.is_error
    assert "21:00" in result.text()
    assert manager.status("time").state is ServerState.RUNNING


def test_a_tool_that_reports_an_error_gives_an_error_result_not_an_exception(manager: McpManager) -> None:
    manager.configure([python_server("time", "mcp-server-time")])

    result = manager.call("time", "get_current_time", {"timezone": "Nowhere/Never"})

    assert result.is_error
    assert "Nowhere/Never" in result.text()


def test_git_server_reads_a_repository_made_in_the_test(manager: McpManager, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=Test", "-c", "user.email=test@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "notes.txt").write_text("first\n")
    subprocess.run([*git, "add", "notes.txt"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "A first note"], check=True)
    (repo / "notes.txt").write_text("second\n")
    manager.configure([python_server("git", "mcp-server-git", "--repository", str(repo))])

    log = manager.call("git", "git_log", {"repo_path": str(repo)})
    diff = manager.call("git", "git_diff_unstaged", {"repo_path": str(repo)})

    assert "A first note" in log.text()
    assert "+second" in diff.text()


def test_everything_over_stdio_echoes_adds_and_returns_an_image(
    manager: McpManager, everything_stdio: McpServer
) -> None:
    manager.configure([everything_stdio])

    names = {tool.name for tool in manager.tools("everything")}
    echo = manager.call("everything", "echo", {"message": "hello, glass"})
    total = manager.call("everything", "get-sum", {"a": 2, "b": 40})
    image = manager.call("everything", "get-tiny-image", {})

    assert {"echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"} <= names
    assert "hello, glass" in echo.text()
    assert "42" in total.text()
    images = [part for part in image.parts if part.kind is PartKind.IMAGE]
    assert images and images[0].mime_type == "image/png"
    assert images[0].data.startswith(b"\x89PNG")


def test_everything_over_streamable_http_echoes(everything_http: McpServer, manager: McpManager) -> None:
    manager.configure([everything_http])

    result = manager.call("everything-http", "echo", {"message": "over HTTP"})

    assert "over HTTP" in result.text()
    assert manager.status("everything-http").state is ServerState.RUNNING


def test_a_long_running_call_reports_progress(manager: McpManager, everything_stdio: McpServer) -> None:
    manager.configure([everything_stdio])
    seen: list[float] = []

    result = manager.call(
        "everything",
        "trigger-long-running-operation",
        {"duration": 0.6, "steps": 3},
        on_progress=lambda progress, _total, _message: seen.append(progress),
    )

    assert not result.is_error
    assert seen == [1, 2, 3]


def test_a_call_that_hangs_is_cancelled_at_its_timeout_and_the_server_goes_on(
    manager: McpManager, everything_stdio: McpServer
) -> None:
    manager.configure([everything_stdio])

    with pytest.raises(McpError, match=r"did not finish trigger-long-running-operation within 0.5 s"):
        manager.call("everything", "trigger-long-running-operation", {"duration": 60, "steps": 2}, timeout_s=0.5)

    assert "still here" in manager.call("everything", "echo", {"message": "still here"}).text()


def test_the_stop_flag_ends_a_running_call(manager: McpManager, everything_stdio: McpServer) -> None:
    manager.configure([everything_stdio])
    manager.tools("everything")
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()

    with pytest.raises(CallStopped):
        manager.call("everything", "trigger-long-running-operation", {"duration": 60, "steps": 2}, stop=stop)
    timer.join()

    assert manager.status("everything").state is ServerState.RUNNING


def test_closing_the_manager_ends_a_call_another_thread_waits_for(everything_stdio: McpServer) -> None:
    manager = McpManager([everything_stdio])
    manager.tools("everything")
    errors: list[McpError] = []
    under_way = threading.Event()

    def call() -> None:
        try:
            manager.call(
                "everything",
                "trigger-long-running-operation",
                {"duration": 600, "steps": 600},
                on_progress=lambda _progress, _total, _message: under_way.set(),
            )
        except McpError as error:
            errors.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    assert under_way.wait(60)
    manager.close()
    caller.join(60)  # bounded; without the close ending it the call would wait its 600 s

    assert not caller.is_alive()
    assert [str(error) for error in errors] == [
        "everything was stopped during the call of trigger-long-running-operation."
    ]

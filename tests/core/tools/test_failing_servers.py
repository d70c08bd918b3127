"""Servers that fail: each is one line in its status and in the error, and none takes the caller down."""

from __future__ import annotations

import socket
import sys
import threading
import time

import pytest

from app.core.tools.config import McpServer
from app.core.tools.errors import McpError
from app.core.tools.manager import McpManager, ServerState, ServerStatus, Timeouts
from tests.core.tools.conftest import misbehaving_server, python_server


def test_a_command_that_does_not_exist_fails_with_its_name(manager: McpManager) -> None:
    manager.configure([McpServer("ghost", command="glassbox-no-such-mcp-server")])

    status = manager.start("ghost")

    assert status.state is ServerState.FAILED
    assert "glassbox-no-such-mcp-server was not found" in status.reason
    with pytest.raises(McpError, match="was not found"):
        manager.tools("ghost")


def test_a_server_that_prints_garbage_fails_at_its_start_timeout_and_says_so() -> None:
    chatter = "import time\nwhile True:\n    print('hello from a shell script', flush=True)\n    time.sleep(0.1)"
    manager = McpManager(
        [McpServer("chatty", command=sys.executable, args=("-c", chatter))], timeouts=Timeouts(start_s=1.0)
    )
    try:
        status = manager.start("chatty")
    finally:
        manager.close()

    assert status.state is ServerState.FAILED
    assert "did not answer within 1 s" in status.reason
    assert "lines that are not MCP messages" in status.reason


def test_a_server_that_prints_a_line_of_garbage_among_its_messages_still_works(manager: McpManager) -> None:
    manager.configure([misbehaving_server("chatty", "--banner")])

    result = manager.call("chatty", "huge", {"megabytes": 0})

    assert not result.is_error
    assert manager.status("chatty").state is ServerState.RUNNING


def test_a_server_that_exits_at_start_names_its_last_words(manager: McpManager) -> None:
    manager.configure(
        [McpServer("quitter", command=sys.executable, args=("-c", "import sys; sys.exit('missing API key')"))]
    )

    status = manager.start("quitter")

    assert status.state is ServerState.FAILED
    assert "missing API key" in status.reason


def test_a_server_that_exits_mid_call_fails_the_call_and_starts_again_when_used(manager: McpManager) -> None:
    manager.configure([misbehaving_server("fragile")])

    with pytest.raises(McpError, match="fragile ended during the call of die") as ended:
        manager.call("fragile", "die")

    assert "its last words: misbehaving: giving up in the middle of a call" in str(ended.value)
    assert manager.status("fragile").state is ServerState.FAILED
    assert manager.tools("fragile")  # the next use starts it again
    assert manager.status("fragile").state is ServerState.RUNNING


def test_a_result_of_several_megabytes_is_capped_and_the_cap_is_said() -> None:
    manager = McpManager([misbehaving_server("big")], cap_bytes=64 * 1024)
    try:
        result = manager.call("big", "huge", {"megabytes": 5})
    finally:
        manager.close()

    assert result.truncated
    assert result.size_bytes == 5 * 1024 * 1024
    assert sum(part.size for part in result.parts[:-1]) == 64 * 1024
    assert "The result was 5.0 MiB; Glassbox keeps 64.0 KiB" in result.parts[-1].text


def test_a_tool_with_a_malformed_schema_is_listed_with_its_problem_and_not_called(manager: McpManager) -> None:
    manager.configure([misbehaving_server("odd")])

    tools = {tool.name: tool for tool in manager.tools("odd")}

    assert tools["huge"].usable
    assert not tools["broken"].usable
    assert "not a valid JSON schema" in tools["broken"].problem
    with pytest.raises(McpError, match="cannot be called: its input schema is not a valid JSON schema"):
        manager.call("odd", "broken")


def test_a_tool_listing_of_the_wrong_shape_fails_the_server_in_one_line(manager: McpManager) -> None:
    manager.configure([misbehaving_server("garbled", "--bad-listing")])

    status = manager.start("garbled")

    assert status.state is ServerState.FAILED
    assert "garbled: its list of tools is malformed" in status.reason
    assert "\n" not in status.reason


def test_an_unknown_server_or_tool_is_said(manager: McpManager) -> None:
    manager.configure([python_server("time", "mcp-server-time")])

    with pytest.raises(McpError, match="No MCP server named “nope” is configured"):
        manager.call("nope", "x")
    with pytest.raises(McpError, match="time has no tool named “nope”"):
        manager.call("time", "nope")


def test_closing_the_manager_ends_the_servers_processes_and_its_thread(everything_stdio: McpServer) -> None:
    import psutil

    others = {child.pid for child in psutil.Process().children(recursive=True)}  # other fixtures' servers
    manager = McpManager([everything_stdio])
    manager.tools("everything")
    children = [child for child in psutil.Process().children(recursive=True) if child.pid not in others]
    assert children

    manager.close()

    assert not [child for child in children if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]
    with pytest.raises(McpError, match="closed"):
        manager.tools("everything")


HANGS = "import time\ntime.sleep(600)"  # reads nothing, answers nothing


def test_a_server_that_never_answers_fails_at_its_start_timeout() -> None:
    manager = McpManager(
        [McpServer("mute", command=sys.executable, args=("-c", HANGS))], timeouts=Timeouts(start_s=1.0)
    )
    try:
        status = manager.start("mute")
    finally:
        manager.close()

    assert status.state is ServerState.FAILED
    assert status.reason == "mute: it did not answer within 1 s"


def test_stopping_a_server_that_is_still_starting_cancels_its_start() -> None:
    manager = McpManager(
        [McpServer("mute", command=sys.executable, args=("-c", HANGS))], timeouts=Timeouts(start_s=600.0)
    )
    outcome: list[ServerStatus] = []
    starting = threading.Thread(target=lambda: outcome.append(manager.start("mute")))
    try:
        starting.start()
        while manager.status("mute").state is not ServerState.STARTING:
            time.sleep(0.01)
        manager.stop_soon("mute")
        starting.join(120)  # bounded; without the cancel the start would wait its 600 s
        assert not starting.is_alive()
    finally:
        manager.close()

    assert outcome[0].state is ServerState.STOPPED


def test_an_http_server_that_is_not_there_fails_in_one_line(manager: McpManager) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    manager.configure([McpServer("away", url=f"http://127.0.0.1:{port}/mcp")])

    status = manager.start("away")

    assert status.state is ServerState.FAILED
    assert status.reason.startswith("away: ConnectError")
    assert "\n" not in status.reason


def test_a_server_that_dies_while_idle_is_failed_with_why_and_starts_again_when_used(manager: McpManager) -> None:
    import psutil

    manager.configure([python_server("time", "mcp-server-time")])
    manager.tools("time")
    [server] = [p for p in psutil.Process().children(recursive=True) if "mcp-server-time" in " ".join(p.cmdline())]

    server.kill()
    while manager.status("time").state is ServerState.RUNNING:  # the test's time limit bounds this
        time.sleep(0.01)

    assert manager.status("time").state is ServerState.FAILED
    assert manager.status("time").reason.startswith("time stopped: the server ended")
    assert manager.tools("time")
    assert manager.status("time").state is ServerState.RUNNING

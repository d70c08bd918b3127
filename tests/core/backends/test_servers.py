"""Saved servers: checked entries in the settings, their API keys in the keyring and nowhere else."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.backends.probe import ProbeResult, ServerKind
from app.core.backends.remote import TokenizeRoute
from app.core.backends.servers import ServerError, ServerKeys, new_server
from app.core.settings import Settings, load_settings, save_settings
from tests.fakes.memory_keyring import MemoryKeyring


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("gpu-box:8000", "is not a server address"),
        ("ftp://gpu-box", "is not a server address"),
        ("http://", "is not a server address"),
        ("http://user:secret@gpu-box:8000", "Put the API key in its own field"),
    ],
)
def test_an_address_that_is_not_a_server_is_refused_with_the_reason(url: str, said: str) -> None:
    with pytest.raises(ServerError, match=said):
        new_server("box", url)


def test_a_name_and_a_timeout_are_checked() -> None:
    with pytest.raises(ServerError, match="needs a name"):
        new_server("   ", "http://box:8000")
    with pytest.raises(ServerError, match="between 1 and 3600 seconds"):
        new_server("box", "http://box:8000", timeout_s=0)
    assert new_server("  team   gpu ", "http://box:8000/ ").name == "team gpu"


def test_servers_are_kept_in_the_settings_without_their_keys(
    isolated_home: Path, memory_keyring: MemoryKeyring
) -> None:
    server = new_server("team", "https://gpu.example.com", timeout_s=30)
    found = ProbeResult(ServerKind.VLLM, (), tokenize=TokenizeRoute.VLLM)
    ServerKeys().set(server, "sk-secret-123")
    path = isolated_home / "settings.json"
    save_settings(path, Settings().with_server(server.with_probe(found)))
    assert "sk-secret-123" not in path.read_text()
    saved = load_settings(path).settings.server("TEAM")  # names match whatever their case
    assert saved is not None and saved.kind == "vLLM" and saved.tokenize is TokenizeRoute.VLLM
    config = saved.config(ServerKeys().get(saved))
    assert config.api_key == "sk-secret-123" and config.timeout_s == 30
    assert "sk-secret" not in repr(config)


def test_adding_a_server_of_the_same_name_replaces_it_in_place() -> None:
    settings = Settings().with_server(new_server("a", "http://a:1")).with_server(new_server("b", "http://b:1"))
    settings = settings.with_server(new_server("A", "http://a:2"))
    assert [(s.name, s.url) for s in settings.servers] == [("A", "http://a:2"), ("b", "http://b:1")]
    assert [s.name for s in settings.without_server("B").servers] == ["A"]


@pytest.mark.expected_log("app.core.settings", logging.WARNING, "A saved server was dropped")
def test_a_damaged_server_entry_is_dropped_with_a_notice_and_the_rest_kept(isolated_home: Path) -> None:
    path = isolated_home / "settings.json"
    entries = [{"name": "ok", "url": "http://ok:1"}, {"name": "bad", "url": "gopher://x"}, "junk"]
    path.write_text(json.dumps({"schema_version": 3, "servers": entries}))
    loaded = load_settings(path)
    assert [s.name for s in loaded.settings.servers] == ["ok"]
    assert sum("A saved server was dropped" in notice for notice in loaded.notices) == 2


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "no keyring backend")
@pytest.mark.usefixtures("no_keyring")
def test_without_a_keyring_a_key_is_refused_with_what_to_do_instead() -> None:
    with pytest.raises(ServerError, match=r"No system keyring.*--api-key-env"):
        ServerKeys().set(new_server("team", "http://box:1"), "sk-secret")


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "did not keep it")
@pytest.mark.usefixtures("null_keyring")
def test_a_keyring_that_keeps_nothing_is_named_and_the_key_called_unsaved() -> None:
    with pytest.raises(ServerError, match=r"not saved.*keyring\.backends\.null\.Keyring.*--api-key-env"):
        ServerKeys().set(new_server("team", "http://box:1"), "sk-secret")


def test_a_key_with_spaces_is_refused(memory_keyring: MemoryKeyring) -> None:
    with pytest.raises(ServerError, match="without spaces"):
        ServerKeys().set(new_server("team", "http://box:1"), "sk secret")

"""The server's settings are checked before anything listens; every refusal names the setting and what to do."""

from __future__ import annotations

import pytest

from app.core.server.config import ServerConfig, ServerConfigError, is_loopback
from app.core.support.user_text import UserText, text_of


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_addresses(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "example.com", "localhost.example.com"])
def test_addresses_other_machines_may_reach(host: str) -> None:
    assert not is_loopback(host)


def refused(config: ServerConfig) -> ServerConfigError:
    with pytest.raises(ServerConfigError) as caught:
        config.check()
    return caught.value


def test_the_defaults_serve_this_machine_only_without_a_key() -> None:
    config = ServerConfig().check()
    assert config.host == "127.0.0.1" and config.api_key is None and config.cors_origins == ()
    assert not config.log_text


@pytest.mark.parametrize(
    ("config", "field"),
    [
        (ServerConfig(host="0.0.0.0"), "api_key"),
        (ServerConfig(host="192.168.1.5"), "api_key"),
        (ServerConfig(api_key="too short"), "api_key"),
        (ServerConfig(api_key="twelve chars with spaces"), "api_key"),
        (ServerConfig(port=70000), "port"),
        (ServerConfig(host=" "), "host"),
        (ServerConfig(cors_origins=("*",)), "cors_origins"),
        (ServerConfig(cors_origins=("http://localhost:3000/app",)), "cors_origins"),
        (ServerConfig(cors_origins=("localhost:3000",)), "cors_origins"),
        (ServerConfig(queue_limit=-1), "queue_limit"),
        (ServerConfig(max_body_bytes=10), "max_body_bytes"),
        (ServerConfig(max_tokens_limit=0), "max_tokens_limit"),
    ],
)
def test_a_setting_the_server_cannot_use_is_named(config: ServerConfig, field: str) -> None:
    assert refused(config).field == field


def test_the_key_never_shows_in_the_configs_repr() -> None:
    config = ServerConfig(host="0.0.0.0", api_key="a-very-secret-key")
    assert "a-very-secret-key" not in repr(config) and "api_key=set" in repr(config)
    assert config.check() is config


@pytest.mark.parametrize(
    "config",
    [
        ServerConfig(host=" "),
        ServerConfig(host="0.0.0.0"),
        ServerConfig(api_key="short"),
        ServerConfig(cors_origins=("localhost:3000",)),
        ServerConfig(max_body_bytes=1),
        ServerConfig(max_tokens_limit=0),
        ServerConfig(log_size=0),
    ],
)
def test_every_refusal_is_a_core_text_the_window_shows_in_the_readers_language(config: ServerConfig) -> None:
    message = text_of(refused(config))
    assert isinstance(message, UserText)  # translated by its template, filled with its fields

"""Secrets go to the system keyring and are read back: a keyring that keeps nothing is named, never trusted."""

from __future__ import annotations

import logging

import pytest

from app.core.support.secrets import SecretNotKept, SecretStore
from tests.fakes.memory_keyring import ForgetfulKeyring, MemoryKeyring


def test_a_secret_is_saved_and_read_back(memory_keyring: MemoryKeyring) -> None:
    SecretStore().set("server:team", "sk-kept")
    assert SecretStore().get("server:team") == "sk-kept"


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, r"did not keep it")
@pytest.mark.usefixtures("null_keyring")
def test_the_null_keyring_is_named_as_keeping_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(SecretNotKept) as caught:
        SecretStore().set("server:team", "sk-lost")
    assert caught.value.backend == "keyring.backends.null.Keyring"
    assert "sk-lost" not in caplog.text


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, r"did not keep it")
def test_a_keyring_that_keeps_an_older_secret_instead_is_not_trusted(forgetful_keyring: ForgetfulKeyring) -> None:
    forgetful_keyring.passwords[("Glassbox", "server:team")] = "sk-old"
    with pytest.raises(SecretNotKept, match="ForgetfulKeyring"):
        SecretStore().set("server:team", "sk-new")

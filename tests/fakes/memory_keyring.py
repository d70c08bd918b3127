"""An in-memory keyring backend, one that behaves like a machine without any keyring, and ones that keep nothing."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import keyring.backend
import keyring.errors
import pytest
from keyring.backends import fail, null


class MemoryKeyring(keyring.backend.KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.passwords.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such password")


class ForgetfulKeyring(MemoryKeyring):
    """Takes every secret without an error and keeps none, yet claims to work (some headless desktops)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        pass


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """The `fail` backend: every read and write raises NoKeyringError, as on a bare server."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        yield
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def null_keyring() -> Iterator[None]:
    """keyring's `null` backend: writes succeed and keep nothing, reads give nothing."""
    previous = keyring.get_keyring()
    keyring.set_keyring(null.Keyring())
    try:
        yield
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def forgetful_keyring() -> Iterator[ForgetfulKeyring]:
    previous = keyring.get_keyring()
    backend = ForgetfulKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)

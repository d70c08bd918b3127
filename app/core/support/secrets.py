"""Secrets (the Hugging Face token, servers' API keys) in the operating system's keyring only.

Never in a file or a log. A machine without a keyring backend can read nothing and store
nothing: `SecretStore.set` then raises `NoKeyring`, and the caller says what to do instead.
Some backends take a secret without an error and keep nothing (keyring's `null` backend, some
headless desktops): every secret is read back after it is written, and one that does not come
back raises `SecretNotKept`, which names the backend.
"""

from __future__ import annotations

import logging

import keyring
import keyring.errors

log = logging.getLogger(__name__)

SERVICE = "Glassbox"


class SecretStoreError(Exception):
    """The keyring refused; the message names the error type only (never the secret)."""


class NoKeyring(SecretStoreError):
    """No keyring backend is available on this machine."""


class SecretNotKept(SecretStoreError):
    """The keyring took the secret without an error but does not give it back: it is kept nowhere."""

    def __init__(self, backend: str) -> None:
        super().__init__(backend)
        self.backend = backend  # where it was not kept: the keyring backend's class, e.g. keyring.backends.null.Keyring


class SecretStore:
    """Named secrets under one keyring service."""

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service

    def available(self) -> bool:
        """Whether a keyring backend can store a secret on this machine."""
        try:
            backend = keyring.get_keyring()
        except keyring.errors.KeyringError:
            return False
        priority = getattr(backend, "priority", 1)
        return not isinstance(priority, (int, float)) or priority > 0

    def get(self, name: str) -> str | None:
        """The secret, or None when none is saved or the keyring cannot be read. Never raises."""
        try:
            return keyring.get_password(self.service, name)
        except keyring.errors.NoKeyringError:
            return None
        except keyring.errors.KeyringError as error:
            log.warning("Cannot read %s from the keyring: %s", name, type(error).__name__)
            return None

    def set(self, name: str, secret: str) -> None:
        """Save the secret and read it back. Raises NoKeyring, SecretNotKept or SecretStoreError."""
        try:
            keyring.set_password(self.service, name, secret)
        except keyring.errors.NoKeyringError as error:
            log.warning("Cannot save %s: no keyring backend (%s)", name, type(error).__name__)
            raise NoKeyring(type(error).__name__) from error
        except keyring.errors.KeyringError as error:
            log.warning("Cannot save %s: %s", name, type(error).__name__)
            raise SecretStoreError(type(error).__name__) from error
        if self.get(name) != secret:
            backend = backend_name()
            log.warning("Cannot save %s: the keyring backend %s did not keep it", name, backend)
            raise SecretNotKept(backend)

    def delete(self, name: str) -> bool:
        """Remove the secret; False when there was none (or no keyring to hold one)."""
        try:
            keyring.delete_password(self.service, name)
        except (keyring.errors.PasswordDeleteError, keyring.errors.NoKeyringError):
            return False
        except keyring.errors.KeyringError as error:
            raise SecretStoreError(type(error).__name__) from error
        return True


def backend_name() -> str:
    """The keyring backend in use, as its module and class (what a person searches for, or configures)."""
    try:
        backend = keyring.get_keyring()
    except keyring.errors.KeyringError:
        return "none"
    return f"{type(backend).__module__}.{type(backend).__qualname__}"

"""The Hugging Face token, kept only in the operating system's keyring (never in a file or a log).

A machine without a keyring backend still works for public models: reading gives no token,
saving raises `TokenStoreError` with the reason and what to do instead.
"""

from __future__ import annotations

import logging
import os

import keyring
import keyring.errors

log = logging.getLogger(__name__)

SERVICE = "Glassbox"
USERNAME = "huggingface-token"
ENV_TOKEN = "HF_TOKEN"

_NO_KEYRING_HELP = (
    "No system keyring is available to store the Hugging Face token safely "
    "(Glassbox never writes tokens to a file). Public models still work. For gated or private "
    "models, start a keyring service (GNOME Keyring, KWallet, macOS Keychain, Windows Credential "
    "Manager) and try again, or set the HF_TOKEN environment variable before starting Glassbox."
)


class TokenStoreError(Exception):
    """Saving or removing the token failed; the message says why and what to do."""


class TokenStore:
    """Reads and writes one token in the keyring under a fixed service name."""

    def __init__(self, service: str = SERVICE, username: str = USERNAME) -> None:
        self.service = service
        self.username = username

    def get(self) -> str | None:
        """The saved token, else HF_TOKEN from the environment, else None. Never raises."""
        token = self._read_keyring()
        if token:
            return token
        return os.environ.get(ENV_TOKEN) or None

    def saved_in_keyring(self) -> bool:
        return bool(self._read_keyring())

    def available(self) -> bool:
        """Whether a keyring backend can store a token on this machine."""
        try:
            backend = keyring.get_keyring()
        except keyring.errors.KeyringError:
            return False
        priority = getattr(backend, "priority", 1)
        return not isinstance(priority, (int, float)) or priority > 0

    def unavailable_reason(self) -> str:
        return "" if self.available() else _NO_KEYRING_HELP

    def set(self, token: str) -> None:
        token = token.strip()
        if not token:
            raise TokenStoreError("The token is empty: paste the token from huggingface.co/settings/tokens.")
        if any(ch.isspace() for ch in token):
            raise TokenStoreError(
                "A Hugging Face token has no spaces: copy it again from huggingface.co/settings/tokens."
            )
        try:
            keyring.set_password(self.service, self.username, token)
        except keyring.errors.NoKeyringError as error:
            log.warning("Cannot save the Hugging Face token: no keyring backend (%s)", type(error).__name__)
            raise TokenStoreError(_NO_KEYRING_HELP) from error
        except keyring.errors.KeyringError as error:
            log.warning("Cannot save the Hugging Face token: %s", type(error).__name__)
            raise TokenStoreError(
                f"The system keyring refused to store the token ({type(error).__name__}). "
                "Unlock the keyring and try again."
            ) from error
        log.info("Hugging Face token saved in the system keyring")

    def clear(self) -> None:
        try:
            keyring.delete_password(self.service, self.username)
        except keyring.errors.PasswordDeleteError:
            return  # nothing was saved
        except keyring.errors.NoKeyringError:
            return
        except keyring.errors.KeyringError as error:
            raise TokenStoreError(
                f"The system keyring refused to remove the token ({type(error).__name__}). "
                "Unlock the keyring and try again."
            ) from error
        log.info("Hugging Face token removed from the system keyring")

    def _read_keyring(self) -> str | None:
        try:
            return keyring.get_password(self.service, self.username)
        except keyring.errors.NoKeyringError:
            return None
        except keyring.errors.KeyringError as error:
            log.warning("Cannot read the Hugging Face token from the keyring: %s", type(error).__name__)
            return None

"""The Hugging Face token, kept only in the operating system's keyring (never in a file or a log).

A machine without a keyring backend still works for public models: reading gives no token,
saving raises `TokenStoreError` with the reason and what to do instead.
"""

from __future__ import annotations

import logging
import os

from app.core.support.formatting import fill
from app.core.support.secrets import SERVICE, NoKeyring, SecretNotKept, SecretStore, SecretStoreError
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

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
        self._secrets = SecretStore(service)
        self.username = username

    def get(self) -> str | None:
        """The saved token, else HF_TOKEN from the environment, else None. Never raises."""
        return self._secrets.get(self.username) or os.environ.get(ENV_TOKEN) or None

    def saved_in_keyring(self) -> bool:
        return bool(self._secrets.get(self.username))

    def available(self) -> bool:
        """Whether a keyring backend can store a token on this machine."""
        return self._secrets.available()

    def unavailable_reason(self) -> str:
        return "" if self.available() else _NO_KEYRING_HELP

    def set(self, token: str) -> None:
        token = token.strip()
        if not token:
            raise TokenStoreError(N_("The token is empty: paste the token from huggingface.co/settings/tokens."))
        if any(ch.isspace() for ch in token):
            raise TokenStoreError(
                N_("A Hugging Face token has no spaces: copy it again from huggingface.co/settings/tokens.")
            )
        try:
            self._secrets.set(self.username, token)
        except NoKeyring as error:
            raise TokenStoreError(_NO_KEYRING_HELP) from error
        except SecretNotKept as error:
            raise TokenStoreError(
                fill(
                    N_(
                        "The token was not saved: the system keyring ({backend}) took it but keeps nothing, "
                        "so it is not in the keyring nor anywhere else (Glassbox never writes tokens to a file). "
                        "Install or start a keyring service (GNOME Keyring, KWallet, macOS Keychain, Windows "
                        "Credential Manager) and try again, or set the HF_TOKEN environment variable before "
                        "starting Glassbox."
                    ),
                    backend=error.backend,
                )
            ) from error
        except SecretStoreError as error:
            raise TokenStoreError(
                fill(
                    N_("The system keyring refused to store the token ({error}). Unlock the keyring and try again."),
                    error=error,
                )
            ) from error
        log.info("Hugging Face token saved in the system keyring")

    def clear(self) -> None:
        try:
            removed = self._secrets.delete(self.username)
        except SecretStoreError as error:
            raise TokenStoreError(
                fill(
                    N_("The system keyring refused to remove the token ({error}). Unlock the keyring and try again."),
                    error=error,
                )
            ) from error
        if removed:
            log.info("Hugging Face token removed from the system keyring")

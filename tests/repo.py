"""Where the repository is, for tests that run its scripts or read its files."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

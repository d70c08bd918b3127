"""Shared value types: messages, load settings and reports, reply events and what a reply measured.

They cross every boundary (engine process, backends, chat store, window, CLI, API server), so
they live apart from the token loop: nothing here imports llama.cpp, numpy or Qt (an
import-linter contract in pyproject.toml holds it), and importing them costs nothing.
"""

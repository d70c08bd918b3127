"""Glassbox: a desktop chat app for local language models that shows what happens inside."""

__version__ = "0.1.0"

"""Pytest plugins of the suite, registered in tests/conftest.py through `pytest_plugins`."""

"""The Server feature: Glassbox's own OpenAI-compatible API server, started from the window, every request visible."""

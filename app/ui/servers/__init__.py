"""The Servers feature: saved OpenAI-compatible servers, testing them, and their models in the picker."""

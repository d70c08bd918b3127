"""The one interface the app talks to for inference (base.py) and its implementations."""

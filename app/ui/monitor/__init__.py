"""The Monitor panel (panel.py) with its timeline plots and sampler thread, and the alert notices above the chat."""

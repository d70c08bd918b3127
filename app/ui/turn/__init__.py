"""The window's side of a turn: a controller that runs app/core/turn's turns on the LLM worker's
thread and turns their events into Qt signals."""
